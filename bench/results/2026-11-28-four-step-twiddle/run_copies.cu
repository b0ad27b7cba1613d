// Probe: copy twins of a two-pass 1D FFT's access patterns with runs of G complex fp32 values.
// A: tile = G consecutive columns of all rows (rows of length R), loaded and stored at the same places.
// B: tile = G consecutive rows of length R, stored transposed (runs of G at stride rows).
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__); exit(1);}}while(0)
constexpr int T = 512;
template <int G> __global__ void colgroups(const float2* in, float2* out, int rows, int R) {
  extern __shared__ float2 s[];
  const int c0 = blockIdx.x * G;
  for (int i = threadIdx.x; i < rows * G; i += T) { int r = i / G, c = i % G; s[i] = in[(size_t)r * R + c0 + c]; }
  __syncthreads();
  for (int i = threadIdx.x; i < rows * G; i += T) { int r = i / G, c = i % G; out[(size_t)r * R + c0 + c] = s[i]; }
}
template <int G> __global__ void rowsT(const float2* in, float2* out, int rows, int R) {
  extern __shared__ float2 s[];
  const int pad = 8, r0 = blockIdx.x * G;
  for (int i = threadIdx.x; i < R * G; i += T) { int r = i / R, c = i % R; s[r * (R + pad) + c] = in[(size_t)(r0 + r) * R + c]; }
  __syncthreads();
  for (int j = threadIdx.x; j < R * G; j += T) { int c = j / G, r = j % G; out[(size_t)c * rows + r0 + r] = s[r * (R + pad) + c]; }
}
__global__ void plain(const float4* in, float4* out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) out[i] = in[i];
}
template <class F> float timeit(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  float best = 1e9;
  for (int round = 0; round < 5; ++round) {
    cudaEventRecord(a); for (int i = 0; i < 20; ++i) f(); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); ms /= 20; if (ms < best) best = ms;
  }
  return best;
}
template <int G> void run(float2* x, float2* y, int rows, int R, float floor_ms) {
  size_t smA = (size_t)rows * G * sizeof(float2), smB = (size_t)G * (R + 8) * sizeof(float2);
  if (smA <= 227 * 1024) {
    CK(cudaFuncSetAttribute(colgroups<G>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smA));
    float t = timeit([&] { colgroups<G><<<R / G, T, smA>>>(x, y, rows, R); });
    CK(cudaGetLastError());
    printf("  A cols  G=%2d (%3d B runs) tile %6zu B: %.4f ms  %.2f floors\n", G, G * 8, smA, t, t / floor_ms);
  }
  if (smB <= 227 * 1024) {
    CK(cudaFuncSetAttribute(rowsT<G>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smB));
    float t = timeit([&] { rowsT<G><<<rows / G, T, smB>>>(x, y, rows, R); });
    CK(cudaGetLastError());
    printf("  B rowsT G=%2d (%3d B runs) tile %6zu B: %.4f ms  %.2f floors\n", G, G * 8, smB, t, t / floor_ms);
  }
}
int main() {
  int shapes[][2] = {{1024, 1024}, {2048, 2048}, {4096, 4096}, {8192, 4096}, {4096, 8192}, {8192, 8192}};
  for (auto& sh : shapes) {
    int rows = sh[0], R = sh[1]; size_t n = (size_t)rows * R;
    float2 *x, *y; CK(cudaMalloc(&x, n * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMemset(x, 0, n * 8));
    float mc = timeit([&] { cudaMemcpyAsync(y, x, n * 8, cudaMemcpyDeviceToDevice); });
    float pk = timeit([&] { plain<<<132 * 8, 512>>>((const float4*)x, (float4*)y, n / 2); });
    printf("N=2^%d rows %d x R %d: memcpy %.4f ms (%.0f GB/s), plain copy %.4f ms\n", __builtin_ctzll(n), rows, R, mc, 2.0 * n * 8 / mc / 1e6, pk);
    run<1>(x, y, rows, R, mc); run<2>(x, y, rows, R, mc); run<4>(x, y, rows, R, mc);
    run<8>(x, y, rows, R, mc); run<16>(x, y, rows, R, mc);
    cudaFree(x); cudaFree(y);
  }
}
