source mixprobe/env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
t 280 mixprobe/gpu_tests_b --gtest_filter='GpuAxesPlans.*:GpuBatchTest.*:GpuSqueezedSizes*:GpuTransformErrors*:GpuFp64Test.*' > $OUT/tests.txt 2>&1
tail -3 $OUT/tests.txt; grep -E "FAILED|Failure" $OUT/tests.txt | head -20
S=1048576x1x1,2097152x1x1,4194304x1x1,8388608x1x1,16777216x1x1
t 200 tools/ab_bench.sh --old-bin mixprobe/fft3d_a --new-bin mixprobe/fft3d_b --rounds 2 --out $OUT/ab -- --buffer-pairs 1 --repeat 10 --sizes $S > /dev/null 2>&1; echo "ab rc=$?"
cat $OUT/ab/compare.txt
t 100 tools/ab_bench.sh --old-bin mixprobe/fft3d_a --new-bin mixprobe/fft3d_b --rounds 1 --out $OUT/abip -- --buffer-pairs 1 --repeat 10 --in-place --sizes $S > /dev/null 2>&1; echo "ab in place rc=$?"
cat $OUT/abip/compare.txt
