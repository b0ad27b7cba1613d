#!/usr/bin/env bash
# A record: the switch is gone from the code; version 32 made its Y-line half a lowering rule (split_radix.cpp).
# Version 32, first call (repository root, .carry carried; bench/NOTES.md version 32). The experiment switch
# FFT3D_V32_WIDE_SPREAD=1 (lower_plan.cpp) gives the spread tiles whose blocks share a multiprocessor the wide passes
# of a one-block tile: 256 threads of 32 values, Y 512 in [16,32] and Y 1024 in [32,32] instead of [8,8,8] and
# [8,8,16]. First the GPU tests with the switch on (the spread tiles, random plans, engine-for-size and the five
# table plans it changes, in 8 modes with the round trip); then each size's transform per kernel, the switch off and
# on alternated, two rounds, median of 10, every run checked against the fp64 oracle first; then, if time is left,
# 1024^3 in two passes with today's kernels (version 19's split, out of place).
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
sizes="512x512x512 128x1024x1024 256x512x512 128x512x1024 256x512x1024"
FFT3D_V32_WIDE_SPREAD=1 gpu_tests 200 wide 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' $sizes
for round in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 420 ] && { echo "stopped before $round $s (time)"; break 2; }
    one "$round old " --size $s --repeat 10 --per-kernel
    FFT3D_V32_WIDE_SPREAD=1 one "$round wide" --size $s --repeat 10 --per-kernel
  done
done
if [ $SECONDS -lt 430 ]; then
  timeout $((590 - SECONDS)) .carry/fft3d run bench/experiments/two-pass-2e27/1024x1024x1024-Z128-xf.yaml \
    --backend cuda --repeat 5 --per-kernel > $out/two_pass_1024.txt 2>&1
  echo "1024^3 two passes rc $?"; grep -E '^time|^cuFFT|^kernel|error' $out/two_pass_1024.txt
fi
