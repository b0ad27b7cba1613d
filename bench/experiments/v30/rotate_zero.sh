#!/usr/bin/env bash
# Version 30, second call (a record: FFT3D_V30_ROTATE is gone from the code; bench/NOTES.md version 30). The
# rotated crossing's cost split into its run-time addressing (FFT3D_V30_ROTATE=zero: the same code, the rotation read
# from the flags, 0 at run time) and its order (rotate), against neither; two rounds, median of 10, every run checked.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for round in r1 r2; do
  for s in 512x512x512 1024x256x256 128x1024x1024; do
    one "$round old   " --size $s --repeat 10 --per-kernel
    FFT3D_V30_ROTATE=zero one "$round zero  " --size $s --repeat 10 --per-kernel
    FFT3D_V30_ROTATE=1 one "$round rotate" --size $s --repeat 10 --per-kernel
  done
done
