#!/usr/bin/env bash
# Every GPU test in two device calls (repository root, .carry carried): the full suite no longer fits one 570 s call
# (version 26: 1024^3's test 153 s, 2048^3's 130 s). PART=1: all but those two; PART=2: those two.
#   bash bench/experiments/v26/gpu_tests.sh        # PART=1
#   PART=2 bash bench/experiments/v26/gpu_tests.sh
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp}
large='*hopper_1024x1024x1024_yaml:*hopper_2048x2048x2048_yaml'
if [ "${PART:-1}" = 2 ]; then filter="$large"; else filter="-$large"; fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt
start=$SECONDS
timeout 570 .carry/kernels_gpu_tests --gtest_filter="$filter" > $out/gpu_tests_part${PART:-1}.txt 2>&1
echo "part ${PART:-1}: exit $? after $((SECONDS - start)) s"
grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\]|tests? ran|Failure" $out/gpu_tests_part${PART:-1}.txt | head -40
