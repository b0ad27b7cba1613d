#!/usr/bin/env bash
# Version 21, third call (the second form: whole Z lines keep 128-byte runs): 2048^3 in place, version 19 against
# version 21 per kernel (closed form and round trip checked), then the sizes off the table whose default plan changes
# or narrows (sizes.txt) through ab_offtable.sh.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
log=${OUT:-/tmp}/narrow_ab_2048_second_form.txt
for bin in .carry/old/fft3d .carry/fft3d; do
  echo "=== $bin" >> "$log"
  timeout 250 $bin run plans/hopper/2048x2048x2048.yaml --backend cuda --in-place --repeat 3 --per-kernel >> "$log" 2>&1
  echo "rc $?" >> "$log"
done
grep -E "^===|^time|^cuFFT|^kernel|^error|^roundtrip|^rc" "$log"
bench/experiments/narrow-x-runs/ab_offtable.sh | tee ${OUT:-/tmp}/narrow_ab_offtable_second_form.txt
