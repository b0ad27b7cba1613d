#!/usr/bin/env bash
# Version 31 final call: 128^3's new table plan against the one before it in place (the GPU tests ran both placements;
# the earlier rounds timed out of place only), three rounds, then the reference bench of the twelve sizes on three
# buffer pairs each. Every run checked against the fp64 oracle first.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $out/gpu.txt
for round in r1 r2 r3; do
  one "$round in place, before" bench/experiments/v31/small-128/table-v28.yaml --repeat 20 --per-kernel --in-place
  one "$round in place, new   " plans/hopper/128x128x128.yaml --repeat 20 --per-kernel --in-place
done
.carry/fft3d bench --out $out/table > $out/table.log 2>&1; echo "table rc $?"
tail -14 $out/table.log
