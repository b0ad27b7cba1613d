#!/usr/bin/env bash
# Version 19 final code on the GPU machine (repository root, .carry carried): every GPU test (each shipped plan in
# 8 modes with the round trip, random plans, spread tiles, engine-for-size, 2048^3 in closed form, errors).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
start=$SECONDS
timeout 570 .carry/kernels_gpu_tests > $OUT/gpu_tests.txt 2>&1
echo "exit $? after $((SECONDS - start)) s"
grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\]|tests? ran|Failure|worst" $OUT/gpu_tests.txt | head -40
