#!/usr/bin/env bash
# Version 31, fourth probe: Nsight Compute (clocks left as they are) on 512^3's first kernel and its copy twin, once
# on each of 8 buffer pairs of one process, beside each pair's timing (alloc_spread.cpp, third argument `profile`).
# What differs in the memory system between a fast pair and a slow one.
source "$(dirname "$0")/../common.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
ncu --query-metrics 2>/dev/null | grep -E "^lts__t_sectors_srcunit|^lts__t_sectors_srcnode|fabric" | head -8
base=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
timeout 250 ncu --clock-control none --profile-from-start off --csv --metrics $base \
  .carry/alloc_spread ${SIZE:-512x512x512} ${PAIRS:-8} profile > $out/ncu_pairs.csv 2> $out/ncu_pairs.err
echo "ncu rc $?"; tail -3 $out/ncu_pairs.err
timeout 200 ncu --clock-control none --profile-from-start off --csv \
  --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum \
  .carry/alloc_spread ${SIZE:-512x512x512} ${PAIRS:-8} profile > $out/ncu_fabric.csv 2> $out/ncu_fabric.err
echo "ncu fabric rc $?"; tail -3 $out/ncu_fabric.err
