#!/usr/bin/env bash
# Version 25 (repository root; .carry: the build with the experiment switch and a kernel cache warmed both ways).
# One device call: the GPU tests of the hopper table plans and of spread tiles with FFT3D_WIDE_SPREAD_BLOCKS=2 (radix-32
# passes in spread tiles); then per kernel, each size's plan (the table's, or the default planner's off the table)
# without the switch and with it, alternated, two rounds, median of 10, every run checked against the fp64 oracle.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_WIDE_SPREAD_BLOCKS=2 timeout 240 .carry/kernels_gpu_tests --gtest_filter='Plans/ShippedPlanOnGpu.*hopper_128x512x512*:Plans/ShippedPlanOnGpu.*hopper_256x512x512*:Plans/ShippedPlanOnGpu.*hopper_128x512x1024*:Plans/ShippedPlanOnGpu.*hopper_512x512x512*:Plans/ShippedPlanOnGpu.*hopper_256x512x1024*:Plans/ShippedPlanOnGpu.*hopper_128x1024x1024*:DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' > $out/gpu_tests_wide.txt 2>&1
echo "gpu tests (wide) rc $?"; grep -E "^\[ +(PASSED|FAILED) +\]|Failure" $out/gpu_tests_wide.txt | head -20
one() {  # label, then run arguments; FFT3D_WIDE_SPREAD_BLOCKS from the caller
  local label=$1; shift
  timeout 90 .carry/fft3d run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for round in 1 2; do
  for s in 512x512x512 256x512x1024 128x1024x1024 256x512x512 128x512x1024 128x512x512 512x1024x256 1024x1024x64 256x1024x256 512x512x256 1024x512x128; do
    [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break 2; }
    FFT3D_WIDE_SPREAD_BLOCKS= one "r$round off " --size $s --repeat 10 --per-kernel
    FFT3D_WIDE_SPREAD_BLOCKS=2 one "r$round wide" --size $s --repeat 10 --per-kernel
  done
done
