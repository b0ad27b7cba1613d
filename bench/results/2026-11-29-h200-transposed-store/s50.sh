source mixprobe/env.sh
t 200 mixprobe/gpu_tests_b --gtest_filter='GpuAxesPlans.*:GpuSqueezedSizes*:GpuFp64Test.*:GpuBatchTest.ABatchThatTakes*' > $OUT/tests.txt 2>&1
tail -3 $OUT/tests.txt; grep -E "FAILED|Failure" $OUT/tests.txt | head -20
S=1048576x1x1,2097152x1x1,4194304x1x1,8388608x1x1
for mode in "" "--in-place" "--precision fp64"; do
  d=$OUT/ab$(echo $mode | tr -d ' -'); t 120 tools/ab_bench.sh --old-bin mixprobe/fft3d_a --new-bin mixprobe/fft3d_b --rounds 2 --out $d -- --buffer-pairs 1 --repeat 10 $mode --sizes $S > /dev/null 2>&1; echo "ab '$mode' rc=$?"; cat $d/compare.txt; rm -f $d/bench.log
done
