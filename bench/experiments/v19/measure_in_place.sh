#!/usr/bin/env bash
# Version 19: `fft3d plan --measure N --in-place` against `--measure N` on sizes whose best plan differs in place
# (bench/NOTES.md version 19, fourth step). Tables of candidates on stderr, chosen plans in $OUT/measured_*.yaml.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
for s in 512x1024x256 256x1024x512 1024x1024x128; do
  for mode in "" --in-place; do
    echo "=== plan --measure 3 $mode $s"
    .carry/fft3d plan --size $s --measure 3 $mode -o $OUT/measured_${s}${mode}.yaml 2>&1 | sed 's/relative L2 [^ ]*//'
    grep '^  -' $OUT/measured_${s}${mode}.yaml | tr '\n' ' '; echo
  done
done
