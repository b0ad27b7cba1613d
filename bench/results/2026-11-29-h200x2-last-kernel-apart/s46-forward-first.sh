source mixprobe/env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee $OUT/gpus.txt
nvidia-smi topo -m | head -5 >> $OUT/gpus.txt
R() { local bin=$1; shift; echo "== $bin $*"; t 150 mixprobe/$bin run --gpus 2 --repeat 10 --no-cufftxt "$@" 2>&1 | grep -E "median|checked|error|Error|rel|rc=|ms" | head -12; }
# correctness first: G=1 and G=2 through the changed schedule, and the batch strides
t 330 mixprobe/gpu_tests_new --gtest_filter='Sizes/GpuMultiGpu.*:Sizes/GpuMultiGpuSmallChunks.*:Sizes/GpuMultiGpuFp64.*:GpuBatchTest.ABatchWithItsOwn*' > $OUT/tests.txt 2>&1
tail -3 $OUT/tests.txt; grep -E "FAILED|Failure" $OUT/tests.txt | head -20
for r in 1 2; do
  for b in fft3d_old fft3d_new; do R $b --size 1024x1024x1024 --layout y_slabs; done
done 2>&1 | tee $OUT/ab1024.txt
