#!/usr/bin/env bash
# Version 20 on the GPU machine (repository root; .carry holds the new build and, in .carry/old, the version-19 CLI
# with its kernel cache): the table's spread Z splits and 2048^3, version-19 binary against version 20, alternated,
# every run checked (the oracle, or for 2048^3 the closed form and the round trip) before its time is printed.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
log=${OUT:-/tmp}/paired_ab.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > ${OUT:-/tmp}/gpu.txt
one() {  # label, binary, plan, extra flags
  local label=$1 bin=$2; shift 2
  timeout 240 $bin run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> "$log"
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for round in 1 2; do
  for p in 256x256x256 512x256x256 128x512x512 256x512x512 128x512x1024 128x1024x1024; do
    one v19 .carry/old/fft3d plans/hopper/$p.yaml --repeat 20 --per-kernel
    one v20 .carry/fft3d plans/hopper/$p.yaml --repeat 20 --per-kernel
  done
done
for p in 256x256x256 512x256x256 128x512x512 256x512x512 128x512x1024 128x1024x1024; do
  one v19 .carry/old/fft3d plans/hopper/$p.yaml --repeat 20 --in-place
  one v20 .carry/fft3d plans/hopper/$p.yaml --repeat 20 --in-place
done
one v19 .carry/old/fft3d plans/hopper/2048x2048x2048.yaml --repeat 3 --per-kernel
one v20 .carry/fft3d plans/hopper/2048x2048x2048.yaml --repeat 3 --per-kernel
