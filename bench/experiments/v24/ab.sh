#!/usr/bin/env bash
# Version 24 (repository root; .carry: the new build and its kernel cache, .carry/old: version 22's CLI). One device
# call: the GPU tests of the new table plans and of spread tiles; 512^3 and 256x512x1024 through `run --size` out of
# place and in place (the table per placement); the two-pass candidates the new lowering ranks first for the table's
# 128x512x1024 and 256x512x512; per-kernel times of the old and new default plans of the sizes version 23 measured
# slower and faster; then the 14 changed sizes off the table, version 22 against version 24, both placements. Every
# run is checked against the fp64 oracle before its time is printed.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp} e=bench/experiments/v24
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 200 .carry/kernels_gpu_tests --gtest_filter='Plans/ShippedPlanOnGpu.*hopper_512x512x512*:Plans/ShippedPlanOnGpu.*hopper_256x512x1024*:DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' > $out/gpu_tests.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $out/gpu_tests.txt | head -20
one() {  # label, binary, run arguments
  local label=$1 bin=$2; shift 2
  timeout 90 $bin run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "$label $* -> $(awk '/^plan/ {p=$2} /^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print p, t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
echo "--- table per placement"
for s in 512x512x512 256x512x1024; do
  one v24 .carry/fft3d --size $s --repeat 10 --per-kernel
  one v24 .carry/fft3d --size $s --repeat 10 --in-place
  one v24 .carry/fft3d plans/hopper/$s-in-place.yaml --repeat 10
done
echo "--- per kernel, old (v23-default: version 22's default) and new default plans"
for s in 128x512x1024 256x512x512 512x256x512 512x512x256 256x256x1024 512x64x1024 1024x32x1024 512x128x1024; do
  for v in v23 v24; do one v24 .carry/fft3d $e/plans/$s-$v-default.yaml --repeat 10 --per-kernel; done
done
echo "--- off the table, out of place: v22 | v24 (time, cuFFT)"
LIMIT=420 bash bench/experiments/narrow-32/ab_offtable.sh $(cat $e/sizes.txt) | tee $out/ab_offtable.txt
echo "--- off the table, in place: v22 | v24"
IN_PLACE=1 LIMIT=560 bash bench/experiments/narrow-32/ab_offtable.sh $(cat $e/sizes.txt) | tee $out/ab_offtable_in_place.txt
