#!/usr/bin/env bash
# ncu on the copy twins of 384^3 Z split 32x12's kernel 1 and of the three-pass plan's Z kernel (the kernels' own hashes excluded).
source mixprobe/env.sh
B=build-static/fft3d
mkdir -p $OUT/r
for spec in "z_384_32x12 1 0ee1589d632842df" "three 1 8d1edf01404f7a64" "z_384_32x12 0 x"; do
  set -- $spec
  timeout 200 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --print-details all -k "regex:^fft3d_k$2_(?!$3)" --launch-count 1 \
    $B run mixprobe/m384/$1.yaml --backend cuda --per-kernel --repeat 1 > $OUT/r/ncu_twin_$1_$2.txt 2>&1
  echo "=== $1 $2"; grep -E "^  fft3d_k|Duration|DRAM Throughput|L2 Hit Rate|Max Active Clusters|SM Active|Achieved Occ|Eligible|Issued Warp|Warp Cycles Per Issued|Block Limit|Threads  |Registers Per" $OUT/r/ncu_twin_$1_$2.txt | head -30
done
