#!/usr/bin/env bash
# One GPU-machine check of the CUDA engine with prebuilt binaries: the GPU tests (every shipped plan and small random
# plans against cuFFT Z2Z fp64), `fft3d run --backend cuda` on every shipped plan (tesla, fermi, hopper) (fft3d vs cuFFT C2C
# fp32 and memcpy in the same run, each kernel's time and bandwidth), the cold vs warm setup of one plan, and
# compute-sanitizer memcheck/racecheck on small random plans. Logs go to $OUT (default ./gpu-check-logs; seven
# files, as the device machine returns eight at most); a summary table is printed last.
#
#   tools/prepare_gpu_check.sh                   # here: static binaries and a warm kernel cache in .carry/
#   FFT3D_BIN_DIR=.carry tools/gpu_check.sh      # there: binaries fft3d, kernels_gpu_tests; optional cache/
set -uo pipefail
BIN=${FFT3D_BIN_DIR:-.carry}
OUT=${OUT:-$PWD/gpu-check-logs}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
# A warm kernel cache (built where the binaries were built, same NVRTC) saves the cold NVRTC time.
export FFT3D_CACHE_DIR=/tmp/fft3d-cache
export FFT3D_PLANS_DIR=${FFT3D_PLANS_DIR:-$PWD/plans}
mkdir -p "$FFT3D_CACHE_DIR"
[ -d "$BIN/cache" ] && cp -r "$BIN/cache/." "$FFT3D_CACHE_DIR/"
status=0
summary=()  # rows of the table printed last: "what|result"

# The value after `key` on the line of `file` that starts with `prefix` (fft3d run's report: "time      1.234 ms").
field() {
  awk -v p="$2" -v k="$3" 'index($0, p) == 1 {
    for (i = 1; i < NF; ++i) if ($i == k) { v = $(i + 1); sub(/,$/, "", v); print v; exit }
  }' "$1"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
summary+=("GPU|$(tail -1 "$OUT/gpu.txt" | cut -d, -f1-2)")

echo "== GPU tests"
start=$(date +%s)
"$BIN/kernels_gpu_tests" > "$OUT/gpu_tests.log" 2>&1
rc=$?
[ $rc -ne 0 ] && status=1
echo "GPU tests: $(( $(date +%s) - start )) s, exit $rc"
grep -E "^\[ +(PASSED|FAILED|SKIPPED) +\]|tests? ran|Failure" "$OUT/gpu_tests.log" | head -40
worst=$(grep -E "relative L2" "$OUT/gpu_tests.log" | awk '{for (i = 1; i <= NF; ++i) if ($i == "L2") print $(i + 1)}' |
  tr -d , | sort -g | tail -1)
echo "worst relative L2 of any run: ${worst:-none}"
counts=$(grep -oE '^\[ +(PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?' "$OUT/gpu_tests.log" |
  sed -E 's/^\[ *([A-Z]+) *\] ([0-9]+).*/\2 \1/' | tr '[:upper:]' '[:lower:]' | paste -sd/ -)
summary+=("kernels_gpu_tests|exit $rc, ${counts:-no gtest summary}, worst relative L2 ${worst:-none}")

# fft3d run on one plan; appends its report to $OUT/runs.log and adds a summary row.
log=$(mktemp)
run_plan() {
  local plan=$1 label=$2; shift 2
  "$BIN/fft3d" run "$plan" --backend cuda --repeat 25 --per-kernel "$@" > "$log" 2>&1
  local rc=$?
  { echo "== $label: fft3d run $plan --backend cuda --repeat 25 --per-kernel $*: exit $rc"; cat "$log"; } \
    >> "$OUT/runs.log"
  [ $rc -ne 0 ] && status=1
  grep -E "^(error|roundtrip|time|GFlops|cuFFT|kernel)" "$log" | sed "s|^|$label: |"
  local verdict
  verdict=$(awk '/^error/ { print $NF }' "$log")
  summary+=("$label|exit $rc, $(field "$log" time time) ms, $(field "$log" GFlops GFlops) GFlops, cuFFT \
$(field "$log" cuFFT cuFFT) ms, speed ratio $(field "$log" cuFFT ratio), relative L2 $(field "$log" error L2) $verdict")
}

echo "== fft3d run --backend cuda (forward, natural order, out of place)"
: > "$OUT/runs.log"
for plan in plans/tesla/*.yaml plans/fermi/*.yaml plans/hopper/*.yaml; do
  run_plan "$plan" "${plan#plans/}"
done
run_plan plans/tesla/256x256x256.yaml "tesla/256x256x256.yaml in-place" --in-place
run_plan plans/tesla/256x256x256.yaml "tesla/256x256x256.yaml digit-reversed" --order digit-reversed
for plan in plans/hopper/*.yaml; do
  run_plan "$plan" "${plan#plans/} digit-reversed" --order digit-reversed
done

echo "== setup: cold (empty kernel cache: NVRTC) vs warm (cached)"
cold_cache=$(mktemp -d /tmp/fft3d-cold-cache.XXXXXX)
: > "$OUT/setup.log"
for pass in cold warm; do
  start=$(date +%s%N)
  FFT3D_CACHE_DIR=$cold_cache "$BIN/fft3d" run plans/tesla/256x256x256.yaml --backend cuda > "$log" 2>&1 || status=1
  wall_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  { echo "== $pass: whole run $wall_ms ms"; cat "$log"; } >> "$OUT/setup.log"
  echo "$pass: $(grep -E "^setup" "$log"); whole run $wall_ms ms"
  summary+=("setup $pass|$(field "$log" setup setup) ms setup, $wall_ms ms whole run")
done
rm -rf "$cold_cache" "$log"

echo "== compute-sanitizer (small random plans)"
for tool in memcheck racecheck; do
  FFT3D_GPU_RANDOM_PLANS=2 FFT3D_GPU_RANDOM_MAX_LENGTH=16 timeout 150 compute-sanitizer --tool "$tool" \
    "$BIN/kernels_gpu_tests" --gtest_filter='RandomPlansOnGpu.*' > "$OUT/sanitizer_$tool.log" 2>&1
  rc=$?
  verdict=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_$tool.log" | tail -1 | sed 's/^=* *//')
  echo "$tool: exit $rc ; $verdict"
  echo "$verdict" | grep -qE 'SUMMARY: 0 (errors|hazards)' || status=1
  summary+=("$tool|exit $rc, ${verdict:-no summary (see sanitizer_$tool.log)}")
done

echo "== summary (logs in $OUT)"
printf '%s\n' "${summary[@]}" | awk -F'|' '{ printf "%-40s %s\n", $1, $2 }' | tee "$OUT/summary.txt"
echo "overall: $([ $status -eq 0 ] && echo PASS || echo FAIL)" | tee -a "$OUT/summary.txt"
exit $status
