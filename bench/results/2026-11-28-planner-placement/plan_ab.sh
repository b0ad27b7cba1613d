#!/usr/bin/env bash
# The placement-aware planner's plans against the old ranking's (and hand-measured ones), out of place, two rounds.
source mixprobe/env.sh
B=build-static
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/r/gpu.txt
$B/kernels_gpu_tests --gtest_filter='GpuFp64Test.*' 2>&1 | tail -4 > $OUT/r/gpu_fp64_suite.txt
for round in 1 2; do
  for s in 512x256x256 1024x256x256 512x512x512 256x512x512 128x512x1024 256x512x1024 128x1024x1024 512x512x64 1024x512x64 2048x2048x1; do
    for p in mixprobe/pl/$s-*.yaml; do
      prec=${p##*-}; prec=${prec%.yaml}
      echo "== round $round $s $(basename $p .yaml)"
      $B/fft3d run $p --backend cuda --precision $prec --repeat 20 2>&1 | grep -E "^error|^time|^cuFFT"
    done
  done
done > $OUT/r/plan_ab.txt 2>&1
cat $OUT/r/gpu.txt $OUT/r/gpu_fp64_suite.txt
grep -E "^==|^time|^cuFFT|^error" $OUT/r/plan_ab.txt | grep -v "^error.*pass" | sed -E 's/median of 20 \(.*//; s/ms median Z2Z.*ratio/ratio/; s/ms median C2C.*ratio/ratio/' | paste - - - 
