#include <cmath>
// W_N^e, N = 2^24, forward sign: a table entry for e's high bits times a short series for the low bits' angle.
__device__ float2 hi256[256];
static void fill_poly() {
  static float2 h[256];
  for (int i = 0; i < 256; ++i) { double a = -2 * M_PI * i / 256; h[i] = make_float2((float)cos(a), (float)sin(a)); }
  cudaMemcpyToSymbol(hi256, h, sizeof h);
}
__device__ __forceinline__ float2 series_small(float t) {  // exp(-i t), |t| < 2e-3: cos 1 - t^2/2, sin t - t^3/6
  const float t2 = t * t;
  return make_float2(fmaf(-0.5f, t2, 1.0f), -t * fmaf(t2, -1.0f / 6, 1.0f));
}
__device__ __forceinline__ float2 series_mid(float t) {  // exp(-i t), |t| < 0.025
  const float t2 = t * t;
  const float c = fmaf(t2, fmaf(t2, 1.0f / 24, -0.5f), 1.0f);
  const float s = t * fmaf(t2, fmaf(t2, 1.0f / 120, -1.0f / 6), 1.0f);
  return make_float2(c, -s);
}
constexpr float two_pi_over_n = 3.7450702e-07f;  // 2*pi / 2^24
__device__ __forceinline__ float2 tw_polyA(unsigned e) {
  e &= 16777215u;
  return fft3d_mul(__ldg(&fft3d_twiddles_16777216_hi[e >> 12]), series_small((float)(e & 4095u) * two_pi_over_n));
}
__device__ __forceinline__ float2 tw_polyB(unsigned e) {
  e &= 16777215u;
  return fft3d_mul(__ldg(&hi256[e >> 16]), series_mid((float)(e & 65535u) * two_pi_over_n));
}
