#!/usr/bin/env bash
# Version 31, second probe: the first kernel on 12 fresh buffer pairs in one process (alloc_spread.cpp says what and
# why), for 512^3 and for 256x512x1024, twice each in fresh processes. Build here first (after the static build):
#   cd build-static/tools && c++ -O2 -std=c++20 -I../.. -I../../engine/include -I/usr/local/cuda/include \
#     ../../bench/experiments/v31/alloc_spread.cpp -o ../../.carry/alloc_spread -Wl,-rpath,/usr/local/cuda/lib: \
#     ../bench/libfft3d_bench_gpu.a ../kernels/libfft3d_cuda.a ../validate/libfft3d_validate.a \
#     ../kernels/libfft3d_emit.a ../kernels/libfft3d_lowering.a ../engine/libfft3d.a \
#     /usr/lib/x86_64-linux-gnu/libfftw3.a /usr/lib/x86_64-linux-gnu/libyaml-cpp.a \
#     /usr/local/cuda/lib/libcudart_static.a -ldl /usr/lib/x86_64-linux-gnu/librt.a \
#     /usr/local/cuda/lib/libnvrtc.so /usr/local/cuda/lib/stubs/libcuda.so /usr/local/cuda/lib/libcufft.so
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for s in ${SIZES:-512x512x512 256x512x1024}; do
  for round in ${ROUNDS:-r1 r2}; do
    echo "=== $round $s"
    timeout 200 .carry/alloc_spread $s 12 2>&1 | tee -a $out/alloc_spread.txt
  done
done
