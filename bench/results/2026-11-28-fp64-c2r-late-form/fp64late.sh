#!/usr/bin/env bash
# fp64 C2R in place through the late form (first GPU run), against the old three-pass files; then the real benches.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/r/gpu.txt
pick() { grep -E "^error|^time|^cuFFT|rror:" | tr '\n' ' '; }
timeout 150 build-static/kernels_gpu_tests --gtest_filter='GpuFp64Test.*' > $OUT/r/fp64tests.txt 2>&1
grep -E "^\[  PASSED|^\[  FAILED|Failure" $OUT/r/fp64tests.txt | head
S="512x512x512 256x512x512 128x512x1024 256x512x1024 128x1024x1024 128x512x512 512x256x256 1024x256x256"
PART=${1:-a}
if [ $PART = a ]; then
for round in 1 2; do
  for s in $S; do
    for f in mixprobe/old/$s-c2r-in-place.yaml plans/hopper/$s-c2r.yaml; do
      echo "== r$round $f $($B run $f --backend cuda --inverse --in-place --precision fp64 --repeat 20 2>&1 | pick)"
    done
  done
done > $OUT/r/a.txt 2>&1
cat $OUT/r/a.txt
fi
if [ $PART = b ]; then
timeout 280 $B bench --transform r2c --precision fp64 --in-place --repeat 10 --buffer-pairs 1 --out $OUT/r/fp64in > $OUT/r/bench_fp64_inplace.txt 2>&1
timeout 250 $B bench --transform r2c --in-place --repeat 10 --buffer-pairs 1 --out $OUT/r/fp32in > $OUT/r/bench_fp32_inplace.txt 2>&1
tail -14 $OUT/r/bench_fp64_inplace.txt $OUT/r/bench_fp32_inplace.txt
fi
