#!/usr/bin/env bash
# Version 28, after the final bench: Nsight Compute's warp stall reasons for the second kernels now in 8 parts of
# 64 KB, two blocks a multiprocessor (512^3, 128x1024x1024, 256x512x512), to set against version 27's
# (bench/results/2026-11-23-h100-v27/ncu/), clocks left as found, one launch each.
source "$(dirname "$0")/../common.sh"
for job in "512x512x512 1" "128x1024x1024 1" "256x512x512 1"; do
  set -- $job
  timeout 90 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section LaunchStats --print-details all -k "regex:^fft3d_k$2_" --launch-count 1 \
    .carry/fft3d run --size $1 --backend cuda --repeat 1 > $out/ncu_$1_k$2.txt 2>&1
  echo "== $1 kernel index $2 rc $?"
  grep -E "^ +(Duration|DRAM Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Block Limit|Max Active Clusters|Stall (Not Selected|Long Scoreboard|Membar|Math Pipe|Barrier|LG Throttle|Wait|MIO|Short))" $out/ncu_$1_k$2.txt
done
