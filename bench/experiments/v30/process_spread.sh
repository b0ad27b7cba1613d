#!/usr/bin/env bash
# Version 30: how far one size's time moves from one process to the next. The linear A/B measured 512^3 at 1.733 ms
# (first kernel 0.764) for code whose later runs and benches all measure 1.81-1.82 (first kernel 0.84-0.85), with
# the generated kernels byte-identical. Here each of 8 fresh processes runs 512^3 (and, as a control, 128x1024x1024,
# which reproduced), median of 10 each, every run checked first; then 512^3 in place, whose first kernel reads and
# writes one buffer.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for i in 1 2 3 4 5 6 7 8; do
  one "p$i" --size 512x512x512 --repeat 10 --per-kernel
  one "p$i" --size 128x1024x1024 --repeat 10 --per-kernel
done
for i in 1 2 3; do one "p$i in-place" --size 512x512x512 --repeat 10 --per-kernel --in-place; done
