#!/usr/bin/env bash
# Version 30 final code, second reference call (repository root, .carry carried). The first table bench of this
# code (final-part1) put 512^3 at 1.817 ms where `fft3d run` had measured 1.733 in the A/B, and 128^3 at 0.035 ms
# with a 0.024-0.054 spread. This call settles both: `fft3d run` and `fft3d bench` of 512^3 and 128^3 back to back,
# twice each, then the whole table bench again. Every result is checked against the fp64 oracle before it is timed.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for round in r1 r2; do
  for s in 512x512x512 128x128x128; do
    one "$round run  " --size $s --repeat 20 --per-kernel
    .carry/fft3d bench --sizes $s --repeat 20 --out $out/pair-$round-$s > $out/pair-$round-$s.log 2>&1
    echo "$round bench $s -> $(grep -E "^$s " $out/pair-$round-$s.log)"
  done
done
.carry/fft3d bench --out $out/table > $out/table.log 2>&1; echo "table rc $?"
tail -16 $out/table.log
