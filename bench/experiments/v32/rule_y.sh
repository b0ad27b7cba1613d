#!/usr/bin/env bash
# Version 32, fourth call (repository root, .carry carried with the final binary as .carry/fft3d and the one before
# the rule as .carry/fft3d_old; bench/NOTES.md version 32). The rule limited to Y stages: the GPU tests of the
# random plans, spread tiles and engine-for-size; then the sizes with a 2048- or 4096-point axis whose default plan
# it changes, and the two Z-line sizes it no longer changes, old binary against new, per kernel, median of 10, every
# run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
gpu_tests 200 rule_y 'DistributedTilesOnGpu.*:RandomPlansOnGpu.*:EngineForSize.*'
for s in 64x512x2048 128x512x2048 2048x512x128 4096x512x16 32x512x4096 64x512x4096 1024x64x512 32x2048x512; do
  [ $SECONDS -gt 500 ] && { echo "stopped before $s (time)"; break; }
  BIN=.carry/fft3d_old one "old " --size $s --repeat 10 --per-kernel
  one "new " --size $s --repeat 10 --per-kernel
done
