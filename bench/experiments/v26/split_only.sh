#!/usr/bin/env bash
# Version 26, second call (same .carry): the split start barrier alone (FFT3D_V25_DROP_PRESTORE=0): the GPU tests of the
# changed plans and of spread tiles; old against split-only per kernel, out of place and in place, median of 10,
# every run checked against the fp64 oracle first.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp}
filter='DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*'
for s in 1024x256x256 128x512x1024 256x512x512 256x512x1024 512x512x512 128x1024x1024; do
  filter="$filter:Plans/ShippedPlanOnGpu.*hopper_${s}_yaml"
done
FFT3D_V25_DROP_PRESTORE=0 timeout 200 .carry/kernels_gpu_tests --gtest_filter="$filter" > $out/gpu_tests_split.txt 2>&1
echo "gpu tests (split only) rc $?"; grep -E "^\[ +(PASSED|FAILED) +\]|Failure" $out/gpu_tests_split.txt | head -20
one() {
  local label=$1; shift
  timeout 90 .carry/fft3d run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for s in 512x512x512 128x1024x1024 256x512x512 128x512x1024 1024x256x256 256x512x1024; do
  [ $SECONDS -gt 420 ] && { echo "stopped before $s (time)"; break; }
  FFT3D_V25_SPLIT_START=0 FFT3D_V25_DROP_PRESTORE=0 one "r3 old  " --size $s --repeat 10 --per-kernel
  FFT3D_V25_DROP_PRESTORE=0 one "r3 split" --size $s --repeat 10 --per-kernel
done
for s in 128x1024x1024 256x512x512 128x512x1024 1024x256x256; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  FFT3D_V25_SPLIT_START=0 FFT3D_V25_DROP_PRESTORE=0 one "in place old  " --size $s --repeat 10 --in-place
  FFT3D_V25_DROP_PRESTORE=0 one "in place split" --size $s --repeat 10 --in-place
done
