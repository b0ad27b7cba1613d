#include <cmath>
__device__ float2 ktab_8192[16][1024], ktab_1024[16][1024], ktab_128[16][1024], ktab_2048[16][1024], ktab_256[16][1024];
static void fill_one(const void* sym, int n) {
  static float2 h[16][1024];
  for (int k = 0; k < 16; ++k) for (int j = 0; j < 1024; ++j) { double a = -2 * M_PI * ((long long)j * k % n) / n; h[k][j] = make_float2((float)cos(a), (float)sin(a)); }
  cudaMemcpyToSymbol(sym, h, sizeof h);
}
static void fill_ktabs() { fill_one(ktab_8192, 8192); fill_one(ktab_1024, 1024); fill_one(ktab_128, 128); fill_one(ktab_2048, 2048); fill_one(ktab_256, 256); }
__device__ __forceinline__ float2 tw_sincos(unsigned e) {
  int s = (int)(e << 8) >> 8;  // e mod 2^24 as a signed value in [-2^23, 2^23)
  float sn, cs; __sincosf((float)s * -3.7450702e-07f, &sn, &cs); return make_float2(cs, sn);  // 2*pi/2^24
}
__device__ __forceinline__ float2 tw_sincospi(unsigned e) {
  int s = (int)(e << 8) >> 8;
  float sn, cs; sincospif((float)s * -1.1920929e-07f, &sn, &cs); return make_float2(cs, sn);  // 2/2^24
}
