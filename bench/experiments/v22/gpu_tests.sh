#!/usr/bin/env bash
# Version 22 final code on the GPU machine (repository root, .carry carried): every GPU test, as in version 19.
exec bash bench/experiments/v19/gpu_tests.sh
