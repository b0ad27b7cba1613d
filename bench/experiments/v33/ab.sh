#!/usr/bin/env bash
# Version 33, first call (repository root, .carry carried with the new binary as .carry/fft3d and the one before
# the change as .carry/fft3d_base; bench/NOTES.md version 33). The GPU tests of the new code (spread tiles, random
# plans, engine-for-size and the six table plans whose second kernel loses its last cluster barrier, in 8 modes with
# the round trip); then each size's transform per kernel, old and new alternated, two rounds, median of 10, every
# run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
sizes="512x512x512 128x1024x1024 256x512x512 128x512x1024 256x512x1024 1024x256x256"
gpu_tests 230 new 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' $sizes
for round in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 560 ] && { echo "stopped before $round $s (time)"; break 2; }
    BIN=.carry/fft3d_base one "$round old" --size $s --repeat 10 --per-kernel
    one "$round new" --size $s --repeat 10 --per-kernel
  done
done
