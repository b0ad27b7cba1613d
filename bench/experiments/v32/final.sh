#!/usr/bin/env bash
# Version 32, third call (repository root, .carry carried with the final binary as .carry/fft3d and the one before
# the rule as .carry/fft3d_old; bench/NOTES.md version 32). The GPU tests of the final code (spread tiles, random
# plans, engine-for-size and the four table plans the rule changes, in 8 modes with the round trip); the reference
# bench of the table on three buffer pairs; then the default plans off the table that the rule changes, old binary
# against new, per kernel, median of 10, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
gpu_tests 200 final 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*' \
  512x512x512 256x512x512 128x512x1024 256x512x1024
.carry/fft3d bench --out $out/table > $out/table.log 2>&1; echo "table rc $?"
tail -16 $out/table.log
for s in 512x512x256 1024x512x256 1024x512x128 1024x64x512 2048x512x64 32x2048x512; do
  [ $SECONDS -gt 540 ] && { echo "stopped before $s (time)"; break; }
  BIN=.carry/fft3d_old one "old " --size $s --repeat 10 --per-kernel
  one "new " --size $s --repeat 10 --per-kernel
done
