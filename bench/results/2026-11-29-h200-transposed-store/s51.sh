source mixprobe/env.sh
for b in fft3d_a fft3d_b; do echo "== $b"; t 60 mixprobe/$b bench --in-place --buffer-pairs 1 --repeat 10 --sizes 2097152x1x1,4194304x1x1,8388608x1x1 --out $OUT/ip_$b 2>&1 | grep -v "^ *$" | tail -8; done
t 100 mixprobe/gpu_tests_b --gtest_filter='GpuAxesPlans.OneD*' 2>&1 | grep -E "relative L2|PASSED|FAILED" | tail -12
