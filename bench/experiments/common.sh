# Sourced by the device scripts of versions 27, 28 and 30 (bench/experiments/v27, v28, v30; run from the
# repository root with .carry carried): the environment, the kernel cache warmed here, $out (the device tool's
# $OUT), and one(label, run arguments...), which runs one `fft3d run` on the GPU, appends its whole output to
# $out/runs.txt and prints its time, cuFFT's and each kernel's.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFT3D_CACHE_DIR=/tmp/c FFT3D_PLANS_DIR=$PWD/plans
mkdir -p /tmp/c && cp -r .carry/cache/. /tmp/c/.
out=${OUT:-/tmp}
one() {  # label, then run arguments; the switches from the caller, and BIN for another binary than .carry/fft3d
  local label=$1; shift
  timeout 90 ${BIN:-.carry/fft3d} run "$@" --backend cuda > /tmp/one.txt 2>&1; echo "rc $?" >> /tmp/one.txt
  { echo "=== $label $*"; cat /tmp/one.txt; } >> $out/runs.txt
  echo "$label $* -> $(awk '/^time/ {t=$2} /^cuFFT/ {c=$2} /^kernel [0-9]/ {k=k" k"$2"="$3"/"$NF} /^rc [1-9]|FAIL|error:/ {f=" FAILED"} END {print t, "cuFFT", c, k, f}' /tmp/one.txt)"
}
gpu_tests() {  # seconds, label, gtest filter, then table sizes; the switches from the caller
  # Runs the GPU tests of the filter and of each size's hopper table plan (8 modes with the round trip) into
  # $out/gpu_tests_<label>.txt and prints the verdict.
  local seconds=$1 label=$2 filter=$3; shift 3
  for s in "$@"; do filter="$filter:Plans/ShippedPlanOnGpu.*hopper_${s}_yaml"; done
  timeout "$seconds" .carry/kernels_gpu_tests --gtest_filter="$filter" > "$out/gpu_tests_$label.txt" 2>&1
  echo "gpu tests ($label) rc $?"; grep -E "^\[ +(PASSED|FAILED) +\]|Failure" "$out/gpu_tests_$label.txt" | head -20
}
