#!/usr/bin/env bash
# Version 26 (repository root; .carry: the build with the experiment switches, on by default, and a kernel cache
# warmed both ways). One device call: the GPU tests of the changed hopper plans and of spread tiles (switches on);
# then per kernel, each table size without the switches (old), with one of them, and with both (new), median of 10,
# every run checked against the fp64 oracle first.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
filter='DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*'
for s in 1024x256x256 128x512x1024 256x512x512 256x512x1024 512x512x512 128x1024x1024; do
  filter="$filter:Plans/ShippedPlanOnGpu.*hopper_${s}_yaml"
done
timeout 200 .carry/kernels_gpu_tests --gtest_filter="$filter" > $out/gpu_tests_new.txt 2>&1
echo "gpu tests (new) rc $?"; grep -E "^\[ +(PASSED|FAILED) +\]|Failure" $out/gpu_tests_new.txt | head -20
one() {  # label, then run arguments; the switches from the caller
  local label=$1; shift
  timeout 90 .carry/fft3d run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
sizes="512x512x512 128x1024x1024 256x512x512 128x512x1024 1024x256x256"
for s in $sizes; do
  [ $SECONDS -gt 500 ] && { echo "stopped before $s (time)"; break; }
  FFT3D_V25_SPLIT_START=0 FFT3D_V25_DROP_PRESTORE=0 one "r1 old  " --size $s --repeat 10 --per-kernel
  FFT3D_V25_SPLIT_START=1 FFT3D_V25_DROP_PRESTORE=0 one "r1 split" --size $s --repeat 10 --per-kernel
  FFT3D_V25_SPLIT_START=0 FFT3D_V25_DROP_PRESTORE=1 one "r1 drop " --size $s --repeat 10 --per-kernel
  one "r1 new  " --size $s --repeat 10 --per-kernel
done
for s in $sizes; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  FFT3D_V25_SPLIT_START=0 FFT3D_V25_DROP_PRESTORE=0 one "r2 old  " --size $s --repeat 10 --per-kernel
  one "r2 new  " --size $s --repeat 10 --per-kernel
done
