#!/usr/bin/env bash
# Version 21, first call (repository root; .carry: the new build, .carry/old: version 19's CLI and kernel cache):
# the GPU tests of the plans whose kernels narrow (the shipped hopper plans, the spread test plans, random plans,
# engine-for-size), then version 19 against version 21 on the table sizes that narrow and on 2048^3, alternated,
# every run checked (fp64 oracle; 2048^3 in closed form and by the round trip) before its time is printed.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
out=${OUT:-/tmp} log=${OUT:-/tmp}/narrow_ab_table.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt
timeout 200 .carry/kernels_gpu_tests --gtest_filter='DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*:*hopper_256x256x256*:*hopper_512x256x256*:*hopper_128x512x512*' > $out/gpu_tests_narrow.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $out/gpu_tests_narrow.txt | head -20
one() {  # label, binary, plan, extra flags
  local label=$1 bin=$2; shift 2
  timeout 280 $bin run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> "$log"
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for round in 1 2; do
  for p in 256x256x256 512x256x256 128x512x512; do
    one v19 .carry/old/fft3d plans/hopper/$p.yaml --repeat 20 --per-kernel
    one v21 .carry/fft3d plans/hopper/$p.yaml --repeat 20 --per-kernel
  done
done
for p in 256x256x256 512x256x256 128x512x512; do
  one v19 .carry/old/fft3d plans/hopper/$p.yaml --repeat 20 --in-place
  one v21 .carry/fft3d plans/hopper/$p.yaml --repeat 20 --in-place
done
one v19 .carry/old/fft3d plans/hopper/2048x2048x2048.yaml --in-place --repeat 3 --per-kernel
one v21 .carry/fft3d plans/hopper/2048x2048x2048.yaml --in-place --repeat 3 --per-kernel
