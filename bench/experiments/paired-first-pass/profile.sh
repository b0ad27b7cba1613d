#!/usr/bin/env bash
# Version 20, third call: Nsight Compute on 128x1024x1024's two kernels (one-block first tile; second tile spread
# over 8 blocks), version 19 and 20 binaries: where the spread kernel's time over its copy twin goes.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
out=${OUT:-/tmp}
for v in old new; do
  bin=.carry/fft3d; [ $v = old ] && bin=.carry/old/fft3d
  for k in 0 1; do
    timeout 200 ncu --kernel-name regex:fft3d_k${k}_ --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
      --section MemoryWorkloadAnalysis --section LaunchStats \
      $bin run plans/hopper/128x1024x1024.yaml --backend cuda --repeat 3 > $out/ncu_${v}_k${k}.txt 2>&1
    echo "$v k$k rc $?"
  done
done
grep -h -E "Duration|Memory Throughput|DRAM Throughput|Stall|Warp Cycles Per Issued|Issued Warp|No Eligible|Achieved Occupancy|Cluster|Registers|==PROF==|ERR" $out/ncu_new_k1.txt | head -40
