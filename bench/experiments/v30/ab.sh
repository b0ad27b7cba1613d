#!/usr/bin/env bash
# Version 30, first call (a record: the switches FFT3D_V30_ROTATE and FFT3D_V30_DROP_PRESTORE are gone from the
# code; bench/NOTES.md version 30). The GPU tests of the spread-tile plans with both switches on; then, for each
# table size with a spread second kernel, the transform per kernel with neither switch, each alone and both, median
# of 10, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
round=${ROUND:-r1}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ "$round" = r1 ]; then
  FFT3D_V30_ROTATE=1 FFT3D_V30_DROP_PRESTORE=1 gpu_tests 200 both 'DistributedTilesOnGpu.*' \
    1024x256x256 128x512x1024 256x512x512 256x512x1024 512x512x512 128x1024x1024
fi
sizes=${SIZES:-"512x512x512 1024x256x256 256x512x1024 256x512x512 128x512x1024 128x1024x1024"}
for s in $sizes; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $round $s (time)"; break; }
  one "$round old   " --size $s --repeat 10 --per-kernel
  FFT3D_V30_ROTATE=1 one "$round rotate" --size $s --repeat 10 --per-kernel
  FFT3D_V30_DROP_PRESTORE=1 one "$round drop  " --size $s --repeat 10 --per-kernel
  FFT3D_V30_ROTATE=1 FFT3D_V30_DROP_PRESTORE=1 one "$round both  " --size $s --repeat 10 --per-kernel
done
