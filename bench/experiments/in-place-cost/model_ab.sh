#!/usr/bin/env bash
# The in-place costs of the planner (bench/NOTES.md version 19): the sizes whose default plan in place differs
# from the one out of place (sizes.txt, largest first, the table's sizes left out), in place, old (the plan out of
# place) against new, median of 10, each run checked against the fp64 oracle first. Usage: model_ab.sh [SIZE...]; stops starting runs after 530 s.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
here=bench/experiments/in-place-cost
sizes=${*:-$(cat $here/sizes.txt)}
for s in $sizes; do
  [ $SECONDS -gt 530 ] && { echo "stopped before $s (time)"; break; }
  for mode in "--in-place"; do
    for tag in old new; do
      t=$(timeout 60 .carry/fft3d run $here/$s-$tag.yaml --backend cuda --repeat 10 $mode 2>&1 | awk '/^time/ {print $2} /FAIL|error:/ {print "FAIL"}' | tr '\n' ' ')
      echo "$s ${mode:-oop} $tag $t"
    done
  done
done
