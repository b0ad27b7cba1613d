#!/usr/bin/env bash
# A build without the CUDA toolkit plans, explains and emits exactly as the full build does: the planner, the cost
# model and the emitter are pure C++ and must not depend on the toolkit. Compares two fft3d binaries on
#   - `plan --size S --arch A` (stdout, stderr and exit code) for every size below on every profile,
#   - `explain P` and `explain P --dump-cuda DIR` for every shipped plan P,
# and, with RECORDED_DIR, both against recorded `plan` outputs named ARCH-S.yaml (output then a last line rc=N).
# Needs a second configure and build, so it is run by hand (or by a CI job that has both builds), not by ctest:
#   cmake -S . -B build -DCMAKE_CXX_COMPILER_LAUNCHER=ccache && cmake --build build --target fft3d_cli
#   cmake -S . -B build-nocuda -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
#   cmake --build build-nocuda --target fft3d_cli
#   tools/tests/nocuda_plans_test.sh build/fft3d build-nocuda/fft3d . [RECORDED_DIR]
set -uo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: nocuda_plans_test.sh FFT3D_A FFT3D_B SOURCE_DIR [RECORDED_DIR]" >&2; exit 2
fi
fft3d_a="$(realpath "$1")"; fft3d_b="$(realpath "$2")"; src="$3"; recorded="${4:-}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT

# The twelve sizes of `fft3d bench`, then sizes that reach the planner's edges: tiny, long thin axes, a unit axis,
# the largest table size, and 1x1x1, which every build must refuse alike.
bench_sizes="128x128x128 256x128x128 256x256x256 512x256x256 1024x256x256 512x512x512 128x512x512 256x512x512
             128x512x1024 256x512x1024 128x1024x1024 1024x1024x1024"
other_sizes="256x256x512 64x64x64 16x16x16 32x64x128 4096x16x16 2048x64x64 64x1024x64 512x512x256 1024x64x512
             8x8x8 2048x2048x2048 1x1x1 1x1024x1"
arches="hopper tesla fermi"
compared=0; failures=0

# same WHAT FILE_A FILE_B: counts a comparison, prints the diff when the two differ.
same() {
  compared=$((compared + 1))
  if ! diff -u "$2" "$3" >"$work/diff"; then
    echo "DIFFERENT: $1"; sed 's/^/  | /' "$work/diff" | head -40; failures=$((failures + 1))
  fi
}

# capture OUT COMMAND...: stdout and stderr of the command, then a line rc=N (the recorded outputs' format).
capture() {
  local out="$1"; shift
  "$@" >"$out" 2>&1; echo "rc=$?" >>"$out"
}

for arch in $arches; do
  for size in $bench_sizes $other_sizes; do
    capture "$work/a" "$fft3d_a" plan --size "$size" --arch "$arch"
    capture "$work/b" "$fft3d_b" plan --size "$size" --arch "$arch"
    same "plan --size $size --arch $arch" "$work/a" "$work/b"
    if [ -n "$recorded" ]; then
      same "plan --size $size --arch $arch against $recorded/$arch-$size.yaml" "$recorded/$arch-$size.yaml" "$work/a"
    fi
  done
done

# explain runs from the source directory so both binaries print the same relative plan path.
cd "$src" || exit 2
for plan in plans/*/*.yaml; do
  # Both dump to the same directory (explain names the files it wrote), each then moved aside.
  capture "$work/a" "$fft3d_a" explain "$plan" --dump-cuda "$work/cuda" && mv "$work/cuda" "$work/cuda-a"
  capture "$work/b" "$fft3d_b" explain "$plan" --dump-cuda "$work/cuda" && mv "$work/cuda" "$work/cuda-b"
  same "explain $plan" "$work/a" "$work/b"
  compared=$((compared + 1))
  if ! diff -r "$work/cuda-a" "$work/cuda-b" >"$work/diff"; then
    echo "DIFFERENT: explain $plan --dump-cuda"; head -40 "$work/diff" | sed 's/^/  | /'; failures=$((failures + 1))
  fi
  rm -rf "$work/cuda" "$work/cuda-a" "$work/cuda-b"
done

echo "nocuda_plans_test: $compared compared, $failures different"
[ "$failures" -eq 0 ]
