// fft3d device helpers (inlined into every generated kernel).
// Complex fp32 arithmetic on float2. (Twiddles come from per-kernel tables computed in fp64 by the emitter.)

__device__ __forceinline__ float2 fft3d_add(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 fft3d_sub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 fft3d_mul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// a * (-i): the trivial quarter-turn twiddle, no multiplication.
__device__ __forceinline__ float2 fft3d_mul_minus_i(float2 a) { return make_float2(a.y, -a.x); }

