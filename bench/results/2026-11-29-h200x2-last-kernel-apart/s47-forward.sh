source mixprobe/env.sh
R() { local bin=$1; shift; echo "== $bin $*"; t 120 mixprobe/$bin run --gpus 2 --repeat 10 --check plane-waves "$@" 2>&1 | grep -E "^time|^error|^roundtrip|rror:|rc=|cufftXt" | head -8; }
t 300 mixprobe/gpu_tests_new --gtest_filter='Sizes/GpuMultiGpu.*:Sizes/GpuMultiGpuSmallChunks.*:Sizes/GpuMultiGpuFp64.*:GpuMultiGpuPeerStores.*:GpuMultiGpuBadInput.*:GpuBatchTest.ABatchWithItsOwn*' > $OUT/tests.txt 2>&1
tail -3 $OUT/tests.txt; grep -E "FAILED|Failure" $OUT/tests.txt | head -20
S=1024x1024x1024
{
for b in fft3d_old fft3d_new; do R $b --size $S --layout y_slabs --no-cufftxt; done
for b in fft3d_old fft3d_new; do R $b --size $S --layout y_slabs --inverse --no-cufftxt; done
for b in fft3d_old fft3d_new; do R $b --size $S --layout natural --no-cufftxt; done
for b in fft3d_old fft3d_new; do R $b --size $S --layout natural --inverse --no-cufftxt; done
for b in fft3d_old fft3d_new; do R $b --size $S --layout y_slabs --in-place --no-cufftxt; done
for b in fft3d_old fft3d_new; do R $b --size 512x512x512 --layout y_slabs --no-cufftxt; done
for b in fft3d_old fft3d_new; do R $b --size $S --layout y_slabs --precision fp64 --no-cufftxt; done
R fft3d_new --size $S --layout y_slabs
} 2>&1 | tee $OUT/ab.txt
