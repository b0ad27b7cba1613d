#!/usr/bin/env bash
# Nyquist tiles walked beside their rows (new) against after the grid (old binary): GPU real suites, then bench r2c.
source mixprobe/env.sh
B=build-static/fft3d; O=mixprobe/fft3d_old
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/r/gpu.txt
timeout 130 build-static/kernels_gpu_tests --gtest_filter='GpuTableRealPlans.*:RealClosedForm.*' > $OUT/r/tests.txt 2>&1
grep -E "^\[  PASSED|^\[  FAILED|Failure|tests ran" $OUT/r/tests.txt | head
echo "== 384x384x256 r2c/c2r $($B run --size 384x384x256 --transform r2c --backend cuda --repeat 5 2>&1 | grep -E '^error|rror:' | tr '\n' ' ') $($B run --size 384x384x256 --transform r2c --inverse --backend cuda --repeat 5 2>&1 | grep -E '^error|rror:' | tr '\n' ' ')"
S=128x128x128,256x256x256,128x512x512,128x512x1024,128x1024x1024
for bin in $B $O; do
  echo "== bench $bin"; timeout 70 $bin bench --transform r2c --sizes $S --repeat 20 --buffer-pairs 1 2>&1 | grep -E "^[0-9]+x" | awk '{print $1, $2, $4, $5, $6}'
done
