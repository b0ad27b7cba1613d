#!/usr/bin/env bash
# Version 22, first call (repository root; .carry: the new build (planner charge 0.1/0.15), .carry/old: version 21's
# CLI and kernel cache): the GPU tests of the plans whose kernels narrow to 32-byte runs, then version 21 against
# version 22 on the table sizes whose kernels change and the 1024x256x256 two-pass candidates, alternated, every
# run checked against the fp64 oracle before its time is printed.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
out=${OUT:-/tmp} log=${OUT:-/tmp}/narrow32_ab_table.txt e=bench/experiments/narrow-32
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt
timeout 240 .carry/kernels_gpu_tests --gtest_filter='DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*:*hopper_256x512x512*:*hopper_128x512x1024*' > $out/gpu_tests_narrow32.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $out/gpu_tests_narrow32.txt | head -30
one() {  # label, binary, plan, extra flags
  local label=$1 bin=$2; shift 2
  timeout 120 $bin run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> "$log"
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for round in 1 2; do
  for p in 256x512x512 128x512x1024; do
    one v21 .carry/old/fft3d plans/hopper/$p.yaml --repeat 20 --per-kernel
    one v22 .carry/fft3d plans/hopper/$p.yaml --repeat 20 --per-kernel
  done
  one v22 .carry/fft3d plans/hopper/1024x256x256.yaml --repeat 20 --per-kernel
  one v22 .carry/fft3d $e/1024x256x256-y-split-16x16.yaml --repeat 20 --per-kernel
  one v22 .carry/fft3d $e/1024x256x256-z-split-16x16.yaml --repeat 20 --per-kernel
  one v22 .carry/fft3d plans/hopper/128x512x512.yaml --repeat 20 --per-kernel
  one v22 .carry/fft3d $e/128x512x512-z-split-64x8.yaml --repeat 20 --per-kernel
done
for p in 256x512x512 128x512x1024; do
  one v21 .carry/old/fft3d plans/hopper/$p.yaml --repeat 20 --in-place
  one v22 .carry/fft3d plans/hopper/$p.yaml --repeat 20 --in-place
done
one v22 .carry/fft3d plans/hopper/1024x256x256.yaml --repeat 20 --in-place
one v22 .carry/fft3d $e/1024x256x256-z-split-16x16.yaml --repeat 20 --in-place
