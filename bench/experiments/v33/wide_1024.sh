#!/usr/bin/env bash
# A record: the switch is gone from the code (refuted, bench/NOTES.md version 33, second step).
# Version 33, third call (repository root, .carry carried with the final binary; bench/NOTES.md version 33, second
# step). The switch FFT3D_V33_WIDE_1024=1 (split_radix.cpp) gives 1024-point Y lines of spread tiles that share a
# multiprocessor [32,32] on 256 threads, which the first step's rule then stores without the last cluster barrier.
# First the GPU tests with the switch on (spread tiles, random plans, engine-for-size, 128x1024x1024 in 8 modes with
# the round trip); then each size's transform per kernel, switch off and on alternated, two rounds, median of 10,
# every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V33_WIDE_1024=1 gpu_tests 150 wide1024 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' 128x1024x1024
for round in r1 r2; do
  for s in 128x1024x1024 1024x1024x64 512x1024x256; do
    [ $SECONDS -gt 540 ] && { echo "stopped before $round $s (time)"; break 2; }
    one "$round old " --size $s --repeat 10 --per-kernel
    FFT3D_V33_WIDE_1024=1 one "$round wide" --size $s --repeat 10 --per-kernel
  done
done
