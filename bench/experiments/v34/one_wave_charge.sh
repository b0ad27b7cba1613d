#!/usr/bin/env bash
# Version 34, fifth step (repository root, .carry carried: fft3d with the charge, fft3d_old without): the twenty sizes
# of 16-1024 per axis whose default plan the one-wave charge changes, old and new binary alternated, two rounds;
# then three new plans in place.
source "$(dirname "$0")/../common.sh"
sizes="16x64x1024 16x128x1024 16x1024x64 16x1024x128 32x32x1024 32x64x1024 32x512x64 32x512x128 64x16x1024 64x32x1024 64x256x64 64x256x128 128x16x1024 128x128x64 256x64x64 256x64x128 512x32x64 512x32x128 1024x16x64 1024x16x128"
for round in 1 2; do
  for s in $sizes; do
    BIN=.carry/fft3d_old one "old r$round" --size $s --repeat 20
    one "new r$round" --size $s --repeat 20
  done
done
for s in 128x128x64 512x32x64 32x32x1024; do one "new in place" --size $s --in-place --repeat 5; done
