#!/usr/bin/env bash
# Version 32, second call (repository root, .carry carried; bench/NOTES.md version 32). 1024^3 out of place: the
# table's three passes, version 19's two-pass split (X first, the crossing Z pass in the middle) and the three
# orders of two-pass-1024/ whose crossing Z pass comes first; each per kernel, median of 5, checked against the fp64
# oracle (and by the round trip) first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
run1024() {  # label, plan file
  timeout 150 .carry/fft3d run "$2" --backend cuda --repeat 5 --per-kernel > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $1 $2"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "$1 -> $(grep -E '^time|^cuFFT|^kernel [12] |^error|^roundtrip|^rc' /tmp/one.txt | cut -c1-120 | tr '\n' '|')"
}
d=bench/experiments/v32/two-pass-1024
for p in $d/1024x1024x1024-Z16-X-Z8.yaml $d/1024x1024x1024-Z8-X-Z16.yaml $d/1024x1024x1024-Z8-Z16-X.yaml \
         plans/hopper/1024x1024x1024.yaml; do
  [ $SECONDS -gt 480 ] && { echo "stopped before $p (time)"; break; }
  run1024 "$(basename $p .yaml)" $p
done
