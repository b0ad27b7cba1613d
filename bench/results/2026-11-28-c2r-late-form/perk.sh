#!/usr/bin/env bash
# C2R kernel by kernel, in place (late form) against out of place: where the in-place run's extra time goes.
source mixprobe/env.sh
B=build-static/fft3d
for s in 512x512x512 256x512x512; do
  for p in "" "--in-place"; do
    echo "== $s $p"; $B run plans/hopper/$s-c2r.yaml --backend cuda --inverse $p --per-kernel --repeat 10 2>&1 | grep -E "^kernel|^time|^error|rror:"
  done
done
