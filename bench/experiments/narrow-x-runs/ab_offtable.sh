#!/usr/bin/env bash
# Version 21, second call: the sizes off the table whose default plan changes or narrows (sizes.txt), `run --size`
# with version 19's binary against version 21's, out of place, median of 10, every run checked against the fp64
# oracle first. Stops starting sizes after 540 s.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
sizes=${*:-$(cat bench/experiments/narrow-x-runs/sizes.txt)}
for s in $sizes; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  line="$s"
  for bin in .carry/old/fft3d .carry/fft3d; do
    t=$(timeout 60 $bin run --size $s --backend cuda --repeat 10 2>&1 | awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /FAIL|error:/ {f="FAIL"} END {print t, c, f}')
    line="$line | $t"
  done
  echo "$line"
done
