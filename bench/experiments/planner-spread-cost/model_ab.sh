#!/usr/bin/env bash
# Planner cost for a tile spread over more than 2 blocks that crosses only in its first pass (0.5 extra passes
# instead of 1.5): the 27 sizes whose default plan changes, old plan against new, out of place and in place.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
for s in $(cat bench/experiments/planner-spread-cost/sizes.txt); do
  for mode in "" "--in-place"; do
    for tag in old new; do
      t=$(.carry/fft3d run bench/experiments/planner-spread-cost/$s-$tag.yaml --backend cuda --repeat 10 $mode 2>&1 | awk '/^time/ {print $2} /FAIL|error:/ {print "FAIL"}' | tr '\n' ' ')
      echo "$s ${mode:-oop} $tag $t"
    done
  done
done
