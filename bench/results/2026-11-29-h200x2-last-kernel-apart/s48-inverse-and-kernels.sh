source mixprobe/env.sh
R() { local bin=$1; shift; echo "== $bin $*"; t 150 mixprobe/$bin run --gpus 2 --repeat 10 --no-cufftxt "$@" 2>&1 | grep -E "^time|^error|^roundtrip|rror:|rc=" | head -8; }
K() { echo "== one GPU $*"; t 60 mixprobe/fft3d_new run --repeat 10 --per-kernel "$@" 2>&1 | grep -v "^ *$" | tail -12; }
{
K --plan mixprobe/col1024.yaml
K --plan mixprobe/ypart1024.yaml
K --plan mixprobe/xpart1024.yaml
} 2>&1 | tee $OUT/kernels.txt
t 120 mixprobe/gpu_tests_new --gtest_filter='Sizes/GpuMultiGpuReal.*' > $OUT/tests-real.txt 2>&1; tail -2 $OUT/tests-real.txt
{
for b in fft3d_old fft3d_new; do R $b --size 512x512x512 --layout y_slabs --inverse; done
for b in fft3d_old fft3d_new; do R $b --size 512x512x512 --layout natural --inverse; done
for b in fft3d_old fft3d_new; do R $b --size 1024x1024x1024 --layout y_slabs --inverse; done
for b in fft3d_old fft3d_new; do R $b --size 1024x1024x1024 --layout natural --inverse; done
} 2>&1 | tee $OUT/ab-inverse.txt
