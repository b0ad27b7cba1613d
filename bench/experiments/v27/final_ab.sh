#!/usr/bin/env bash
# Version 27, last call: the shipped rule (8-block tiles crossed in radix 8 take 64-byte runs over 4 blocks) against
# the same binary with it off (FFT3D_V27_WIDE_RUNS, a temporary switch removed after this run). GPU tests of the
# changed table plan in 8 modes with the round trip, the spread tiles and engine-for-size (the rule on); then the
# nine sizes whose default plan changes, old and new alternated, median of 10, two rounds, every run checked first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
filter='DistributedTilesOnGpu.*:EngineForSize.*:Plans/ShippedPlanOnGpu.*hopper_128x1024x1024_yaml'
timeout 150 .carry/kernels_gpu_tests --gtest_filter="$filter" > $out/gpu_tests_final.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(PASSED|FAILED) +\]|Failure" $out/gpu_tests_final.txt | head -20
sizes="64x1024x1024 128x1024x512 256x1024x256 512x1024x128 128x1024x1024 256x1024x512 512x1024x256 1024x1024x64 1024x1024x128"
for r in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 480 ] && { echo "stopped before $r $s (time)"; break 2; }
    FFT3D_V27_WIDE_RUNS=1 one "$r old " --size $s --repeat 10 --per-kernel
    one "$r new " --size $s --repeat 10 --per-kernel
  done
done
[ $SECONDS -lt 500 ] && { FFT3D_V27_WIDE_RUNS=1 one "in-place old" --size 128x1024x1024 --repeat 10 --in-place; one "in-place new" --size 128x1024x1024 --repeat 10 --in-place; }
