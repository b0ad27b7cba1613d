source mixprobe/env.sh
S=1048576x1x1,2097152x1x1,4194304x1x1,8388608x1x1,16777216x1x1,33554432x1x1,67108864x1x1,134217728x1x1
t 200 mixprobe/fft3d_c bench --buffer-pairs 1 --repeat 10 --sizes $S --out $OUT/b1d 2>&1 | grep -E "x1x1|geometric|mean" | head -20
