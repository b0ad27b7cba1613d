#!/usr/bin/env bash
# Second call of version 19: the per-kernel report after its fix, the 2^27 splits against the table in both modes
# (two rounds, alternated), and measured planning on the off-table sizes below 1.3x cuFFT.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
here=bench/experiments/two-pass-2e27 log=${OUT:-/tmp}/two_pass_2e27_run2.txt
mkdir -p ${OUT:-/tmp}/measured
one() {  # plan, extra flags
  timeout 200 .carry/fft3d run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $*"; cat /tmp/one.txt; } >> "$log"
  echo "$* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
one plans/hopper/256x128x128.yaml --repeat 5 --per-kernel
one $here/128x1024x1024-Z128-xf.yaml --repeat 5 --per-kernel
for round in 1 2; do
  for mode in "" "--in-place"; do
    for p in plans/hopper/128x1024x1024.yaml $here/128x1024x1024-Z128-xf.yaml plans/hopper/256x512x1024.yaml \
             $here/256x512x1024-Z128-xf.yaml; do
      one $p --repeat 20 $mode
    done
  done
done
for s in 64x512x512 64x64x256 128x128x256 32x32x512 128x64x64 64x64x64 1024x64x32 1024x512x64 512x1024x256; do
  echo "=== plan --measure $s" >> "$log"
  timeout 150 .carry/fft3d plan --size $s --measure 8 -o ${OUT:-/tmp}/measured/$s.yaml >> "$log" 2>&1
  echo "measure $s rc $?: $(grep -v '^#' ${OUT:-/tmp}/measured/$s.yaml 2>/dev/null | grep '^  -' | tr '\n' ' ')"
done
grep '^candidate' "$log" | sed 's/relative L2 [^ ]*//'
