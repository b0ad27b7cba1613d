#!/usr/bin/env bash
# Version 34 (repository root, .carry carried): the off-table bench of version 24's twenty sizes twice in one call,
# each size's clocks recorded, to see whether the small sizes' swings between runs come with the clocks.
source "$(dirname "$0")/../common.sh"
sizes=16x16x16,32x32x32,64x64x64,16x16x1024,1024x16x16,32x32x512,128x64x64,64x64x256,128x128x256,256x256x128,32x256x256,512x64x64,1024x64x32,64x512x512,512x512x256,1024x512x64,1024x1024x64,128x128x1024,1024x128x128,512x1024x256
for run in 1 2; do
  start=$SECONDS
  timeout 270 .carry/fft3d bench --out $out/offtable$run --sizes $sizes > $out/offtable$run.log 2>&1
  echo "off-table run $run rc $? after $((SECONDS - start)) s"; tail -24 $out/offtable$run.log
done
