#!/usr/bin/env bash
# The second kernel's copy twin: 384^3 Z split 48x8 (clusters of 8, 48 KB parts, 512 threads) against 512^3's table
# plan (clusters of 8, 64 KB parts, 256 threads), per kernel and under ncu (the twin only: the kernel's hash excluded).
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for f in mixprobe/m384/z_384_48x8.yaml plans/hopper/512x512x512.yaml; do
  echo "== $f"; $B run $f --backend cuda --per-kernel --repeat 10 2>&1 | grep -E "^kernel|^time|^cuFFT|rror:"
done > $OUT/r/perk.txt 2>&1
cat $OUT/r/perk.txt
for spec in "mixprobe/m384/z_384_48x8.yaml 48x8" "plans/hopper/512x512x512.yaml 512"; do
  set -- $spec
  h=$($B explain $1 --dump-cuda /tmp/d_$2 >/dev/null 2>&1; ls /tmp/d_$2 | grep kernel1 | sed 's/.*fft3d_k1_\(.*\)\.cu/\1/')
  timeout 150 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats -k "regex:^fft3d_k1_(?!$h)" --launch-count 1 $B run $1 --backend cuda --per-kernel --repeat 1 > $OUT/r/ncu_twin_$2.txt 2>&1
  echo "=== twin $2 (kernel hash $h)"; grep -E "^  fft3d_k|Duration|DRAM Throughput|SM Active|Max Active Clusters|Achieved Occ|Eligible Warps|Issued Warp Per|Registers Per|Block Limit (Sh|Reg)" $OUT/r/ncu_twin_$2.txt | head -16
done
