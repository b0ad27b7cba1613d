#!/usr/bin/env bash
# Version 29 (repository root; .carry: the build with the experiment switch FFT3D_V29_SPLIT_ONE_BLOCK, off by default,
# and a kernel cache warmed both ways). A one-block tile of 128 KB whose part field can be crossed by the first pass
# alone, cut into 2 parts of 64 KB, two blocks a multiprocessor: 93 of the 343 default plans of 16-1024 per axis
# change a kernel this way, 1024^3's Y and Z kernels among them. GPU tests of two changed table plans with the switch,
# then per kernel, old and split alternated, median of 10, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V29_SPLIT_ONE_BLOCK=1 gpu_tests 150 split 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' \
  256x256x256 128x512x512
for s in 1024x1024x1024; do
  one "old  " --size $s --repeat 5 --per-kernel
  FFT3D_V29_SPLIT_ONE_BLOCK=1 one "split" --size $s --repeat 5 --per-kernel
done
for round in r1 r2; do
  for s in 256x256x256 128x512x512 1024x128x128 128x128x1024 512x512x128 64x512x512 256x1024x1024; do
    [ $SECONDS -gt 500 ] && { echo "stopped before $round $s (time)"; break 2; }
    one "$round old  " --size $s --repeat 10 --per-kernel
    FFT3D_V29_SPLIT_ONE_BLOCK=1 one "$round split" --size $s --repeat 10 --per-kernel
  done
done
