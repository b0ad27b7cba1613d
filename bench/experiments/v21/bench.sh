#!/usr/bin/env bash
# Version 21 reference bench on the GPU machine: the same sweep as version 18 and 19 (the twelve table sizes and the twenty
# off-table sizes, each result checked before it is printed), with this version's binaries in .carry.
exec bash bench/experiments/radix32/bench_v18.sh
