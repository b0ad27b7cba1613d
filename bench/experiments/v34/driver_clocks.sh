#!/usr/bin/env bash
# Version 34 (repository root, .carry carried: fft3d and its kernel cache): the table bench with the driver's release
# and each size's clocks read through NVML, next to what nvidia-smi says in the same call.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,power.limit \
  --format=csv > $out/nvidia_smi.txt 2>&1; cat $out/nvidia_smi.txt
start=$SECONDS
timeout 420 .carry/fft3d bench --out $out/table > $out/table.log 2>&1; echo "table rc $? after $((SECONDS - start)) s"
cat $out/table.log
