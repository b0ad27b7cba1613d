#!/usr/bin/env bash
# The planner's Z-line charge (bench/NOTES.md version 19): the sizes whose default plan it changes (sizes.txt, the
# hopper table's sizes left out), old plan against new, out of place and in place, median of 10, each run checked
# against the fp64 oracle first. Usage: model_ab.sh [SIZE...] (default: sizes.txt); stops starting runs after 530 s.
# AB_DIR (another experiment's plans and sizes.txt) and AB_MODES ("oop", "in-place" or both) reuse it.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
here=${AB_DIR:-bench/experiments/z-line-cost}
sizes=${*:-$(cat $here/sizes.txt)}
for s in $sizes; do
  [ $SECONDS -gt 530 ] && { echo "stopped before $s (time)"; break; }
  for mode in ${AB_MODES:-oop in-place}; do
    [ "$mode" = oop ] && mode="" || mode="--$mode"
    for tag in old new; do
      t=$(timeout 60 .carry/fft3d run $here/$s-$tag.yaml --backend cuda --repeat 10 $mode 2>&1 | awk '/^time/ {print $2} /FAIL|error:/ {print "FAIL"}' | tr '\n' ' ')
      echo "$s ${mode:-oop} $tag $t"
    done
  done
done
