#!/usr/bin/env bash
# Version 18, third step A/B: X kernels grown to one-block tiles so that their 512- and 1024-point lines take
# radix-32 passes. FFT3D_GROW_WIDE was a temporary switch in grow_tile.cpp for this run (unset: today's 16 KB X
# tiles; x: X-only kernels grown; all: any kernel whose split stages lose a pass). Per-kernel times with twins.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
one() {  # mode, size
  echo "=== $3 $2 mode ${1:-off}"
  if [ -n "$1" ]; then export FFT3D_GROW_WIDE=$1; else unset FFT3D_GROW_WIDE; fi
  .carry/fft3d run --size $2 --repeat 20 --per-kernel 2>&1 | grep -E "^plan|^error|^time|^cuFFT|^kernel [0-9]|rror"
}
for round in 1 2; do
  for size in 1024x256x256 512x512x512 512x512x256 1024x1024x64 1024x512x64 512x1024x256 1024x128x128; do
    for mode in "" x all; do one "$mode" $size "round $round"; done
  done
done
for mode in "" x all; do one "$mode" 1024x1024x1024 "round 1"; done
