#!/usr/bin/env bash
# In place 2048^2 (the GPU table's split vs the planner's in-place plan), the H100's new fp64 files, GPU suites.
source mixprobe/env.sh
B=build-static
T=plans/hopper/gpus/nvidia-h100-80gb-hbm3
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/r/gpu.txt
for round in 1 2; do
  echo "== round $round 2048x2048x1 in place, --size (planner)"
  $B/fft3d run --size 2048x2048x1 --in-place --backend cuda --repeat 20 2>&1 | grep -E "^plan|^error|^time|^cuFFT"
  echo "== round $round 2048x2048x1 in place, the table's split file"
  $B/fft3d run $T/2048x2048x1.yaml --in-place --backend cuda --repeat 20 2>&1 | grep -E "^error|^time|^cuFFT"
done > $OUT/r/in_place_2048.txt 2>&1
for s in 2048x128x128 4096x4096x1 512x512x512; do
  echo "== $s fp64 --size"; $B/fft3d run --size $s --precision fp64 --backend cuda --repeat 5 2>&1 | grep -E "^plan|^error|^time"
done > $OUT/r/fp64_sizes.txt 2>&1
cat $OUT/r/gpu.txt $OUT/r/in_place_2048.txt $OUT/r/fp64_sizes.txt
timeout 300 $B/kernels_gpu_tests --gtest_filter='TransformForDescriptor.*:GpuSqueezedSizes.*:GpuAxesPlans.*:GpuBatchTest.*:GpuFp64Test.*' > $OUT/r/gpu_suites.txt 2>&1; echo "suites rc $?"
grep -E "^\[  (PASSED|FAILED) |tests ran|FAILED" $OUT/r/gpu_suites.txt | head -20
