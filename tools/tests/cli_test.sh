#!/usr/bin/env bash
# End-to-end checks of the fft3d CLI: exit codes, located errors on stderr, reports on stdout.
#   cli_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
fft3d="$1/fft3d"; random_plan="$1/fft3d-random-plan"; src="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
failures=0; checks=0

# expect CODE DESCRIPTION -- COMMAND...: runs the command, checks its exit code; output in $work/out, $work/err.
expect() {
  local code="$1" what="$2"; shift 3
  checks=$((checks + 1))
  "$@" >"$work/out" 2>"$work/err"; local got=$?
  if [ "$got" -ne "$code" ]; then
    echo "FAIL: $what: exit $got, expected $code"; sed 's/^/  | /' "$work/err" | head -20; failures=$((failures + 1))
    return 1
  fi
}
# contains FILE TEXT DESCRIPTION
contains() {
  checks=$((checks + 1))
  if ! grep -qF -- "$2" "$work/$1"; then
    echo "FAIL: $3: '$2' not in $1"; sed 's/^/  | /' "$work/$1" | head -20; failures=$((failures + 1))
  fi
}

# contains_match FILE EXTENDED-REGEX DESCRIPTION
contains_match() {
  checks=$((checks + 1))
  if ! grep -qE -- "$2" "$work/$1"; then
    echo "FAIL: $3: /$2/ not in $1"; sed 's/^/  | /' "$work/$1" | head -20; failures=$((failures + 1))
  fi
}

