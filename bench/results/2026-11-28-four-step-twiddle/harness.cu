#include <cstdio>
#include <vector>
#include <string>
#include <cuda_runtime.h>
#include KFILE
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__); exit(1);}}while(0)
int main(int argc, char** argv) {
  const size_t n = 1ull << 24;
  float2 *x, *y; CK(cudaMalloc(&x, n * 8)); CK(cudaMalloc(&y, n * 8)); { std::vector<float2> h(n); unsigned s = 12345; for (auto& v : h) { s = s * 1664525u + 1013904223u; v.x = (s >> 8) * (1.0f / 16777216) - 0.5f; s = s * 1664525u + 1013904223u; v.y = (s >> 8) * (1.0f / 16777216) - 0.5f; } CK(cudaMemcpy(x, h.data(), n * 8, cudaMemcpyHostToDevice)); }
  const int smem = SMEM, grid = GRID, threads = THREADS;
  #ifdef KTAB
  fill_ktabs();
#endif
#ifdef POLY
  fill_poly();
#endif
  CK(cudaFuncSetAttribute(KNAME, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaLaunchConfig_t cfg = {}; cfg.gridDim = grid; cfg.blockDim = threads; cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1]; int na = 0;
#if CLUSTER > 1
  attr[na].id = cudaLaunchAttributeClusterDimension; attr[na].val.clusterDim.x = CLUSTER; attr[na].val.clusterDim.y = 1; attr[na].val.clusterDim.z = 1; ++na;
  CK(cudaFuncSetAttribute(KNAME, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
#endif
  cfg.attrs = attr; cfg.numAttrs = na;
  auto launch = [&] { CK(cudaLaunchKernelEx(&cfg, KNAME, (const float2*)x, y, 1.0f, 0)); };
  cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, KNAME);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 5; ++i) launch();
  CK(cudaDeviceSynchronize());
  float best = 1e9, sum = 0;
  for (int r = 0; r < 7; ++r) {
    cudaEventRecord(a); for (int i = 0; i < 20; ++i) launch(); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); ms /= 20; best = ms < best ? ms : best; sum += ms;
  }
  if (getenv("DUMP")) { std::vector<float2> h(n); launch(); CK(cudaMemcpy(h.data(), y, n * 8, cudaMemcpyDeviceToHost)); FILE* f = fopen((std::string("/tmp/o_") + argv[1]).c_str(), "wb"); fwrite(h.data(), 8, n, f); fclose(f); }
  printf("%-28s regs %3d local %4zu B: best %.4f ms mean %.4f ms\n", argv[1], fa.numRegs, fa.localSizeBytes, best, sum / 7);
}
