#!/usr/bin/env bash
# Version 30, third step: the A/B that decided to ship linear words and linear stores. Kept as the record of how
# the numbers in bench/results/2026-11-24-h100-v30/linear-*-call were taken; the code is now the default and the
# switches are gone, so linear-words.patch no longer applies and this script only reproduces on the commit before
# it (git log -- kernels/emit/emit_tile_access.cpp). It needed the patched build
# (git apply bench/experiments/v30/linear-words.patch) in .carry, its kernel cache warmed for every variant below.
# TESTS=1 (the default) first runs the GPU tests with both switches on: random plans of every profile, the spread
# tiles, engine-for-size and the hopper table plans but 1024^3, in 8 modes with the round trip. Then, for each size,
# the transform per kernel with neither switch, shared-memory words alone (FFT3D_V30_LINEAR=1), global stores alone
# (FFT3D_V30_LINEAR_STORES=1) and both; median of 10, every run checked against the fp64 oracle first. Two calls:
#   TESTS=1 SIZES="512x512x512 128x1024x1024 1024x256x256"
#   TESTS=0 SIZES="256x512x512 256x256x256 128x512x512 128x128x128 256x128x128 256x512x1024"
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ "${TESTS:-1}" = 1 ]; then
  FFT3D_V30_LINEAR=1 FFT3D_V30_LINEAR_STORES=1 gpu_tests 280 linear \
    'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' \
    128x128x128 256x128x128 256x256x256 512x256x256 1024x256x256 512x512x512 128x512x512 256x512x512 \
    128x512x1024 256x512x1024 128x1024x1024
fi
for s in ${SIZES:-512x512x512 128x1024x1024 1024x256x256}; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  one "old   " --size $s --repeat 10 --per-kernel
  FFT3D_V30_LINEAR=1 one "words " --size $s --repeat 10 --per-kernel
  FFT3D_V30_LINEAR_STORES=1 one "stores" --size $s --repeat 10 --per-kernel
  FFT3D_V30_LINEAR=1 FFT3D_V30_LINEAR_STORES=1 one "both  " --size $s --repeat 10 --per-kernel
done
