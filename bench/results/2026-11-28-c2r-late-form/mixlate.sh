#!/usr/bin/env bash
# The planner's late-form C2R plans in place on mixed and off-table sizes: checked against cuFFT Z2D.
source mixprobe/env.sh
B=build-static/fft3d
for s in 280x280x280 384x384x256 336x336x336 512x512x64 1024x512x64 256x256x256; do
  echo "== $s $($B run --size $s --transform c2r --inverse --backend cuda --in-place --repeat 10 2>&1 | grep -E "^plan|^error|^time|rror:" | tr '\n' ' ')"
done
timeout 200 build-static/kernels_gpu_tests --gtest_filter='MixedRealPlans.*:OddRealPlans.*:RealPlansForDescriptors.*' 2>&1 | grep -E "^\[  |FAILED|Failure" | tail -12
