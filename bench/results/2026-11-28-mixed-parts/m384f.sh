#!/usr/bin/env bash
# Bytes in flight: 384^3 Z split 32x12 with fewer threads and more blocks a multiprocessor (probe switches), alternated.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for round in 1 2; do
for v in "base" "FFT3D_PROBE_KERNEL=1 FFT3D_PROBE_MIXED_THREADS=512 FFT3D_PROBE_MIXED_BLOCKS=2" \
         "FFT3D_PROBE_KERNEL=1 FFT3D_PROBE_MIXED_PART_BYTES=65536 FFT3D_PROBE_MIXED_THREADS=256 FFT3D_PROBE_MIXED_BLOCKS=3" \
         "FFT3D_PROBE_KERNEL=0 FFT3D_PROBE_MIXED_THREADS=512 FFT3D_PROBE_MIXED_BLOCKS=2"; do
  E=$v; [ "$v" = base ] && E=""
  echo "== r$round $v"; env $E $B run mixprobe/m384/z_384_32x12.yaml --backend cuda --per-kernel --repeat 10 2>&1 | grep -E "^kernel [01]|^time|^error|rror:"
done
done > $OUT/r/perk.txt 2>&1
cat $OUT/r/perk.txt
