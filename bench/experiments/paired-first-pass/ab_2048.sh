#!/usr/bin/env bash
# Version 20, second call: 2048^3 in place (closed form and round trip checked), version 19 against 20, per kernel;
# and whether Nsight Compute can sample the spread kernel here.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
log=${OUT:-/tmp}/paired_ab_2048.txt
for bin in .carry/old/fft3d .carry/fft3d; do
  echo "=== $bin" >> "$log"
  timeout 280 $bin run plans/hopper/2048x2048x2048.yaml --backend cuda --in-place --repeat 3 --per-kernel >> "$log" 2>&1
  echo "rc $?" >> "$log"
done
grep -E "^===|^time|^cuFFT|^kernel|^error|^roundtrip|^rc" "$log"
which ncu nsys 2>&1 | head; ls /usr/local/cuda/bin | grep -i -E "ncu|nsight|nsys" | head
