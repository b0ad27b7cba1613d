#!/usr/bin/env bash
# Version 27 final code (repository root, .carry carried): the reference bench of the twelve table sizes and the
# off-table bench of version 24's twenty sizes, fft3d and cuFFT in the same process, every result checked first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
.carry/fft3d bench --out $OUT/table > $OUT/table.log 2>&1; echo "table rc $?"
tail -20 $OUT/table.log
.carry/fft3d bench --out $OUT/offtable --sizes 16x16x16,32x32x32,64x64x64,16x16x1024,1024x16x16,32x32x512,128x64x64,64x64x256,128x128x256,256x256x128,32x256x256,512x64x64,1024x64x32,64x512x512,512x512x256,1024x512x64,1024x1024x64,128x128x1024,1024x128x128,512x1024x256 > $OUT/offtable.log 2>&1; echo "offtable rc $?"
tail -26 $OUT/offtable.log
