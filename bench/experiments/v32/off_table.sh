#!/usr/bin/env bash
# Version 32, fifth call (repository root, .carry carried with the final binary): the off-table bench of version 24's
# twenty sizes (default planner, or the table's entry where one exists), three buffer pairs each, every result
# checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
.carry/fft3d bench --out $out/offtable --sizes 16x16x16,32x32x32,64x64x64,16x16x1024,1024x16x16,32x32x512,128x64x64,64x64x256,128x128x256,256x256x128,32x256x256,512x64x64,1024x64x32,64x512x512,512x512x256,1024x512x64,1024x1024x64,128x128x1024,1024x128x128,512x1024x256 > $out/offtable.log 2>&1; echo "offtable rc $?"
tail -22 $out/offtable.log | cut -c1-120
