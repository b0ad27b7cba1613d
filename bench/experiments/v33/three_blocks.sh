#!/usr/bin/env bash
# A record: the switch is gone from the code (refuted, bench/NOTES.md version 33, fourth step).
# Version 33, fifth call (repository root, .carry carried; bench/NOTES.md version 33, fourth step). The switch
# FFT3D_V33_THREE_BLOCKS=1 (split_radix.cpp) gives the widened 256-thread second kernels three blocks a
# multiprocessor. GPU tests with the switch on (spread tiles, random plans, engine-for-size, the four table plans in
# 8 modes with the round trip); Nsight Compute's occupancy of 512^3's second kernel with it; then each size's
# transform per kernel, switch off and on alternated, two rounds, median of 10, every run checked first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
sizes="512x512x512 256x512x1024 128x512x1024 256x512x512"
FFT3D_V33_THREE_BLOCKS=1 gpu_tests 200 three 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' $sizes
FFT3D_V33_THREE_BLOCKS=1 timeout 90 ncu --clock-control none --section Occupancy --section LaunchStats \
  --section SpeedOfLight --section WarpStateStats --print-details all -k "regex:^fft3d_k1_" --launch-count 1 \
  .carry/fft3d run --size 512x512x512 --backend cuda --repeat 1 > $out/ncu_three.txt 2>&1
echo "ncu rc $?"
grep -E "^ +(Duration|DRAM Throughput|Registers Per|Theoretical Occupancy|Achieved Occupancy|Max Active Clusters|Block Limit|Warp Cycles Per Issued|Stall (Long Scoreboard|Membar|Barrier|Not Selected))" $out/ncu_three.txt
for round in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 560 ] && { echo "stopped before $round $s (time)"; break 2; }
    one "$round two  " --size $s --repeat 10 --per-kernel
    FFT3D_V33_THREE_BLOCKS=1 one "$round three" --size $s --repeat 10 --per-kernel
  done
done
