#!/usr/bin/env bash
# Version 24, a last step (repository root; .carry: the version 24 build, .carry/r4: the same with Y-line tiles
# spread over 8 blocks charged 0.65 instead of 0.5): the table bench again for its CSV and JSON (the last call's did
# not come back), then the 9 sizes whose default plan that charge changes, version 24 | r4, out of place, median of
# 10, every run checked against the fp64 oracle first; then the off-table reference sizes with the r4 binary.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
.carry/fft3d bench --out $OUT/table > $OUT/table.log 2>&1; tail -3 $OUT/table.log
echo "--- v24 | r4 (time, cuFFT)"
BINS=".carry/fft3d .carry/r4/fft3d" LIMIT=300 bash bench/experiments/narrow-32/ab_offtable.sh 64x1024x1024 128x1024x512 256x1024x256 512x512x256 512x1024x128 1024x512x128 1024x1024x64 128x512x1024 256x512x512 | tee $OUT/ab_r4.txt
.carry/r4/fft3d bench --sizes 512x512x256,1024x1024x64,1024x512x128 > $OUT/offtable_r4.log 2>&1; tail -6 $OUT/offtable_r4.log
