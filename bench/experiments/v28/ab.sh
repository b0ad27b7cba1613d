#!/usr/bin/env bash
# Version 28, first call (repository root; .carry: the build with the experiment switches, off by default, and a
# kernel cache warmed for the switch off and FFT3D_V28_HALF_PARTS=16). The GPU tests of the spread-tile plans with
# 64 KB parts; then per kernel, each table size with a spread second kernel with its parts of 128 KB (old) and of
# 64 KB (half: clusters of up to 8, or 16 for the 1 MB tiles), median of 10, every run checked against the fp64 oracle
# first. FFT3D_V28_PRINT_CLUSTERS prints cudaOccupancyMaxActiveClusters for each clustered kernel.
source "$(dirname "$0")/../common.sh"
export FFT3D_V28_PRINT_CLUSTERS=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V28_HALF_PARTS=16 gpu_tests 200 half 'DistributedTilesOnGpu.*' \
  1024x256x256 128x512x1024 256x512x512 256x512x1024 512x512x512 128x1024x1024
half() { case $1 in 512x512x512|256x512x1024) echo 16;; *) echo 8;; esac; }
sizes="512x512x512 128x1024x1024 256x512x1024 1024x256x256 256x512x512 128x512x1024"
for round in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 520 ] && { echo "stopped before $round $s (time)"; break 2; }
    one "$round old " --size $s --repeat 10 --per-kernel
    [ $round = r1 ] && grep "^v28" /tmp/one.txt
    FFT3D_V28_HALF_PARTS=$(half $s) one "$round half" --size $s --repeat 10 --per-kernel
    [ $round = r1 ] && grep "^v28" /tmp/one.txt
  done
done
