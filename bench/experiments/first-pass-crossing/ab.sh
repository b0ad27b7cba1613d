#!/usr/bin/env bash
# Version 23 (repository root; .carry: the new build, .carry/old: version 22's CLI and kernel cache): the GPU tests
# of spread tiles and the engine's sizes, then 512^3 and 256x512x1024 with the table's three passes against the Z
# splits the default planner now takes, out of place and in place, and the 14 changed sizes off the table, version 22
# against version 23. Every run checked against the fp64 oracle before its time is printed.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/old/cache/. /tmp/c/. && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp} e=bench/experiments/first-pass-crossing
timeout 120 .carry/kernels_gpu_tests --gtest_filter='DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' > $out/gpu_tests_spread.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $out/gpu_tests_spread.txt | head
one() {  # label, binary, plan, extra flags
  local label=$1 bin=$2; shift 2
  timeout 120 $bin run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> $out/ab_table.txt
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for round in 1 2; do
  one v23 .carry/fft3d plans/hopper/512x512x512.yaml --repeat 10
  one v23 .carry/fft3d $e/512x512x512-z-split-32x16.yaml --repeat 10 --per-kernel
  one v22 .carry/old/fft3d $e/512x512x512-z-split-32x16.yaml --repeat 10
  one v23 .carry/fft3d plans/hopper/256x512x1024.yaml --repeat 10
  one v23 .carry/fft3d $e/256x512x1024-z-split-64x16.yaml --repeat 10 --per-kernel
done
for p in plans/hopper/512x512x512.yaml $e/512x512x512-z-split-32x16.yaml plans/hopper/256x512x1024.yaml $e/256x512x1024-z-split-64x16.yaml; do
  one v23 .carry/fft3d $p --repeat 10 --in-place
done
echo "--- off the table, out of place: v22 | v23"
LIMIT=150 bash bench/experiments/narrow-32/ab_offtable.sh $(cat $e/sizes.txt) | tee $out/ab_offtable.txt
