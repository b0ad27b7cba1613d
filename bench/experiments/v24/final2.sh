#!/usr/bin/env bash
# Version 24 final code, after the charges by tile shape (repository root; .carry: the final build, .carry/old: the
# build before them): the GPU tests of random plans, spread tiles and engine-for-size; the four sizes whose default
# plan the charges change (`run --size`, out of place, before | after); the off-table reference bench.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
timeout 120 .carry/kernels_gpu_tests --gtest_filter='DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' > $OUT/gpu_tests_final.txt 2>&1
echo "gpu tests rc $?"; grep -E "^\[ +(OK|PASSED|FAILED) +\]|Failure" $OUT/gpu_tests_final.txt | head
echo "--- before | after (time, cuFFT)"
LIMIT=200 bash bench/experiments/narrow-32/ab_offtable.sh 512x512x256 1024x512x128 512x256x512 256x256x1024 | tee $OUT/ab_final.txt
.carry/fft3d bench --out $OUT/offtable --sizes 16x16x16,32x32x32,64x64x64,16x16x1024,1024x16x16,32x32x512,128x64x64,64x64x256,128x128x256,256x256x128,32x256x256,512x64x64,1024x64x32,64x512x512,512x512x256,1024x512x64,1024x1024x64,128x128x1024,1024x128x128,512x1024x256 > $OUT/offtable.log 2>&1
tail -24 $OUT/offtable.log
