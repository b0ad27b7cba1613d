#!/usr/bin/env bash
# Version 28 final code (repository root, .carry carried): every GPU test in two calls, each followed by one of the
# reference benches (fft3d and cuFFT in the same process, every result checked first).
#   bash bench/experiments/v28/final.sh          # PART=1: all GPU tests but 1024^3 and 2048^3, then the table bench
#   PART=2 bash bench/experiments/v28/final.sh   # 1024^3 and 2048^3, then the off-table bench of version 24's sizes
source "$(dirname "$0")/../common.sh"
large='*hopper_1024x1024x1024_yaml:*hopper_2048x2048x2048_yaml'
if [ "${PART:-1}" = 2 ]; then filter="$large"; else filter="-$large"; fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu_part${PART:-1}.txt
start=$SECONDS
timeout 330 .carry/kernels_gpu_tests --gtest_filter="$filter" > $out/gpu_tests_part${PART:-1}.txt 2>&1
echo "part ${PART:-1}: exit $? after $((SECONDS - start)) s"
grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\]|tests? ran|Failure" $out/gpu_tests_part${PART:-1}.txt | head -40
if [ "${PART:-1}" = 2 ]; then
  .carry/fft3d bench --out $out/offtable --sizes 16x16x16,32x32x32,64x64x64,16x16x1024,1024x16x16,32x32x512,128x64x64,64x64x256,128x128x256,256x256x128,32x256x256,512x64x64,1024x64x32,64x512x512,512x512x256,1024x512x64,1024x1024x64,128x128x1024,1024x128x128,512x1024x256 > $out/offtable.log 2>&1; echo "offtable rc $?"
  tail -26 $out/offtable.log
  # The two sizes the final planner keeps on version 27's plans, now with 8 parts of 64 KB in their second kernels.
  for s in 512x512x256 1024x512x128; do one "final" --size $s --repeat 10 --per-kernel; done
else
  .carry/fft3d bench --out $out/table > $out/table.log 2>&1; echo "table rc $?"
  tail -16 $out/table.log
fi
