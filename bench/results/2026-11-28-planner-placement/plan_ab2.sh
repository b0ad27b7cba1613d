#!/usr/bin/env bash
# Round 2 of the placement-aware planner: its new fp64 choices against the in-place ranking's, then bench fp64.
source mixprobe/env.sh
B=build-static
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/r/gpu.txt
for round in 1 2; do
  for s in 4096x4096x1 2048x128x128 128x128x2048 512x512x256 2048x2048x1; do
    for v in new old; do
      p=mixprobe/pl/$s-$v-fp64.yaml
      echo "== round $round $s $v"
      $B/fft3d run $p --backend cuda --precision fp64 --repeat 20 2>&1 | grep -E "^error|^time|^cuFFT"
    done
  done
done > $OUT/r/plan_ab2.txt 2>&1
cat $OUT/r/gpu.txt
grep -E "^==|^time|^cuFFT|^error" $OUT/r/plan_ab2.txt | grep -v "^error.*pass" | sed -E 's/median of 20 \(.*//; s/ms median Z2Z.*ratio/ratio/' | paste - - -
$B/fft3d bench --precision fp64 --out $OUT/r/table > $OUT/r/bench_fp64.txt 2>&1
tail -25 $OUT/r/bench_fp64.txt
