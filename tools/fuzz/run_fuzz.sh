#!/usr/bin/env bash
# Bounded fuzzing of the plan parser with libFuzzer, ASan and UBSan (clang), seeded with the shipped plans.
#   tools/fuzz/run_fuzz.sh [SECONDS]      (default 600)
# Exits non-zero if libFuzzer finds a crash, a leak or a sanitizer report; artifacts land in fuzz-out/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
command -v clang++ >/dev/null || { echo "run_fuzz: clang++ is needed (apt-get install clang)"; exit 2; }
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFFT3D_FUZZ=ON \
  -DFFT3D_BUILD_TESTS=OFF -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" >/dev/null
cmake --build build-fuzz -j2 --target plan_parser_fuzzer
mkdir -p fuzz-out/corpus
for f in plans/*/*.yaml tools/fuzz/seeds/*; do cp "$f" "fuzz-out/corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done
# Seeds of the bad-input campaign too long to keep as files: long strings, many kernels, deep nesting.
printf '%3000s8x8x8' '' >fuzz-out/corpus/gen-long-size
printf '%03000dx8x8' 8 >fuzz-out/corpus/gen-long-digits
{ printf 'size: [8, 1, 1]\narch: tesla\nkernels:\n'; for i in $(seq 150); do echo '  - "X(1, 8, 1, 8, no-tw)"'; done; } \
  >fuzz-out/corpus/gen-many-kernels
{ printf 'size: [8, 1, 1]\narch: tesla\nplan: "'; for i in $(seq 300); do printf '{X(1, 8, 1, 8, no-tw)} '; done; echo '"'; } \
  >fuzz-out/corpus/gen-many-braces
./build-fuzz/plan_parser_fuzzer fuzz-out/corpus -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -artifact_prefix=fuzz-out/ -print_final_stats=1 2>&1 | tee fuzz-out/fuzz.log | grep -E "^#|ERROR|stat::" | tail -20

# The CLI over the whole corpus the fuzzer grew: every file must end with an exit code below 128 (no crash) and,
# when it fails, a message on stderr.
if [ -x build/fft3d ]; then
  worst=0; files=0
  for f in fuzz-out/corpus/*; do
    rc=0; build/fft3d validate "$f" >/dev/null 2>fuzz-out/cli_err.txt || rc=$?
    [ "$rc" -gt "$worst" ] && worst=$rc
    if [ "$rc" -ge 128 ] || { [ "$rc" -ne 0 ] && [ ! -s fuzz-out/cli_err.txt ]; }; then
      echo "run_fuzz: fft3d validate $f: exit $rc"; cp "$f" fuzz-out/; exit 1
    fi
    files=$((files + 1))
  done
  echo "run_fuzz: fft3d validate over $files corpus files: worst exit code $worst, every failure explained on stderr"
fi
