#!/usr/bin/env bash
# Version 32, sixth call (repository root, .carry carried with the final binary): measured planning of the table
# sizes whose second kernels the rule changed, out of place, each candidate checked against the fp64 oracle first.
# Is the table's plan (the model's first candidate) still the fastest?
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for s in 512x512x512 256x512x1024 128x512x1024 256x512x512; do
  [ $SECONDS -gt 420 ] && { echo "stopped before $s (time)"; break; }
  timeout $((590 - SECONDS)) .carry/fft3d plan --size $s --measure 8 -o $out/plan-$s.yaml > $out/measure-$s.txt 2>&1
  echo "== $s rc $?"; grep -vE '^\s*$' $out/measure-$s.txt | tail -12 | cut -c1-160
done
