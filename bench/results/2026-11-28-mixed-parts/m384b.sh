#!/usr/bin/env bash
# 384^3 two-pass Z splits: mixed spread tiles in 64 KB-or-less parts at 2 blocks a multiprocessor (probe), alternated.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for round in 1 2; do
for f in z_384_32x12 z_384_24x16; do
  for v in base share split; do
    case $v in base) E="";; share) E="FFT3D_PROBE_MIXED_SHARING=1";; split) E="FFT3D_PROBE_MIXED_SHARING=1 FFT3D_PROBE_MIXED_SPLIT=1";; esac
    echo "== r$round $f $v"; env $E $B run mixprobe/m384/$f.yaml --backend cuda --per-kernel --repeat 10 2>&1 | grep -E "^kernel|^time|^error|^cuFFT|rror:"
  done
done
echo "== r$round three"; $B run mixprobe/m384/three.yaml --backend cuda --repeat 10 2>&1 | grep -E "^time|^error|^cuFFT|rror:"
done > $OUT/r/perk.txt 2>&1
cat $OUT/r/perk.txt
