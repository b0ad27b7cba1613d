#!/usr/bin/env bash
# Version 24 final code (repository root; .carry: the final build, .carry/old: version 22's CLI): the reference bench
# (the twelve table sizes, then the twenty off-table sizes), the two sizes whose plans the Z-line charge moved back
# (`run --size`, out of place), and the changed sizes off the table in place that the first call did not reach,
# version 22 against version 24. Every run is checked against the fp64 oracle before its time is printed.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt
.carry/fft3d bench --out $OUT/table > $OUT/table.log 2>&1
tail -16 $OUT/table.log
.carry/fft3d bench --out $OUT/offtable --sizes 16x16x16,32x32x32,64x64x64,16x16x1024,1024x16x16,32x32x512,128x64x64,64x64x256,128x128x256,256x256x128,32x256x256,512x64x64,1024x64x32,64x512x512,512x512x256,1024x512x64,1024x1024x64,128x128x1024,1024x128x128,512x1024x256 > $OUT/offtable.log 2>&1
tail -24 $OUT/offtable.log
echo "--- the Z-line charge's two sizes, out of place: v22 | v24"
LIMIT=400 bash bench/experiments/narrow-32/ab_offtable.sh 512x256x512 256x256x1024 | tee $OUT/ab_zline.txt
echo "--- off the table, in place: v22 | v24"
IN_PLACE=1 LIMIT=540 bash bench/experiments/narrow-32/ab_offtable.sh $(tail -n +5 bench/experiments/v24/sizes.txt) | tee $OUT/ab_offtable_in_place.txt
