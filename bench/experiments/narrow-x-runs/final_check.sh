#!/usr/bin/env bash
# Version 21, last call (the third form: Z lines of 256 planes narrow again, 512 and more do not): the GPU test of
# the one table plan this changes (256^3, 8 modes and the round trip), version 19 against version 21 on 256^3 and on
# 1024x64x256 (the one default plan it changes), and the table sweep of `fft3d bench`.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
out=${OUT:-/tmp}
timeout 100 .carry/kernels_gpu_tests --gtest_filter='*hopper_256x256x256*:DistributedTilesOnGpu.*' > $out/gpu_tests_third_form.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $out/gpu_tests_third_form.txt
for round in 1 2; do
  for bin in .carry/old/fft3d .carry/fft3d; do
    a=$(timeout 60 $bin run plans/hopper/256x256x256.yaml --backend cuda --repeat 20 2>&1 | awk '/^time/ {t=$2} /FAIL|error:/ {f="FAIL"} END {print t, f}')
    b=$(timeout 60 $bin run --size 1024x64x256 --backend cuda --repeat 10 2>&1 | awk '/^time/ {t=$2} /FAIL|error:/ {f="FAIL"} END {print t, f}')
    echo "$bin 256x256x256 $a | 1024x64x256 $b"
  done
done | tee $out/third_form_ab.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt
.carry/fft3d bench --out $out/bench > $out/bench.log 2>&1
tail -16 $out/bench.log
