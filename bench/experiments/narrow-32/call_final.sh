#!/usr/bin/env bash
# Version 22, after the 32-byte runs were taken out: the final binary (.carry) against the one with 32-byte runs
# (.carry/c32) and version 21's (.carry/old) where their kernels differ, then the reference bench.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/c32/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/. && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp} e=bench/experiments/narrow-32
for round in 1 2; do
  for bin in .carry/c32/fft3d .carry/fft3d; do
    for mode in "" --in-place; do
      echo "$bin 1024x256x256 table $mode -> $(timeout 60 $bin run plans/hopper/1024x256x256.yaml --backend cuda --repeat 20 $mode 2>&1 | awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /FAIL|error:/ {f="FAIL"} END {print t, c, f}')"
    done
  done
done | tee $out/final_1024x256x256.txt
echo "--- out of place: v21 | 32-byte runs | final"
BINS=".carry/old/fft3d .carry/c32/fft3d .carry/fft3d" LIMIT=100 bash $e/ab_offtable.sh 256x256x1024 512x256x512 1024x512x128 512x512x256 128x512x1024 256x512x512 | tee $out/final_offtable.txt
echo "--- in place: v21 | 32-byte runs | final"
IN_PLACE=1 BINS=".carry/old/fft3d .carry/c32/fft3d .carry/fft3d" LIMIT=60 bash $e/ab_offtable.sh 256x256x1024 512x256x512 | tee $out/final_in_place.txt
bash bench/experiments/v22/bench.sh
