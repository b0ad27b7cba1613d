#!/usr/bin/env bash
# Version 22 reference bench on the GPU machine: the same sweep as versions 18-21 (the twelve table sizes and the twenty
# off-table sizes, each result checked before it is printed), with this version's binaries in .carry.
exec bash bench/experiments/radix32/bench_v18.sh
