#!/usr/bin/env bash
# Version 22, second call: the GPU tests of the new 1024x256x256 table plan (8 modes, in place in clusters of 16),
# then in place, version 21 against version 22, on sizes whose new plans run in clusters of 16, then the first part
# of the off-table sizes out of place.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
out=${OUT:-/tmp} e=bench/experiments/narrow-32
timeout 150 .carry/kernels_gpu_tests --gtest_filter='*hopper_1024x256x256*:EngineForSize.*' > $out/gpu_tests_1024x256x256.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $out/gpu_tests_1024x256x256.txt | head -30
for round in 1 2; do
  for p in $e/1024x256x256-three-pass-table.yaml plans/hopper/1024x256x256.yaml; do
    for mode in "" --in-place; do
      echo "v22 $p $mode -> $(timeout 60 .carry/fft3d run $p --backend cuda --repeat 20 $mode 2>&1 | awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /FAIL|error:/ {f="FAIL"} END {print t, c, f}')"
    done
  done
done | tee $out/table_1024x256x256.txt
echo "--- in place: v21 | v22 (1024x256x256: both take the new table plan)"
IN_PLACE=1 LIMIT=100 bash $e/ab_offtable.sh 1024x256x256 1024x128x128 512x256x512 512x512x16 256x1024x64 512x128x256 | tee $out/in_place.txt
echo "--- out of place, part 1: v21 | v22"
LIMIT=300 bash $e/ab_offtable.sh $(cat $e/sizes_part1.txt) | tee $out/offtable_part1.txt
