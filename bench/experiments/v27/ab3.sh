#!/usr/bin/env bash
# Version 27, third call: the spread tiles' crossing pass through asynchronous remote stores on an mbarrier
# (FFT3D_V27_ASYNC_CROSS=1) and the barrier before their stores arriving relaxed out of place
# (FFT3D_V27_RELAXED_PRESTORE=1). GPU tests of the spread plans with both on; then per kernel, old, each alone, both,
# median of 10, two rounds, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V27_ASYNC_CROSS=1 FFT3D_V27_RELAXED_PRESTORE=1 gpu_tests 200 async \
  'DistributedTilesOnGpu.*:EngineForSize.*:RandomPlansOnGpu.*' \
  1024x256x256 128x512x1024 256x512x512 256x512x1024 512x512x512 128x1024x1024 128x512x512
sizes="512x512x512 128x1024x1024 256x512x1024 1024x256x256 256x512x512 128x512x1024"
for r in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 540 ] && { echo "stopped before $r $s (time)"; break 2; }
    one "$r old     " --size $s --repeat 10 --per-kernel
    FFT3D_V27_ASYNC_CROSS=1 one "$r async   " --size $s --repeat 10 --per-kernel
    FFT3D_V27_RELAXED_PRESTORE=1 one "$r relaxed " --size $s --repeat 10 --per-kernel
    FFT3D_V27_ASYNC_CROSS=1 FFT3D_V27_RELAXED_PRESTORE=1 one "$r both    " --size $s --repeat 10 --per-kernel
  done
done
