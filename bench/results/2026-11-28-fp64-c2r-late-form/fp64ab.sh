#!/usr/bin/env bash
# fp64 C2R in place: the planner's late-form Z splits (new) against its choices before L158 (old binary), alternated.
source mixprobe/env.sh
B=build-static/fft3d; O=mixprobe/fft3d_old
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/r/gpu.txt
pick() { grep -E "^error|^time|^cuFFT|rror:" | tr '\n' ' '; }
for round in 1 2; do
  for s in 256x512x512 128x512x1024 128x512x512 512x256x256 1024x256x256; do
    for bin in $O $B; do
      echo "== r$round $bin $s $($bin run --size $s --transform c2r --inverse --precision fp64 --in-place --backend cuda --repeat 20 2>&1 | pick)"
    done
  done
done > $OUT/r/ab.txt 2>&1
cat $OUT/r/ab.txt
timeout 250 $B bench --transform r2c --in-place --repeat 10 --buffer-pairs 1 --out $OUT/r/fp32in > $OUT/r/bench_fp32_inplace.txt 2>&1
tail -14 $OUT/r/bench_fp32_inplace.txt
