#!/usr/bin/env bash
# Late form A/B: C2R in place (three-pass file vs two-pass late form), C2R out of place (old vs new binary),
# run --size in place where the planner's C2C choice moved (old vs new binary). Then GPU real-plan suites.
source mixprobe/env.sh
B=build-static/fft3d; O=mixprobe/fft3d_old; G=plans/hopper/gpus/nvidia-h100-80gb-hbm3
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/r/gpu.txt
S="512x512x512 256x512x512 128x512x1024 256x512x1024 128x1024x1024 128x512x512 512x256x256 1024x256x256"
pick() { grep -E "^error|^time|^cuFFT|^passes|^speed|rror:" ; }
PART=${1:-a}
if [ $PART = a ]; then
for round in 1 2; do
  for s in $S; do
    for f in plans/hopper/$s-c2r-in-place.yaml plans/hopper/$s-c2r.yaml; do
      echo "== A r$round $f"; $B run $f --backend cuda --inverse --in-place --repeat 20 2>&1 | pick
    done
  done
  for f in $G/128x512x1024-c2r.yaml $G/256x512x512-c2r.yaml; do
    echo "== A r$round $f"; $B run $f --backend cuda --inverse --in-place --repeat 20 2>&1 | pick
  done
done > $OUT/r/a.txt 2>&1
timeout 200 build-static/kernels_gpu_tests --gtest_filter='GpuTableRealPlans.*:RealClosedForm.*' > $OUT/r/tests.txt 2>&1
tail -3 $OUT/r/tests.txt; grep -E "FAILED" $OUT/r/tests.txt | head
cat $OUT/r/a.txt
exit 0
fi
for round in 1 2; do
  for s in $S; do
    for bin in $O $B; do
      echo "== B r$round $bin $s"; $bin run plans/hopper/$s-c2r.yaml --backend cuda --inverse --repeat 20 2>&1 | pick
    done
  done
done > $OUT/r/b.txt 2>&1
for round in 1 2; do
  for sp in "2048x2048x1 fp32" "2048x2048x1 fp64" "1024x1024x1 fp64" "512x512x64 fp32" "1024x512x64 fp32" "2048x128x128 fp64"; do
    set -- $sp
    for bin in $O $B; do
      echo "== D r$round $bin $1 $2"; $bin run --size $1 --precision $2 --backend cuda --in-place --repeat 20 2>&1 | grep -E "^plan|^error|^time|^cuFFT|rror:"
    done
  done
done > $OUT/r/d.txt 2>&1
build-static/fft3d bench --transform r2c --in-place --repeat 10 --buffer-pairs 1 --out $OUT/r/inplace > $OUT/r/bench_inplace.txt 2>&1
cat $OUT/r/b.txt $OUT/r/d.txt $OUT/r/bench_inplace.txt
