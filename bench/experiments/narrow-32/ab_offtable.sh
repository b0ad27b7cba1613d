#!/usr/bin/env bash
# Version 22: the sizes off the table whose default plan changes (sizes.txt, or the sizes given), `run --size` with
# version 21's binary (.carry/old) against version 22's (.carry; BINS names others), out of place (or with IN_PLACE=1
# in place), median of 10, every run checked against the fp64 oracle first. Stops starting sizes after LIMIT s
# (default 540).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/. && cp -r .carry/old/cache/. /tmp/c/.
sizes=${*:-$(cat bench/experiments/narrow-32/sizes.txt)}
flags=""; [ "${IN_PLACE:-0}" = 1 ] && flags="--in-place"
for s in $sizes; do
  [ $SECONDS -gt ${LIMIT:-540} ] && { echo "stopped before $s (time)"; break; }
  line="$s"
  for bin in ${BINS:-.carry/old/fft3d .carry/fft3d}; do
    t=$(timeout 60 $bin run --size $s --backend cuda --repeat 10 $flags 2>&1 | awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /FAIL|error:/ {f="FAIL"} END {print t, c, f}')
    line="$line | $t"
  done
  echo "$line"
done
