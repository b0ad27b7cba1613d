#!/usr/bin/env bash
# 384^3 C2C: the three-pass default against two-pass Z splits, kernel by kernel with copy twins; ncu on one.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for f in mixprobe/m384/three.yaml mixprobe/m384/z_384_32x12.yaml mixprobe/m384/z_384_24x16.yaml mixprobe/m384/z_384_48x8.yaml; do
  echo "== $f"; $B run $f --backend cuda --per-kernel --repeat 10 2>&1 | grep -E "^kernel|^ |^time|^error|^cuFFT|rror:"
done > $OUT/r/perk.txt 2>&1
cat $OUT/r/perk.txt
mkdir -p .carry && cp $B .carry/fft3d
timeout 300 bash tools/gpu_profile.sh mixprobe/m384/z_384_32x12.yaml 0 1 > $OUT/r/ncu_32x12.txt 2>&1
grep -E "==|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Eligible Warps|Issued Warp|L2 Hit|Block Limit|Theoretical Occ|Compute \(SM\)" $OUT/r/ncu_32x12.txt | head -60
