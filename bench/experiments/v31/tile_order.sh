#!/usr/bin/env bash
# Version 31: does 512^3's first kernel have two speeds because of the order its tiles are walked? It walks Z tiles
# first (sorted_layout.cpp: the order in-place clusters need), so at any moment the running blocks read and write
# rows of all 512 Z planes, each plane a 2 MB page whose physical placement changes with the process.
# A record: the switch is gone from the code (bench/NOTES.md version 31, refuted); it reproduces with the three lines
# that returned early from mark_sorted_layouts when FFT3D_V31_USUAL_ORDER was set.
# FFT3D_V31_USUAL_ORDER=1 kept the usual order (Y tiles first: the running blocks cover 32 planes, ~0.5 MB of each).
# Each variant in 8 fresh processes, median of 10 each, every run checked against the fp64 oracle first; then the
# other sizes whose first kernel walks Z first, 3 processes each.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
FFT3D_V31_USUAL_ORDER=1 .carry/fft3d explain --size 512x512x512 | grep -m2 "tiles walked\|launch" 
for i in 1 2 3 4 5 6 7 8; do
  one "p$i z-first" --size 512x512x512 --repeat 10 --per-kernel
  FFT3D_V31_USUAL_ORDER=1 one "p$i usual  " --size 512x512x512 --repeat 10 --per-kernel
done
for s in ${SIZES:-512x256x256 1024x256x256 256x512x512 128x1024x1024 256x512x1024}; do
  [ $SECONDS -gt 500 ] && { echo "stopped before $s (time)"; break; }
  for i in 1 2 3; do
    one "p$i z-first" --size $s --repeat 10 --per-kernel
    FFT3D_V31_USUAL_ORDER=1 one "p$i usual  " --size $s --repeat 10 --per-kernel
  done
done
