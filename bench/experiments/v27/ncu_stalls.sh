#!/usr/bin/env bash
# Version 27, after the final bench: Nsight Compute's warp stall reasons for the kernels left as they were, the
# {Z 16, Y 512} second kernels over 8 blocks (512^3, 256x512x1024) and the first kernels of 512^3 and 128x1024x1024,
# clocks left as found, one launch each.
source "$(dirname "$0")/../common.sh"
for job in "512x512x512 1" "256x512x1024 1" "512x512x512 0" "128x1024x1024 0" "128x1024x1024 1"; do
  set -- $job
  timeout 90 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
    --section MemoryWorkloadAnalysis --print-details all -k "regex:^fft3d_k$2_" --launch-count 1 \
    .carry/fft3d run --size $1 --backend cuda --repeat 1 > $out/ncu_$1_k$2.txt 2>&1
  echo "== $1 kernel index $2 rc $?"
  grep -E "^ +(Duration|DRAM Throughput|Warp Cycles Per Issued|Achieved Occupancy|Max Active Clusters|Stall (Not Selected|Long Scoreboard|Membar|Math Pipe|Barrier|LG Throttle|Wait|MIO|Short))" $out/ncu_$1_k$2.txt
done