expect 0 "validate every shipped plan" -- "$fft3d" validate "$src"/plans/*/*.yaml
contains out "128x128x128.yaml: ok" "validate reports each plan"
contains out "256x256x256-r2c.yaml: ok: 256x256x256 hopper r2c, 2 kernels" "validate names a real plan's kind"

cat >"$work/typo.yaml" <<'PLAN'
size: [256, 256, 256]
arch: tesla
kernels:
  - "Y(16, 16, 16, 256, tw)"
  - "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)"
  - "X(32, 8, 8, 64, tw), Z(16, 16, 16, 156, tw)"
  - "X(32, 8, 1, 8, no-tw), Z(16, 16, 1, 16, no-tw)"
PLAN
expect 1 "validate a misprinted plan" -- "$fft3d" validate "$work/typo.yaml"
contains err "typo.yaml:6:27: error: Z(16, 16, 16, 156, tw): span 156 does not divide the Z length 256" "located error"
expect 1 "run refuses a misprinted plan" -- "$fft3d" run "$work/typo.yaml" --backend cpu
contains err "typo.yaml:6:27: error:" "run reports the located error"

# A plan of some axes: checked against FFTW over those axes; its untransformed X may have any length (33 = 3·11).
cat >"$work/z-lines.yaml" <<'PLAN'
size: [33, 16, 64]
arch: hopper
axes: [Z]
kernels:
  - "Z(1, 64, 1, 64, no-tw)"
PLAN
expect 0 "run a plan of axis Z whose X length has a factor 11" -- "$fft3d" run "$work/z-lines.yaml" --backend cpu
contains_match out "^error +relative L2 [0-9.e+-]+ \(bound [0-9.e+-]+\): pass" "axes plan checked over its axes"
expect 2 "no closed form for a plan of some axes" -- \
  "$fft3d" run "$work/z-lines.yaml" --check plane-waves

# A real plan of axes X and Y over 11 Z planes: checked against FFTW's r2c over those axes, not the 3D one; its
# untransformed Z may have any length.
cat >"$work/xy-r2c.yaml" <<'PLAN'
size: [64, 64, 11]
axes: [X, Y]
arch: hopper
kernels:
  - "X(1, 32, 1, 32, no-tw), R2C(X, 64), Y(16, 4, 16, 64, tw)"
  - "Y(16, 4, 4, 16, tw)"
  - "Y(16, 4, 1, 4, no-tw)"
PLAN
expect 0 "run a real plan of axes X and Y" -- "$fft3d" run "$work/xy-r2c.yaml" --backend cpu
contains out "against FFTW's fp64 r2c over axes [X, Y]" "real axes plan checked over its axes"

printf 'size: [8, 8\narch: [\n' >"$work/broken.yaml"
expect 1 "malformed YAML" -- "$fft3d" validate "$work/broken.yaml"
contains err "broken.yaml:" "YAML errors are located"
expect 1 "missing file" -- "$fft3d" validate "$work/none.yaml"
contains err "cannot open" "a missing file is named"
expect 2 "unknown command" -- "$fft3d" frobnicate
expect 2 "unknown option" -- "$fft3d" run --frobnicate
expect 2 "bad size" -- "$fft3d" plan --size 1001x64x64 --arch tesla
contains err "11 is not a supported factor" "the planner names the bad factor"
contains err "nearest supported lengths are 1000 and 1008" "and the nearest supported lengths"
expect 3 "cuda backend without a CUDA build or GPU" -- "$fft3d" run "$src/plans/tesla/128x128x128.yaml" --backend cuda
contains err "cannot run here" "the missing GPU is named"
expect 3 "bench without a GPU" -- "$fft3d" bench --sizes 64x64x64
contains err "fft3d bench: error:" "bench names why it cannot run"
expect 2 "bench with a bad size list" -- "$fft3d" bench --sizes 64x64
expect 2 "bench on no buffer pair" -- "$fft3d" bench --sizes 64x64x64 --buffer-pairs 0
contains err "--buffer-pairs must be at least 1" "bench names the bad pair count"
expect 3 "measured planning without a GPU" -- "$fft3d" plan --size 64x64x64 --measure 2
contains_match err "--measure: (no CUDA device|this build has no CUDA backend)" "measured planning names why it cannot run"
expect 2 "measured planning of too many candidates" -- "$fft3d" plan --size 64x64x64 --measure 17
expect 3 "measured planning of a batch without a GPU" -- "$fft3d" plan --size 64x64x64 --batch 8 --measure 2
contains_match err "--measure: (no CUDA device|this build has no CUDA backend)" "a batch is measured on a GPU too"
expect 2 "a measured batch remembered" -- "$fft3d" plan --size 64x64x64 --batch 8 --measure 2 --remember
contains err "wisdom keeps one volume's plan" "wisdom refuses a batch plan, saying why"
# A GPU's own table (`table --measure`): measured on the GPU it runs on, so without one it says why.
expect 3 "a GPU table without a GPU" -- "$fft3d" table --measure 2 --sizes 64x64x64 --out "$work/gpu-tables"
contains_match err "--measure: no CUDA device" "a GPU table names why it cannot be measured"
expect 2 "a GPU table without sizes" -- "$fft3d" table --measure 2
contains err "--measure needs --sizes" "a GPU table asks for its sizes"
# The planner ranks for the placement: fp64 512^3 out of place takes a two-pass split whose natural order needs the
# digit-reversal pass only in place (docs/performance.md L156); for runs in place, three passes.
expect 0 "an fp64 plan for runs out of place" -- "$fft3d" plan --size 512x512x512 --precision fp64
contains out '"Z(64, 8, 1, 8, no-tw), Y(1, 512, 1, 512, no-tw)"' "out of place the planner takes the two-pass Z split"
expect 0 "an fp64 plan for runs in place" -- "$fft3d" plan --size 512x512x512 --precision fp64 --in-place
contains out "the default planner's plan for runs in place" "plan --in-place says which placement it planned for"
contains out '"X(1, 512, 1, 512, no-tw)"' "in place the planner keeps X in a pass of its own"
expect 2 "remembering a plan that was not measured" -- "$fft3d" plan --size 64x64x64 --remember
contains err "--remember keeps a measured plan" "remembering says it needs measured planning"

# Wisdom (a plan remembered by `plan --measure N --remember`): `run --size` takes it, for its placement only, and
# refuses one filed under another size.
mkdir -p "$work/cache/wisdom/tesla"
"$fft3d" plan --size 64x64x32 --arch tesla > "$work/cache/wisdom/tesla/64x64x32.yaml"
expect 0 "run a size with wisdom" -- env FFT3D_CACHE_DIR="$work/cache" "$fft3d" run --size 64x64x32 --arch tesla --backend cpu
contains out "(wisdom: measured on this machine)" "run --size takes the remembered plan"
expect 0 "run a size in place with wisdom out of place only" -- env FFT3D_CACHE_DIR="$work/cache" "$fft3d" run --size 64x64x32 --arch tesla --backend cpu --in-place
contains out "the default planner for tesla" "wisdom for runs out of place is not taken in place"
cp "$src/plans/tesla/128x128x128.yaml" "$work/cache/wisdom/tesla/64x64x32.yaml"
expect 2 "run a size whose wisdom holds another size" -- env FFT3D_CACHE_DIR="$work/cache" "$fft3d" run --size 64x64x32 --arch tesla --backend cpu
contains err "holds a plan for 128x128x128 on tesla" "misfiled wisdom is named"
for command in run validate explain plan table bench; do
  expect 0 "$command --help" -- "$fft3d" "$command" --help
  contains out "usage: fft3d $command" "$command --help prints usage"
done

expect 0 "run the tesla 128^3 plan on the CPU" -- "$fft3d" run "$src/plans/tesla/128x128x128.yaml" --backend cpu
contains out "error     relative L2" "run reports the error"
contains_match out '^error     relative L2 [0-9.e+-]+ \(bound [0-9.e+-]+\): pass; peak ' \
  "the verdict follows the relative L2 it judges, the peak after it"
contains out "GFlops" "run reports GFlops"
expect 0 "inverse, digit-reversed, in place, fp32" -- "$fft3d" run "$src/plans/tesla/128x128x128.yaml" \
  --backend cpu --inverse --order digit-reversed --in-place --precision fp32 --scaling full

expect 0 "explain" -- "$fft3d" explain "$src/plans/tesla/256x256x256.yaml" --bandwidth 3000
contains out "passes   4" "explain counts passes"
contains out "floor    " "explain gives the floor time"

# With the kernel generator (a CUDA build): explain shows the KernelSpecs, and every dumped kernel of every shipped
# plan compiles as it stands with nvcc.
# (Through a file: with pipefail, grep -q leaving early would fail the pipeline through explain's SIGPIPE.)
"$fft3d" explain "$src/plans/tesla/128x128x128.yaml" >"$work/explain.txt" 2>&1
has_lowering=0; grep -q "^lowering for" "$work/explain.txt" && has_lowering=1
if [ "$has_lowering" -eq 1 ]; then
  nvcc="${CUDACXX:-/usr/local/cuda/bin/nvcc}"
  for plan in "$src"/plans/*/*.yaml; do
    name="$(basename "$(dirname "$plan")")-$(basename "$plan" .yaml)"
    expect 0 "explain --dump-cuda $name" -- "$fft3d" explain "$plan" --dump-cuda "$work/cuda/$name"
    contains out "global accesses:" "explain $name shows the coalescing check"
    if [ -x "$nvcc" ]; then
      for cu in "$work/cuda/$name"/*.cu; do
        expect 0 "nvcc -arch=sm_90 -cubin $(basename "$cu") of $name" -- "$nvcc" -arch=sm_90 -cubin -o "$work/k.cubin" "$cu"
      done
    else
      echo "SKIP: no nvcc at $nvcc: dumped kernels not compiled standalone"
    fi
  done
else
  echo "SKIP: a build without the CUDA kernel generator: no lowering or --dump-cuda checks"
fi

for arch in tesla fermi hopper; do
  for size in 1x1x16 16x1x1 2x4x8 64x32x16 1024x2x1 4096x4096x4096; do
    expect 0 "plan $size $arch" -- "$fft3d" plan --size "$size" --arch "$arch" -o "$work/p.yaml"
    expect 0 "the planned $size $arch plan validates" -- "$fft3d" validate "$work/p.yaml"
  done
done

# Real transforms on the CPU backend: R2C and C2R by size and by plan file, each checked against FFTW's fp64 r2c or
# c2r; the plan's kind decides the direction, and the other one is refused by name.
expect 0 "run r2c by size" -- "$fft3d" run --size 32x16x8 --transform r2c --arch tesla --backend cpu
contains out "transform r2c (forward): 32x16x8 reals -> 17x16x8 complex" "run names the real transform"
contains out "bytes     real volume" "run counts the real volume's bytes"
contains out "half spectrum" "run counts the half spectrum's bytes"
contains_match out '^error     relative L2 [0-9.e+-]+ \(bound [0-9.e+-]+\): pass' "r2c passes FFTW's check"
contains out "check     against FFTW's fp64 r2c" "run names the real oracle"
contains out "GFlops" "a checked real run reports its time"
expect 0 "run r2c --inverse (C2R) in place, fp32, scaled" -- "$fft3d" run --size 32x16x8 --transform r2c --inverse \
  --arch tesla --backend cpu --in-place --precision fp32 --scaling full
contains out "transform c2r (inverse): 17x16x8 complex -> 32x16x8 reals" "r2c --inverse runs C2R"
contains out "check     against FFTW's fp64 c2r" "C2R is checked against FFTW's c2r"
expect 0 "run --transform c2r" -- "$fft3d" run --size 64x8x4 --transform c2r --arch hopper --backend cpu
contains out "transform c2r (inverse)" "--transform c2r means r2c --inverse"
expect 0 "run r2c in place, fp32" -- "$fft3d" run --size 16x16x16 --transform r2c --backend cpu --in-place --precision fp32
for size in 128x128x128 256x128x128; do
  expect 0 "run the hopper r2c plan $size" -- "$fft3d" run "$src/plans/hopper/$size-r2c.yaml" --backend cpu --threads 2
  expect 0 "run the hopper c2r plan $size" -- "$fft3d" run "$src/plans/hopper/$size-c2r.yaml" --backend cpu --inverse \
    --threads 2
done
expect 0 "run r2c --size takes the hopper table's plan" -- "$fft3d" run --size 128x128x128 --transform r2c --backend cpu
contains out "128x128x128-r2c.yaml (the hopper table)" "a real size takes its table plan"
expect 0 "an odd NX runs r2c" -- "$fft3d" run --size 45x24x20 --transform r2c --backend cpu
contains out "45x24x20 reals -> 23x24x20 complex" "an odd NX keeps NX/2 + 1 = 23 columns"
expect 0 "an odd NX runs c2r in place" -- "$fft3d" run --size 45x24x20 --transform c2r --backend cpu --in-place
expect 0 "planning an odd NX" -- "$fft3d" plan --size 245x64x64 --transform r2c
expect 2 "a c2r plan run forward" -- "$fft3d" run "$src/plans/hopper/128x128x128-c2r.yaml" --backend cpu
contains err "is a c2r plan: it runs inverse only" "a c2r plan run forward is refused by its kind"
expect 2 "an r2c plan run inverse" -- "$fft3d" run "$src/plans/hopper/128x128x128-r2c.yaml" --backend cpu --inverse
contains err "is an r2c plan: it runs forward only" "an r2c plan run inverse is refused by its kind"
expect 2 "a c2c plan file with --transform r2c" -- "$fft3d" run "$src/plans/hopper/128x128x128.yaml" --transform r2c \
  --backend cpu
contains err "is a c2c plan, not the r2c transform asked for" "a plan file of another kind is named"
expect 2 "a run timed per kernel on the CPU backend" -- "$fft3d" run --size 32x16x8 --transform r2c --backend cpu \
  --per-kernel
contains err "--per-kernel times the CUDA backend's kernels" "--per-kernel is refused where no kernels run, not ignored"
expect 2 "a real run in digit-reversed order" -- "$fft3d" run --size 32x16x8 --transform r2c --backend cpu \
  --order digit-reversed
contains err "natural order only" "real transforms refuse digit-reversed order"
mkdir -p "$work/realplans/tesla"
cp "$src/plans/tesla/128x128x128.yaml" "$work/realplans/tesla/128x128x128-r2c.yaml"
expect 2 "a table file of another kind than its name" -- env FFT3D_PLANS_DIR="$work/realplans" "$fft3d" run \
  --size 128x128x128 --arch tesla --transform r2c --backend cpu
contains err "files this plan as r2c, but it is a c2c plan" "a misfiled table plan is named"
for kind in r2c c2r; do
  expect 0 "plan --transform $kind" -- "$fft3d" plan --size 64x32x16 --arch tesla --transform "$kind" -o "$work/$kind.yaml"
  expect 0 "the planned $kind plan validates" -- "$fft3d" validate "$work/$kind.yaml"
  contains_match "$kind.yaml" "$(echo "$kind" | tr a-z A-Z)\(X, 64\)" "the $kind plan holds its real step"
done
expect 3 "measured planning of an r2c plan without a GPU" -- "$fft3d" plan --size 64x64x64 --transform r2c --measure 2
contains_match err "--measure: (no CUDA device|this build has no CUDA backend)" "r2c measured planning needs a GPU"
expect 3 "measured planning of a c2r plan without a GPU" -- "$fft3d" plan --size 64x64x64 --transform c2r --measure 2
contains_match err "--measure: (no CUDA device|this build has no CUDA backend)" "c2r measured planning needs a GPU"
for kind in r2c c2r; do
  expect 2 "measured planning of $kind in place" -- "$fft3d" plan --size 64x64x64 --transform $kind --measure 2 \
    --in-place
  contains err "--measure --transform $kind times its candidates out of place" "$kind in place says why not"
  expect 2 "a GPU table of $kind plans in place" -- "$fft3d" table --measure 2 --sizes 64x64x64 --transform $kind \
    --in-place
done
expect 3 "a GPU table of c2r plans without a GPU" -- "$fft3d" table --measure 2 --sizes 64x64x64 --transform c2r \
  --out "$work/gpu-tables"
contains err "--measure: no CUDA device" "a c2r GPU table names why it cannot be measured"
expect 0 "explain a real plan" -- "$fft3d" explain "$src/plans/hopper/256x256x256-r2c.yaml" --bandwidth 3000
contains out "real step: R2C along X, 256 reals -> 129 frequencies per row" "explain shows the real step"
contains out "reals    67.1 MB real volume" "explain counts the real volume"
contains out "spectrum 67.6 MB half spectrum" "explain counts the half spectrum"
contains out "least    0.045 ms for one read of the reals and one write of the spectrum" "explain gives the real floor"
expect 0 "explain a c2r plan by size" -- "$fft3d" explain --size 256x256x256 --transform c2r --bandwidth 3000
contains out "real step: C2R along X, 129 frequencies -> 256 reals per row" "explain shows the C2R step"
expect 0 "table finds a real plan" -- "$fft3d" table --arch hopper --size 256x256x256 --transform c2r
contains out "256x256x256-c2r.yaml" "table --transform finds the c2r plan"
expect 0 "table lists the real plans" -- "$fft3d" table --arch hopper
contains out "(r2c)" "table marks the real plans' kind"

for seed in 1 2 3 4 5 6 7 8; do
  expect 0 "random plan $seed" -- "$random_plan" --seed "$seed" -o "$work/r$seed.yaml"
  expect 0 "run random plan $seed on the CPU" -- "$fft3d" run "$work/r$seed.yaml" --backend cpu
done

# Bad input fails fast and cleanly: a located or numbered message, an exit code below 128, no file half-written.
# expect_quick CODE SECONDS DESCRIPTION -- COMMAND...: as expect, and within SECONDS.
expect_quick() {
  local code="$1" seconds="$2" what="$3"; shift 4
  local start=$SECONDS
  expect "$code" "$what" -- timeout 60 "$@" || return 1
  checks=$((checks + 1))
  if [ $((SECONDS - start)) -gt "$seconds" ]; then
    echo "FAIL: $what: took $((SECONDS - start)) s, expected at most $seconds"; failures=$((failures + 1))
  fi
}
long="$(printf '%30000s' '')"
expect 2 "a size string of 30000 characters" -- "$fft3d" plan --size "${long}8x8x8x"
contains err "expected NXxNYxNZ" "a long size string is refused by the size parser"
expect 2 "a size of 30000 digits" -- "$fft3d" plan --size "$(printf '%030000d' 8)x8x8"
expect_quick 2 2 "a size over 2^58 elements" -- "$fft3d" run --size 1048576x1048576x524288 --backend cpu --arch tesla
contains err "2^58" "the size limit is named"
expect_quick 2 2 "planning a size over 2^58 elements" -- "$fft3d" plan --size 1048576x1048576x524288 --arch tesla
for size in 268435456x1x1 1x268435456x1 1x1x268435456; do
  expect_quick 2 2 "a 1D run of $size, over the 1D maximum" -- "$fft3d" run --size "$size"
  contains err "over the supported maximum of 2^27" "the 1D limit is named"
  expect_quick 2 2 "planning a 1D size $size over the maximum" -- "$fft3d" plan --size "$size"
  contains err "over the supported maximum of 2^27" "the 1D limit is named by plan"
done
expect_quick 3 2 "a run whose host memory cannot fit" -- "$fft3d" run --size 65536x65536x65536 --backend cpu
contains err "of host memory" "the host memory refusal gives the numbers"
expect_quick 3 2 "a run on any backend whose host memory cannot fit" -- "$fft3d" run --size 65536x65536x65536
expect_quick 3 2 "the largest size, whose memory must not overflow" -- "$fft3d" run --size 1048576x1048576x262144 --backend cpu --arch tesla
contains err "needs about" "the largest size is refused for its memory, not by an overflow"
for threads in 100000 -3; do
  expect 2 "--threads $threads" -- "$fft3d" run "$src/plans/tesla/128x128x128.yaml" --backend cpu --threads "$threads"
  contains err "--threads $threads: expected 0" "the thread bound is named"
done
expect 2 "--seed -1" -- "$fft3d" run "$src/plans/tesla/128x128x128.yaml" --backend cpu --seed -1
contains err "--seed '-1'" "a negative seed is refused"
expect 2 "--bandwidth inf" -- "$fft3d" explain "$src/plans/tesla/128x128x128.yaml" --bandwidth inf
expect 2 "table of an unknown arch" -- "$fft3d" table --arch nope
contains err "unknown arch 'nope'" "table names the unknown arch"
for arch in ../tesla /tmp "tesla/../hopper"; do
  expect 2 "an arch that is a path: $arch" -- "$fft3d" run --size 64x64x64 --arch "$arch" --backend cpu
  contains err "unknown arch" "an arch path is refused as an unknown arch"
done
expect 1 "a folder as a plan" -- "$fft3d" validate "$src/plans"
contains err "a directory, not a plan file" "a folder is named as a folder"
if [ -e /dev/zero ]; then
  expect_quick 1 2 "an endless plan file" -- "$fft3d" validate /dev/zero
  contains err "the largest plan file read" "an endless file is refused by the size limit"
fi
{ printf 'size: [8, 1, 1]\narch: tesla\nkernels:\n'; for i in $(seq 20000); do echo '  - "X(1, 8, 1, 8, no-tw)"'; done; } >"$work/many.yaml"
expect_quick 1 5 "a plan of 20000 kernels" -- "$fft3d" validate "$work/many.yaml"
printf 'size: [8, 8, 8]\nsize: [16, 16, 16]\narch: tesla\nkernels: []\n' >"$work/twice.yaml"
expect 1 "a duplicate key" -- "$fft3d" validate "$work/twice.yaml"
contains err "twice.yaml:2:1: error: duplicate key 'size'" "the second key is located"
if [ -e /dev/full ]; then
  expect 2 "plan -o /dev/full" -- "$fft3d" plan --size 64x64x64 -o /dev/full
  contains err "cannot write /dev/full" "a failed plan write is an error"
  checks=$((checks + 1))
  "$fft3d" plan --size 64x64x64 >/dev/full 2>"$work/err"; got=$?
  if [ "$got" -eq 0 ] || [ "$got" -ge 128 ]; then echo "FAIL: plan > /dev/full: exit $got"; failures=$((failures + 1)); fi
  contains err "cannot write to standard output" "a failed stdout is an error"
fi
expect 2 "plan -o into a missing folder" -- "$fft3d" plan --size 64x64x64 -o "$work/missing/p.yaml"
[ ! -e "$work/missing" ] || { echo "FAIL: a folder was created"; failures=$((failures + 1)); }
expect 0 "plan -o writes the whole file" -- "$fft3d" plan --size 64x64x64 -o "$work/whole.yaml"
expect 0 "the written plan validates" -- "$fft3d" validate "$work/whole.yaml"
[ "$(ls "$work" | grep -c '\.tmp\.')" -eq 0 ] || { echo "FAIL: temporary files left"; failures=$((failures + 1)); }
# /proc takes no new folder, not even from root.
expect 0 "run --size on the CPU with no writable cache folder" -- env HOME=/proc/fft3d-none FFT3D_CACHE_DIR= "$fft3d" run --size 64x64x32 --arch tesla --backend cpu
# A plan that validates can hold a tile over its profile's shared memory: explain says so (CUDA builds only).
printf 'size: [256, 256, 1]\narch: tesla\nkernels:\n  - "X(1, 256, 1, 256, no-tw), Y(1, 256, 1, 256, no-tw)"\n' >"$work/wide.yaml"
expect 0 "a legal plan with a wide tile validates" -- "$fft3d" validate "$work/wide.yaml"
if [ "$has_lowering" -eq 1 ]; then
  expect 1 "explain of a plan whose tile does not fit its profile" -- "$fft3d" explain "$work/wide.yaml"
  contains err "the plan is legal (fft3d validate accepts it) but does not fit the tesla profile" "explain says why"
  contains err "B of shared memory per block" "explain names the bytes"
fi

# fp64: plan writes the precision, explain lowers in it, a plan file's precision is read back, and a tile that fits
# only in fp32 is named with its bytes.
expect 0 "plan in fp64" -- "$fft3d" plan --size 96x96x96 --precision fp64 -o "$work/p64.yaml"
contains p64.yaml "precision: fp64" "an fp64 plan says so"
expect 0 "the fp64 plan validates" -- "$fft3d" validate "$work/p64.yaml"
expect 3 "measured planning in fp64 without a GPU" -- "$fft3d" plan --size 64x64x64 --precision fp64 --measure 2
contains_match err "--measure: (no CUDA device|this build has no CUDA backend)" "fp64 measured planning needs a GPU"
if [ "$has_lowering" -eq 1 ]; then
  expect 0 "explain an fp64 plan file" -- "$fft3d" explain "$work/p64.yaml"
  contains out "precision fp64: complex double values" "explain lowers a plan file's fp64"
  expect 0 "explain --precision fp64" -- "$fft3d" explain "$src/plans/hopper/128x128x128.yaml" --precision fp64
  contains out "fp64)" "explain reports fp64"
  contains out "all whole 256-byte segments" "fp64 X runs are 256-byte segments"
fi
expect 3 "cuda fp64 without a GPU" -- "$fft3d" run --size 64x64x64 --backend cuda --precision fp64
expect 3 "bench fp64 without a GPU" -- "$fft3d" bench --sizes 64x64x64 --precision fp64
expect 3 "bench r2c fp64 without a GPU" -- "$fft3d" bench --sizes 64x64x64 --transform r2c --precision fp64
contains err "fft3d bench: error:" "bench r2c fp64 names why it cannot run, as fp32 does"
expect 3 "bench r2c fp64 in place without a GPU" -- "$fft3d" bench --sizes 64x64x64 --transform r2c --in-place \
  --precision fp64
# Batches: every volume checked on the CPU; the batch written in a plan and shown by explain; bad batches refused.
expect 0 "run a batch on the CPU" -- "$fft3d" run --size 16x16x16 --batch 3 --backend cpu --precision fp32
contains out "worst of 3 volumes" "run reports every volume's check"
expect 0 "a batch plan" -- "$fft3d" plan --size 16x16x16 --batch 8 -o "$work/batch.yaml"
contains batch.yaml "batch: 8" "the plan file holds its batch"
expect 0 "explain of a batch plan" -- "$fft3d" explain "$work/batch.yaml"
contains out "batch    8 volumes" "explain shows the batch"
# Real batches: each volume against FFTW's r2c or c2r, packed, in place (padded rows) and out of place.
for real_run in "--transform r2c" "--transform r2c --in-place" "--transform c2r" "--transform c2r --in-place"; do
  # shellcheck disable=SC2086
  expect 0 "run a real batch on the CPU ($real_run)" -- "$fft3d" run --size 12x8x6 --batch 3 --backend cpu $real_run
  contains out "x 3 volumes" "a real batch run names its volumes ($real_run)"
  contains_match out "^error +relative L2 [0-9.e+-]+ \(bound [0-9.e+-]+\): pass" "a real batch passes ($real_run)"
  contains out "every volume (the worst one reported)" "a real batch checks every volume ($real_run)"
done
expect 2 "run with a batch of 0" -- "$fft3d" run --size 16x16x16 --batch 0 --backend cpu
expect 2 "plan with a batch of 0" -- "$fft3d" plan --size 16x16x16 --batch 0

echo "cli_test: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
