// fft3d device helpers of fp64 kernels (inlined into every generated kernel of precision fp64 in place of
// fft3d_complex.cuh, whose fp32 text stays as it is). Complex fp64 arithmetic on double2.

__device__ __forceinline__ double2 fft3d_add(double2 a, double2 b) { return make_double2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ double2 fft3d_sub(double2 a, double2 b) { return make_double2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ double2 fft3d_mul(double2 a, double2 b) {
  return make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// a * (-i): the trivial quarter-turn twiddle, no multiplication.
__device__ __forceinline__ double2 fft3d_mul_minus_i(double2 a) { return make_double2(a.y, -a.x); }
