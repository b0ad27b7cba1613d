#!/usr/bin/env bash
# Version 34, fourth step (repository root, .carry carried): measured planning on the off-table sizes below 1.3x,
# the 8 MB ones with a first kernel of 64 one-block 128 KB tiles and the 4 MB ones, 12 candidates each, twice.
source "$(dirname "$0")/../common.sh"
for round in 1 2; do
  for s in 128x128x64 512x32x64 256x64x64 32x32x512 128x64x64; do
    timeout 100 .carry/fft3d plan --size $s --measure 12 -o $out/plan_${s}_$round.yaml > $out/measure_${s}_$round.txt 2>&1
    echo "== $s round $round rc $?"; grep -v '^ *$' $out/measure_${s}_$round.txt | tail -16
  done
done
