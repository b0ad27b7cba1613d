#!/usr/bin/env bash
# Version 31: 128^3's table plan against the four candidates that measured planning timed 13-15% faster
# (bench/experiments/v31/small-128/), three rounds interleaved, one process per run, median of 20, every run checked
# first; then the GPU tests of the table entry (8 modes with the round trip) with c10 and with c6 in its place.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
dir=bench/experiments/v31/small-128
for round in r1 r2 r3; do
  one "$round table" plans/hopper/128x128x128.yaml --repeat 20 --per-kernel
  for c in c6 c7 c9 c10; do one "$round $c   " $dir/$c.yaml --repeat 20 --per-kernel; done
done
for c in c10 c6; do
  rm -rf /tmp/plans-$c && cp -r plans /tmp/plans-$c && cp $dir/$c.yaml /tmp/plans-$c/hopper/128x128x128.yaml
  FFT3D_PLANS_DIR=/tmp/plans-$c timeout 100 .carry/kernels_gpu_tests \
    --gtest_filter='Plans/ShippedPlanOnGpu.*hopper_128x128x128_yaml' > $out/gpu_tests_$c.txt 2>&1
  echo "gpu tests with $c: rc $?"; grep -E "^\[ +(PASSED|FAILED) +\]|relative L2" $out/gpu_tests_$c.txt | head -12
done
