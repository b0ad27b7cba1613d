#!/usr/bin/env bash
# Builds, on this machine, what tools/gpu_check.sh runs on a GPU machine that has the CUDA driver but no yaml-cpp,
# Boost or FFTW: the CLI and the GPU tests linked with static archives (FFT3D_STATIC_DEPS), copied into .carry/
# (ignored by git) with a kernel cache warmed by NVRTC here (same CUDA 13.0, sm_90).
#   tools/prepare_gpu_check.sh && <on the GPU machine, carrying .carry> FFT3D_BIN_DIR=.carry tools/gpu_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install_deps.sh
cmake -S . -B build-static -DFFT3D_STATIC_DEPS=ON -DFFT3D_BUILD_TESTS=ON >/dev/null
cmake --build build-static -j2 --target fft3d_cli kernels_gpu_tests kernels_tests
# The C API's shared library cannot take the static yaml-cpp (not position independent): a regular build's, with
# the shared yaml-cpp beside it (its $ORIGIN rpath finds it), for the Python package's GPU tests there:
#   FFT3D_LIBRARY=.carry/libfft3d_c.so PYTHONPATH=python:python/tests python3 -m unittest -v test_gpu
cmake -S . -B build >/dev/null
cmake --build build -j2 --target fft3d_c
rm -rf .carry && mkdir -p .carry
cp build-static/fft3d build-static/kernels_gpu_tests build/libfft3d_c.so .carry/
cp -L "$(ldd build/libfft3d_c.so | awk '/libyaml-cpp/ { print $3 }')" .carry/
# The tables beside the binaries, as an install has them (share/fft3d/plans next to the executable), so the copied
# binaries find the checkout's plans without $FFT3D_PLANS_DIR.
mkdir -p .carry/share/fft3d && ln -s ../../../plans .carry/share/fft3d/plans
FFT3D_CACHE_DIR="$PWD/.carry/cache" build-static/kernels_tests >/dev/null
echo "prepare_gpu_check: .carry holds $(ls .carry | tr '\n' ' ')($(du -sh .carry | cut -f1))"
