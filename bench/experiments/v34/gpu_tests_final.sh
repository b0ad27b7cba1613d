#!/usr/bin/env bash
# Version 34 final code (repository root, .carry carried): every GPU test, 1024^3 and 2048^3 included, in one call.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt
start=$SECONDS
timeout 560 .carry/kernels_gpu_tests > $out/gpu_tests_final.txt 2>&1
echo "gpu tests: exit $? after $((SECONDS - start)) s"
grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\]|tests? ran|Failure|round trip|closed form" $out/gpu_tests_final.txt | tail -30
