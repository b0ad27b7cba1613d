#!/usr/bin/env bash
# Version 27 (repository root; .carry: the build with the experiment switches, off by default, and a kernel cache).
# One device call: the GPU tests of the spread-tile plans with 64-byte runs over half the blocks
# (FFT3D_V27_NARROW_SPREAD=1); then per kernel, each table size with a spread second kernel as it is (old), narrowed,
# and with each cluster scheduling policy, median of 10, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V27_NARROW_SPREAD=1 gpu_tests 200 narrow 'DistributedTilesOnGpu.*:EngineForSize.*' \
  1024x256x256 128x512x1024 256x512x512 256x512x1024 512x512x512 128x1024x1024
sizes="512x512x512 128x1024x1024 256x512x1024 1024x256x256 256x512x512 128x512x1024"
for s in $sizes; do
  [ $SECONDS -gt 420 ] && { echo "stopped before $s (time)"; break; }
  one "r1 old     " --size $s --repeat 10 --per-kernel
  FFT3D_V27_NARROW_SPREAD=1 one "r1 narrow  " --size $s --repeat 10 --per-kernel
  FFT3D_V27_CLUSTER_POLICY=1 one "r1 spread  " --size $s --repeat 10 --per-kernel
  FFT3D_V27_CLUSTER_POLICY=2 one "r1 balance " --size $s --repeat 10 --per-kernel
done
for s in $sizes; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  one "r2 old     " --size $s --repeat 10 --per-kernel
  FFT3D_V27_NARROW_SPREAD=1 one "r2 narrow  " --size $s --repeat 10 --per-kernel
done
