#!/usr/bin/env bash
# Version 30, third call (not run yet: the device was withdrawn). Needs the build with linear-words.patch applied
# (git apply bench/experiments/v30/linear-words.patch) in .carry, its kernel cache warmed with and without
# FFT3D_V30_LINEAR=1 and =cross. The GPU tests with the switch on (random plans of every profile, the spread tiles,
# engine-for-size and the hopper table plans but 1024^3), then each table size but 1024^3 per kernel without it,
# with it for the crossing accesses only (cross) and for all (1), median of 10, every run checked first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V30_LINEAR=1 gpu_tests 260 linear 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' \
  128x128x128 256x128x128 256x256x256 512x256x256 1024x256x256 512x512x512 128x512x512 256x512x512 \
  128x512x1024 256x512x1024 128x1024x1024
sizes="512x512x512 128x1024x1024 1024x256x256 256x512x512 256x256x256 128x512x512 128x128x128 256x128x128"
for s in ${SIZES:-$sizes}; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  one "old   " --size $s --repeat 10 --per-kernel
  FFT3D_V30_LINEAR=cross one "cross " --size $s --repeat 10 --per-kernel
  FFT3D_V30_LINEAR=1 one "linear" --size $s --repeat 10 --per-kernel
done
