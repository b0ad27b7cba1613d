#!/usr/bin/env bash
# A record: the switch is gone from the code (bench/NOTES.md version 33, third step).
# Version 33, fourth call (repository root, .carry carried). Nsight Compute (clocks as found) on 128x1024x1024's
# second kernel with the last cluster barrier (as shipped) and without it (FFT3D_V33_ALL_BLOCKS=1): occupancy,
# active cycles and warp stalls of one launch each; then the transform per kernel both ways, two rounds, median of
# 10, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
plan=plans/hopper/128x1024x1024.yaml
for way in kept dropped; do
  [ $way = dropped ] && export FFT3D_V33_ALL_BLOCKS=1
  timeout 120 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --print-details all --metrics sm__cycles_active.avg,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,sm__ctas_launched.sum \
    -k "regex:^fft3d_k1_" --launch-count 1 .carry/fft3d run $plan --backend cuda --repeat 1 > $out/ncu_$way.txt 2>&1
  echo "ncu $way rc $?"
  grep -E "^ +(Duration|DRAM Throughput|Warp Cycles Per Issued|Achieved Occupancy|Theoretical Occupancy|Max Active Clusters|sm__|Stall (Not Selected|Long Scoreboard|Membar|Math Pipe|Barrier|LG Throttle|Wait|MIO|Short))" $out/ncu_$way.txt | head -24
  unset FFT3D_V33_ALL_BLOCKS
done
for round in r1 r2; do
  one "$round kept   " $plan --repeat 10 --per-kernel
  FFT3D_V33_ALL_BLOCKS=1 one "$round dropped" $plan --repeat 10 --per-kernel
done
