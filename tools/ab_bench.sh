#!/usr/bin/env bash
# An A/B of `fft3d bench` in one machine session (docs/performance.md, "Method"): the old and the new side
# alternated, old first, for ROUNDS rounds, then tools/ab_compare.py's table (each round's new/old ratio, with
# cuFFT's as the control). A side is a binary, an environment (a probe switch, FFT3D_PLANS_DIR for a table), or both.
#
#   tools/ab_bench.sh --old-bin mixprobe/fft3d_old --rounds 2 --out $OUT/ab -- --transform r2c --sizes 256x128x128
#   tools/ab_bench.sh --new-env FFT3D_PLANS_DIR=/tmp/plans2 --out $OUT/ab -- --sizes 512x512x512
#
# Writes DIR/old-<round>.csv and DIR/new-<round>.csv (each bench's bench.csv), DIR/bench.log (every bench's report,
# in order) and DIR/compare.txt: six files for two rounds, within what the device machine returns.
set -uo pipefail
usage() {
  echo "usage: ab_bench.sh [--old-bin B] [--new-bin B] [--old-env 'K=V ...'] [--new-env 'K=V ...'] [--rounds N]" \
       "--out DIR -- BENCH_ARGS..." >&2
  exit 2
}
here="$(cd "$(dirname "$0")" && pwd)"
old_bin=build-static/fft3d new_bin=build-static/fft3d old_env="" new_env="" rounds=2 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --old-bin) old_bin=$2; shift 2 ;;
    --new-bin) new_bin=$2; shift 2 ;;
    --old-env) old_env=$2; shift 2 ;;
    --new-env) new_env=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$out" ] && [ "$rounds" -ge 1 ] 2>/dev/null || usage
if [ "$old_bin" = "$new_bin" ] && [ "$old_env" = "$new_env" ]; then
  echo "ab_bench.sh: the two sides are the same" >&2
  exit 2
fi
mkdir -p "$out"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
status=0
for round in $(seq 1 "$rounds"); do
  for side in old new; do
    if [ $side = old ]; then bin=$old_bin; vars=$old_env; else bin=$new_bin; vars=$new_env; fi
    echo "== round $round, $side: ${vars:+$vars }$bin bench $*" >> "$out/bench.log"
    # shellcheck disable=SC2086  # vars is a list of K=V words
    env $vars "$bin" bench "$@" --out "$work/$side-$round" >> "$out/bench.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || [ ! -f "$work/$side-$round/bench.csv" ]; then
      echo "ab_bench.sh: round $round, $side side: bench failed (exit $rc); see $out/bench.log" >&2
      status=1
      continue
    fi
    cp "$work/$side-$round/bench.csv" "$out/$side-$round.csv"
  done
done
[ $status -eq 0 ] || exit $status
python3 "$here/ab_compare.py" "$out" | tee "$out/compare.txt"
