#!/usr/bin/env bash
# C2R in place: the old planner's Y-split plans against the table's Z-split files (late form) and the new planner's.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
pick() { grep -E "^time|^cuFFT|rror" | sed -e 's/median of 20.*//' -e 's/ms median C2R.*//' ; }
for round in 1 2; do
  for s in 512x512x512 256x512x512 128x512x1024 256x512x1024 128x1024x1024 128x512x512 512x256x256 1024x256x256; do
    for f in mixprobe/ys/$s-old.yaml plans/hopper/$s-c2r.yaml; do
      echo "== r$round $f $($B run $f --backend cuda --inverse --in-place --repeat 20 2>&1 | pick | tr '\n' ' ')"
    done
  done
  for s in 512x512x64 1024x512x64 256x256x256; do
    for f in mixprobe/ys/$s-old.yaml mixprobe/ys/$s-new.yaml; do
      echo "== r$round $f $($B run $f --backend cuda --inverse --in-place --repeat 20 2>&1 | pick | tr '\n' ' ')"
    done
  done
done 2>&1 | tee $OUT/r/ys.txt
