#!/usr/bin/env bash
# Version 27, last call: measured planning (`plan --measure 12`, out of place) on the eight sizes of the off-table
# bench below 1.3x cuFFT, to see whether the default planner's first candidate is the fastest it could have taken.
source "$(dirname "$0")/../common.sh"
for s in 1024x1024x64 512x1024x256 128x128x256 1024x64x32 64x64x256 128x64x64 32x32x512 64x64x64; do
  [ $SECONDS -gt 480 ] && { echo "stopped before $s (time)"; break; }
  timeout 120 .carry/fft3d plan --size $s --measure 12 -o $out/measured_$s.yaml > $out/measure_$s.txt 2>&1
  echo "== $s rc $?"; cat $out/measure_$s.txt | head -20
done
