#!/usr/bin/env bash
# Two-pass splits at 2^27 and 2^30 points (bench/NOTES.md version 19): each candidate out of place, per kernel with
# its copy twin, checked against the fp64 oracle before it is timed; then the 4 sizes the version-18 planner change
# left unmeasured, old plan against new, out of place and in place. Full output in $OUT/two_pass_2e27.txt.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
here=bench/experiments/two-pass-2e27 log=${OUT:-/tmp}/two_pass_2e27.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee -a "$log"
one() {  # plan, extra flags
  timeout 200 .carry/fft3d run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $*"; cat /tmp/one.txt; } >> "$log"
  echo "$* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
for p in 128x1024x1024-Z128-xf 128x1024x1024-Z256-xf 256x512x1024-Z128-xf 256x512x1024-Z64-xf 256x512x1024-Z256-xf \
         128x1024x1024-Y256-xf 256x512x1024-Y128-xf 256x512x1024-Z128-zf; do
  one $here/$p.yaml --repeat 10 --per-kernel
done
for s in 1024x1024x128 256x1024x512 512x1024x256; do
  for mode in "" "--in-place"; do for tag in old new; do
    one bench/experiments/planner-spread-cost/$s-$tag.yaml --repeat 10 $mode
  done; done
done
for p in 1024x1024x1024-Z128-zf 1024x1024x1024-Z128-xf; do
  one $here/$p.yaml --repeat 5 --per-kernel
done
