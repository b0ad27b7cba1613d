#!/usr/bin/env bash
# ncu on 384^3 Z split 32x12's kernel 1 and its copy twin, and on the three-pass plan's Z kernel and its twin.
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for spec in "z_384_32x12 1" "three 1"; do
  set -- $spec
  timeout 200 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section MemoryWorkloadAnalysis \
    --section WarpStateStats -k "regex:^fft3d_k$2_" --launch-count 12 \
    $B run mixprobe/m384/$1.yaml --backend cuda --per-kernel --repeat 1 > $OUT/r/ncu_$1.txt 2>&1
  echo "=== $1"; grep -E "^  fft3d_k|Duration|DRAM Throughput|L2 Hit Rate|Sectors/Req|Sectors Per|sectors/request|Warp Cycles Per Issued|Stall|dram__bytes|Memory Throughput" $OUT/r/ncu_$1.txt | head -80
done
