#!/usr/bin/env bash
# tools/ab_bench.sh and tools/ab_compare.py without a GPU: a stand-in `fft3d` writes a bench.csv whose fft3d time
# comes from its environment, so the new side's 0.4 ms against the old side's 0.5 must read 0.800 in every round;
# a side whose bench fails stops the A/B with a non-zero exit; rounds that measured other sizes are refused.
set -uo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$work/fft3d" <<'FAKE'
#!/usr/bin/env bash
out=""; while [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done
[ -n "${FAKE_FAIL:-}" ] && { echo "bench failed" >&2; exit 3; }
mkdir -p "$out"
header="nx,ny,nz,transform,plan,passes,checked,fft3d_rel_l2,cufft_rel_l2,fft3d_ms,fft3d_min_ms,fft3d_max_ms,cufft_ms"
header+=",cufft_min_ms,cufft_max_ms,speedup,fft3d_gflops,cufft_gflops,fft3d_gbs,fft3d_volume_gbs,cufft_volume_gbs"
header+=",memcpy_gbs,fft3d_pass_equivalents,cufft_pass_equivalents,gpu,order,placement,fft3d_batch,cufft_batch"
header+=",fft3d_enqueue_us,cufft_enqueue_us,buffer_pairs,fft3d_pair_spread,cufft_pair_spread,sm_clock_mhz"
header+=",memory_clock_mhz,clock_event_reasons,precision"
row="${FAKE_NX:-256},256,256,c2c,\"p\",2,1,1e-7,1e-7,${FAKE_MS:-0.5},0,0,0.6,0,0,1,1,1,1,1,1,1,1,1,\"G\",natural"
row+=",\"out of place\",1,1,1,1,1,0,0,1980,3201,\"none\",fp32"
printf '%s\n%s\n' "$header" "$row" > "$out/bench.csv"
FAKE
chmod +x "$work/fft3d"

"$src/tools/ab_bench.sh" --old-bin "$work/fft3d" --new-bin "$work/fft3d" --new-env FAKE_MS=0.4 --rounds 2 \
  --out "$work/ab" -- --sizes 256x256x256 > "$work/stdout" || fail "the A/B exited $?"
for f in old-1.csv new-1.csv old-2.csv new-2.csv bench.log compare.txt; do [ -f "$work/ab/$f" ] || fail "no $f"; done
compare="$(cat "$work/ab/compare.txt")"
[ "$(grep -c '0.4000   0.800     1.000' <<< "$compare")" = 1 ] || fail "compare.txt: $compare"
[ "$(grep -o '0.800' <<< "$compare" | wc -l)" = 2 ] || fail "not one ratio a round: $compare"

"$src/tools/ab_bench.sh" --old-bin "$work/fft3d" --new-bin "$work/fft3d" --new-env FAKE_FAIL=1 --rounds 1 \
  --out "$work/failed" -- --sizes 256x256x256 2> "$work/stderr" && fail "a failed bench passed"
grep -q "new side: bench failed (exit 3)" "$work/stderr" || fail "stderr: $(cat "$work/stderr")"

"$src/tools/ab_bench.sh" --old-bin "$work/fft3d" --new-bin "$work/fft3d" --out "$work/same" -- x 2> /dev/null
[ $? = 2 ] || fail "two identical sides were not refused"

cp "$work/ab/old-1.csv" "$work/ab/old-2.csv"
FAKE_NX=512 "$work/fft3d" --out "$work/other" && cp "$work/other/bench.csv" "$work/ab/new-2.csv"
python3 "$src/tools/ab_compare.py" "$work/ab" > /dev/null 2>&1
[ $? = 2 ] || fail "rounds of other sizes were compared"
echo "ab_bench: pass"
