#!/usr/bin/env bash
# Nsight Compute on chosen kernels of a plan, numbered from 0 as `fft3d run --per-kernel` and the entry names number
# them, with the GPU's clocks left as they are (--clock-control none). The evidence behind a kernel that misses its
# bandwidth target. `twinN` profiles kernel N's copy twin instead (the same tile's loads and stores alone, which
# `run --per-kernel` launches beside each kernel of a complex plan).
#
#   FFT3D_BIN_DIR=.carry tools/gpu_profile.sh plans/tesla/256x256x256.yaml 3 [4 ...] [twin3 ...]
set -uo pipefail
BIN=${FFT3D_BIN_DIR:-.carry}
plan=$1; shift
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export FFT3D_CACHE_DIR=${FFT3D_CACHE_DIR:-/tmp/fft3d-cache}
mkdir -p "$FFT3D_CACHE_DIR"
[ -d "$BIN/cache" ] && cp -r "$BIN/cache/." "$FFT3D_CACHE_DIR/"
for kernel in "$@"; do
  echo "== $plan kernel $kernel"
  # Generated entry points are fft3d_k<index>_<hash>, copy twins fft3d_twin<index>_<hash>; the first launch is the
  # checked run's (a twin's first is the per-kernel report's).
  entry="fft3d_k${kernel}_" per_kernel=()
  if [[ $kernel == twin* ]]; then entry="fft3d_${kernel}_" per_kernel=(--per-kernel); fi
  ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis -k "regex:^${entry}" --launch-count 1 \
    "$BIN/fft3d" run "$plan" --backend cuda --repeat 1 "${per_kernel[@]}" 2>&1 |
    grep -vE "^==PROF==|^(plan|size|backend|error|roundtrip|time|GFlops|bandwidth|memcpy|cuFFT|setup) "
done
