#!/usr/bin/env bash
# Version 22, after the engine learned to fall back to the reorder pass where a GPU cannot hold a sorted-store cluster
# of 16: on the H100 the check must say it can (1024x256x256 in place at ~1.07 ms, not the reorder pass's ~1.66), and
# the table plan must still pass its GPU test in 8 modes.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
timeout 120 .carry/kernels_gpu_tests --gtest_filter="${FILTER:-*hopper_1024x256x256*:EngineForSize.*:CudaEngineErrors.*}" > $OUT/gpu_tests_fallback.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $OUT/gpu_tests_fallback.txt | head -20
for mode in "" --in-place; do
  .carry/fft3d run plans/hopper/1024x256x256.yaml --backend cuda --repeat 20 $mode 2>&1 | tee -a $OUT/in_place_check.txt | grep -E '^(time|cuFFT|bandwidth|error)'
done
