#!/usr/bin/env bash
# Version 27, second call: old against narrowed spreads (FFT3D_V27_NARROW_SPREAD=1) on the sizes off the table whose
# default plan keeps its shape with the switch (Y 1024 behind Z 8, and Z 16 behind Y 512), and a third round of the
# two table sizes; then Nsight Compute's warp stall reasons of 128x1024x1024's second kernel, old and narrowed.
source "$(dirname "$0")/../common.sh"
sizes="1024x1024x64 512x1024x256 256x1024x512 1024x1024x128 1024x512x256 128x1024x1024 512x512x512"
for r in r1 r2; do
  for s in $sizes; do
    [ $SECONDS -gt 400 ] && { echo "stopped before $r $s (time)"; break 2; }
    one "$r old     " --size $s --repeat 10 --per-kernel
    FFT3D_V27_NARROW_SPREAD=1 one "$r narrow  " --size $s --repeat 10 --per-kernel
  done
done
for v in 0 1; do
  [ $SECONDS -gt 500 ] && break
  FFT3D_V27_NARROW_SPREAD=$v timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy \
    --section WarpStateStats --print-details all -k "regex:^fft3d_k1_" --launch-count 1 \
    .carry/fft3d run --size 128x1024x1024 --backend cuda --repeat 1 > $out/ncu_128x1024x1024_k2_narrow$v.txt 2>&1
  echo "ncu narrow=$v rc $?"
  grep -E "Duration|DRAM Throughput|Stall|Warp Cycles Per Issued|Achieved Occupancy" $out/ncu_128x1024x1024_k2_narrow$v.txt | head -40
done
