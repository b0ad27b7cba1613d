#!/usr/bin/env bash
# The bad input of `fft3d run --gpus G` and `fft3d bench --gpus G` that is refused before any GPU work: exit codes
# and the error on stderr; and `fft3d explain --gpus G`, which needs no GPU. Runs with or without GPUs (a machine
# with fewer GPUs than asked must say so).
#   multi_gpu_cli_test.sh BUILD_DIR
set -uo pipefail
fft3d="$1/fft3d"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
failures=0; checks=0
usage=2; unavailable=3  # tools/cli/commands.hpp

# expect CODE TEXT DESCRIPTION -- COMMAND...: the exit code, and TEXT on stderr.
expect() {
  local code="$1" text="$2" what="$3"; shift 4
  checks=$((checks + 1))
  "$@" >"$work/out" 2>"$work/err"; local got=$?
  if [ "$got" -ne "$code" ] || ! grep -qF -- "$text" "$work/err"; then
    echo "FAIL: $what: exit $got (expected $code), stderr:"; sed 's/^/  | /' "$work/err" | head -10
    failures=$((failures + 1))
  fi
}

expect $usage "must be at least 1" "run --gpus 0" -- "$fft3d" run --gpus 0 --size 64x64x64
expect $usage "must be at least 1" "run --gpus -2" -- "$fft3d" run --gpus -2 --size 64x64x64
expect $usage "1 to 8 GPUs" "run --gpus 9" -- "$fft3d" run --gpus 9 --size 64x64x64
expect $usage "cpu backend has no multi-GPU" "run --gpus with --backend cpu" -- \
  "$fft3d" run --gpus 2 --backend cpu --size 64x64x64
expect $usage "not a plan file" "run --gpus with a plan file" -- "$fft3d" run --gpus 2 plans/any.yaml
expect $usage "needs --size" "run --gpus without --size" -- "$fft3d" run --gpus 2
expect $usage "natural order" "run --gpus with digit-reversed order" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --order digit-reversed
expect $usage "unknown precision" "run --gpus in an unknown precision" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --precision fp16
expect $usage "no --inverse with r2c" "run --gpus r2c --inverse" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --transform r2c --inverse
expect $usage "takes the oracle" "run --gpus c2r --check plane-waves" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --transform c2r --check plane-waves
expect $usage "even X length" "run --gpus r2c of an odd NX" -- "$fft3d" run --gpus 1 --size 63x64x64 --transform r2c
expect $usage "--layout must be" "run --gpus with an unknown layout" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --layout x_slabs
expect $usage "with --gpus only" "run --layout without --gpus" -- "$fft3d" run --size 64x64x64 --layout y_slabs
expect $usage "--exchange must be" "run --gpus with an unknown exchange" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --exchange dma
expect $usage "with --gpus only" "run --exchange without --gpus" -- "$fft3d" run --size 64x64x64 --exchange nccl
expect $usage "with --gpus only" "run --no-cufftxt without --gpus" -- "$fft3d" run --size 64x64x64 --no-cufftxt
expect $usage "forward transform, unscaled" "run --gpus --check plane-waves --inverse" -- \
  "$fft3d" run --gpus 2 --size 64x64x64 --check plane-waves --inverse
expect $usage "unknown arch" "run --gpus with an unknown arch" -- "$fft3d" run --gpus 2 --size 64x64x64 --arch nosuch

expect $usage "1 to 8 GPUs" "bench --gpus 0" -- "$fft3d" bench --gpus 0
expect $usage "1 to 8 GPUs" "bench --gpus 9" -- "$fft3d" bench --gpus 9
expect $usage "c2c" "bench --gpus r2c" -- "$fft3d" bench --gpus 2 --transform r2c
expect $usage "fp32" "bench --gpus in fp64 (run --gpus takes fp64)" -- "$fft3d" bench --gpus 2 --precision fp64
expect $usage "with --gpus only" "bench --layout without --gpus" -- "$fft3d" bench --layout natural
expect $usage "unknown arch" "bench --gpus with an unknown arch" -- "$fft3d" bench --gpus 2 --arch nosuch
expect $usage "--layout must be" "bench --gpus with an unknown layout" -- "$fft3d" bench --gpus 2 --layout x_slabs

