#!/usr/bin/env bash
# Version 28, third call: the rule as it ships (parts of 64 KB, two blocks a multiprocessor, for spread tiles whose
# first pass alone crosses; 64-byte runs for every tile that fills 8 blocks of 128 KB) against version 27's forms
# (FFT3D_V28_OLD_PARTS=1, which also gives version 27's planner charges: all 343 default plans of 16-1024 per axis
# the same as version 27's, checked here). The 14 sizes off the table whose default plan or its lowering changes,
# `run --size` (each form its own default plan), median of 10, every run checked against the fp64 oracle first;
# then 2048^3 in place, whose Z kernel goes from 2 blocks of 128 KB to 4 of 64 KB (closed form and round trip).
source "$(dirname "$0")/../common.sh"
export FFT3D_V28_PRINT_CLUSTERS=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
sizes="1024x1024x64 512x1024x256 512x512x256 1024x512x128 1024x64x512 256x256x1024 512x256x512 1024x512x256
  1024x1024x128 256x1024x512 128x1024x512 512x1024x128 256x1024x256 64x1024x1024"
for s in $sizes; do
  [ $SECONDS -gt 330 ] && { echo "stopped before $s (time)"; break; }
  FFT3D_V28_OLD_PARTS=1 one "old" --size $s --repeat 10 --per-kernel
  one "new" --size $s --repeat 10 --per-kernel
  grep "^v28" /tmp/one.txt
done
for form in new old; do
  [ $SECONDS -gt 430 ] && { echo "stopped before 2048^3 $form (time)"; break; }
  if [ $form = old ]; then export FFT3D_V28_OLD_PARTS=1; fi
  timeout 150 .carry/fft3d run plans/hopper/2048x2048x2048.yaml --in-place --repeat 3 --per-kernel --backend cuda \
    > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== 2048^3 $form"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "2048^3 in place $form:"; grep -E "^(error|roundtrip|time|cuFFT|kernel|rc|v28)" /tmp/one.txt
done
