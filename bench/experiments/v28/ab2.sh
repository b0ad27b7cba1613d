#!/usr/bin/env bash
# Version 28, second call. GPU tests with the 1 MB tiles narrowed to 64-byte runs and every spread tile in 64 KB parts
# (FFT3D_V28_NARROW_ALL=1 FFT3D_V28_HALF_PARTS=8); per kernel, old against that for the sizes whose 1 MB tiles it
# changes (two rounds), then old against FFT3D_V28_HALF_PARTS=8 in place for the four table sizes the first call
# measured out of place. Plans off the table are the default planner's of version 27 (plans/), so both forms run the
# same plan.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V28_NARROW_ALL=1 FFT3D_V28_HALF_PARTS=8 gpu_tests 150 narrow_all 'DistributedTilesOnGpu.*' 256x512x1024 512x512x512
p=bench/experiments/v28/plans
for round in r1 r2; do
  for s in --size=512x512x512 --size=256x512x1024 $p/1024x512x256.yaml; do
    [ $SECONDS -gt 400 ] && { echo "stopped before $round $s (time)"; break 2; }
    one "$round old " $s --repeat 10 --per-kernel
    FFT3D_V28_NARROW_ALL=1 FFT3D_V28_HALF_PARTS=8 one "$round narrow-all half" $s --repeat 10 --per-kernel
  done
done
for s in 128x1024x1024 1024x256x256 256x512x512 128x512x1024; do
  [ $SECONDS -gt 520 ] && { echo "stopped before in place $s (time)"; break; }
  one "in place old " --size $s --in-place --repeat 10 --per-kernel
  FFT3D_V28_HALF_PARTS=8 one "in place half" --size $s --in-place --repeat 10 --per-kernel
done
