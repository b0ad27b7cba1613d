#!/usr/bin/env bash
# Version 32, seventh call (repository root, .carry carried with the final binary; bench/NOTES.md version 32). The
# Z splits of crossing-first/ against the table's plans, out of place, per kernel, two rounds alternated, median of
# 10, every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
d=bench/experiments/v32/crossing-first
for round in r1 r2; do
  one "$round table" plans/hopper/512x512x512.yaml --repeat 10 --per-kernel
  one "$round split" $d/512x512x512-Z8-X-Z8.yaml --repeat 10 --per-kernel
  one "$round table" plans/hopper/256x512x1024.yaml --repeat 10 --per-kernel
  one "$round split" $d/256x512x1024-Z8-X-Z16.yaml --repeat 10 --per-kernel
done
