#!/usr/bin/env bash
# Version 31, third probe: offset_walk.cpp (what and why there) on 512^3 and 256x512x1024. Build here first, after
# the static build, with the line in alloc_spread.sh, offset_walk in place of alloc_spread.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for s in ${SIZES:-512x512x512 256x512x1024}; do
  timeout 250 .carry/offset_walk $s ${PAIRS:-6} 2>&1 | tee -a $out/offset_walk.txt
done