# expect_out TEXT DESCRIPTION -- COMMAND...: exit 0 and TEXT on stdout.
expect_out() {
  local text="$1" what="$2"; shift 3
  checks=$((checks + 1))
  "$@" >"$work/out" 2>"$work/err"; local got=$?
  if [ "$got" -ne 0 ] || ! grep -qF -- "$text" "$work/out"; then
    echo "FAIL: $what: exit $got, no \"$text\" in stdout:"; sed 's/^/  | /' "$work/out" "$work/err" | head -20
    failures=$((failures + 1))
  fi
}

# explain --gpus: what MultiGpuTransform would run (slab_pipeline.hpp's counts), on the CPU.
expect_out "column plan in 8 row chunks" "explain --gpus 2 of 1024^3 (natural)" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024
expect_out "its own rows straight into (inverse: from) its y slab" "explain --gpus 2: the last kernel apart" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024
expect_out "exchange 1 a transform (copy engines)" "explain --gpus 2 --layout y_slabs" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024 --layout y_slabs
expect_out "(peer stores)" "explain --gpus 4 takes the peer stores" -- "$fft3d" explain --gpus 4 --size 2048x2048x2048
expect_out "column plan in 2 row chunks" "explain --gpus 4: the peer stores' cap" -- \
  "$fft3d" explain --gpus 4 --size 2048x2048x2048
expect_out "513x1024x512 z slab" "explain --gpus 2 --transform r2c: the half spectrum" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024 --transform r2c
expect_out "7.49" "explain --gpus 2 y slabs at an H200's 4300 GB/s: docs/performance.md's 7.5 ms bound" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024 --layout y_slabs --bandwidth 4300
expect_out "at 340 GB/s a GPU (measured on H200s)" "explain --gpus 4: the peer stores' measured rate" -- \
  "$fft3d" explain --gpus 4 --size 1024x1024x1024
expect_out "(not measured for this exchange and G" "explain --gpus 8: no measured rate, said so" -- \
  "$fft3d" explain --gpus 8 --size 1024x1024x1024
expect $usage "not a plan file" "explain --gpus with a plan file" -- "$fft3d" explain --gpus 2 plans/any.yaml
expect $usage "needs --size" "explain --gpus without --size" -- "$fft3d" explain --gpus 2
expect_out "then the slab plan beside the exchange" "explain --gpus 2 --transform c2r: the inverse's order" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024 --transform c2r --layout y_slabs
expect_out "c2r, 2 kernels: {Y(1, 1024, 1, 1024, no-tw)} {C2R(X, 1024)" "explain --gpus 2 c2r: the slab's C2R" -- \
  "$fft3d" explain --gpus 2 --size 1024x1024x1024 --transform c2r
expect $usage "no --batch" "explain --gpus --batch" -- "$fft3d" explain --gpus 2 --size 64x64x64 --batch 2
expect $usage "must divide NY" "explain --gpus 3 of 64^3" -- "$fft3d" explain --gpus 3 --size 64x64x64
expect $usage "with --gpus only" "explain --layout without --gpus" -- \
  "$fft3d" explain --size 64x64x64 --layout y_slabs
expect $usage "--link-bandwidth must be" "explain --gpus --link-bandwidth 0" -- \
  "$fft3d" explain --gpus 2 --size 64x64x64 --link-bandwidth 0

# More GPUs than the machine has (8 is the most the decomposition takes): a clear error, exit 3, no crash.
gpus_here=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ "${gpus_here:-0}" -lt 8 ]; then
  expect $unavailable "GPU" "run --gpus 8 on a machine with fewer" -- "$fft3d" run --gpus 8 --size 64x64x64
  expect $unavailable "GPU" "bench --gpus 8 on a machine with fewer" -- "$fft3d" bench --gpus 8 --sizes 64x64x64
else
  echo "SKIP: this machine has 8 GPUs; the fewer-GPUs case needs fewer"
fi

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
