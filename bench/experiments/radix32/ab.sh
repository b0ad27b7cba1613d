#!/usr/bin/env bash
# Version 18 A/B: the hopper table plans lowered with the in-register radix limit at 16 and at 32, alternated,
# each run checked against the oracle; per-kernel times with each kernel's copy twin. FFT3D_RADIX_LIMIT was a
# temporary switch in split_radix.cpp's register_radix_limit for this run; it is not in the tree. Run on the GPU
# machine from the repository root with .carry carried.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
sizes=${SIZES:-"128x128x128 256x128x128 256x256x256 512x256x256 1024x256x256 512x512x512 128x512x512 256x512x512 128x512x1024 256x512x1024 128x1024x1024 1024x1024x1024"}
for round in 1 2; do
  for size in $sizes; do
    for limit in 16 32; do
      echo "=== round $round $size limit $limit"
      FFT3D_RADIX_LIMIT=$limit .carry/fft3d run plans/hopper/$size.yaml --repeat 20 --per-kernel ${EXTRA:-} 2>&1 \
        | grep -E "error|time|cuFFT|kernel [0-9]|rror"
    done
  done
done
