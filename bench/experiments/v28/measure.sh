#!/usr/bin/env bash
# Version 28, after the final bench: measured planning (`plan --measure 12`, out of place) on the table sizes below
# 1.3x cuFFT and the two off-table sizes at 1.26x, with the spread kernels in parts of 64 KB: is the default
# planner's first candidate (for the table sizes: the table's plan) still the fastest?
source "$(dirname "$0")/../common.sh"
for s in 512x512x512 128x1024x1024 1024x1024x64 512x1024x256 256x512x1024 128x512x1024; do
  [ $SECONDS -gt 450 ] && { echo "stopped before $s (time)"; break; }
  timeout 140 .carry/fft3d plan --size $s --measure 12 -o $out/measured_$s.yaml > $out/measure_$s.txt 2>&1
  echo "== $s rc $?"; head -20 $out/measure_$s.txt
done
