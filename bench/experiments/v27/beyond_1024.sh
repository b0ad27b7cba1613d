#!/usr/bin/env bash
# Version 27: the three sizes with an axis over 1024 whose default plan narrows its {Z 8, Y 1024} tile, run on the GPU
# with the final binary (checked against the fp64 oracle first), out of place and in place, per kernel.
source "$(dirname "$0")/../common.sh"
for s in 16x1024x4096 64x1024x2048 2048x1024x64; do
  for place in "" "--in-place"; do
    timeout 120 .carry/fft3d run --size $s --backend cuda --repeat 10 --per-kernel $place > /tmp/one.txt 2>&1
    rc=$?; { echo "=== $s $place rc $rc"; cat /tmp/one.txt; } >> $out/beyond_1024.txt
    echo "$s $place rc $rc: $(grep -E '^(error|roundtrip|time|cuFFT) ' /tmp/one.txt | awk '{print $1, $2, $3}' | tr '\n' ' ')"
  done
done
