#!/usr/bin/env bash
# Version 19: wisdom on the GPU. `plan --measure 3 --in-place --remember` for 512x1024x256, then `run --size` in place
# (takes the remembered plan) and out of place (no wisdom for it: the default planner).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
.carry/fft3d plan --size 512x1024x256 --measure 3 --in-place --remember 2>&1 | grep -E 'candidate|remembered|error'
for mode in --in-place ""; do
  echo "=== run --size 512x1024x256 $mode"
  .carry/fft3d run --size 512x1024x256 --backend cuda --repeat 10 $mode 2>&1 | grep -E '^plan|^error|^time|^cuFFT'
done
