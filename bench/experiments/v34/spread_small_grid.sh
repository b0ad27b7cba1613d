#!/usr/bin/env bash
# Version 34, third step (repository root, .carry carried): one-block tiles of grids under half the multiprocessors
# spread over a cluster (FFT3D_V34_SPREAD_SMALL_GRID=1). GPU tests with the switch on, in-place runs, then the bench
# of twelve changed sizes, switch off and on alternated twice (cuFFT in every run).
source "$(dirname "$0")/../common.sh"
sizes=32x32x512,128x64x64,64x64x256,64x64x64,1024x16x16,16x16x1024,128x128x64,256x64x64,512x32x64,32x256x64,16x1024x64,64x16x1024
export FFT3D_V34_SPREAD_SMALL_GRID=1
gpu_tests 150 spread 'RandomPlansOnGpu.*:EngineForSize.*:DistributedTilesOnGpu.*' 64x64x256
for s in 32x32x512 128x64x64 64x64x64; do one "in place, spread" --size $s --in-place --repeat 5; done
unset FFT3D_V34_SPREAD_SMALL_GRID
for round in 1 2; do
  for mode in off on; do
    if [ $mode = on ]; then export FFT3D_V34_SPREAD_SMALL_GRID=1; else unset FFT3D_V34_SPREAD_SMALL_GRID; fi
    timeout 120 .carry/fft3d bench --out $out/$mode$round --sizes $sizes --buffer-pairs 2 > $out/$mode$round.log 2>&1
    echo "bench $mode round $round rc $?"
  done
done
unset FFT3D_V34_SPREAD_SMALL_GRID
for f in off1 on1 off2 on2; do echo "== $f"; awk 'NR>3 && NF>5 {print $1, $3, $4, $5}' $out/$f.log; done
