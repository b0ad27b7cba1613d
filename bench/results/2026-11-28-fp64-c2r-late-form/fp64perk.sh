#!/usr/bin/env bash
# fp64 C2R kernel by kernel: the planner's late-form plans in place and out of place, and the old three-pass files.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for s in 1024x256x256 512x256x256 128x512x1024 128x512x512 256x512x512; do
  for p in "--in-place" ""; do
    echo "== late $s $p"; $B run mixprobe/old/$s-fp64-late.yaml --precision fp64 --backend cuda --inverse $p --per-kernel --repeat 10 2>&1 | grep -E "^kernel|^ |^time|^error|rror:"
  done
  f=mixprobe/old/$s-c2r-in-place.yaml
  [ -f $f ] && { echo "== three $s"; $B run $f --precision fp64 --backend cuda --inverse --in-place --per-kernel --repeat 10 2>&1 | grep -E "^kernel|^ |^time|^error|rror:"; }
done > $OUT/r/perk.txt 2>&1
cat $OUT/r/perk.txt
