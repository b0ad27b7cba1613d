// The link's best rate between GPU 0 and GPU 1, both sending at once: copy engines (cudaMemcpyPeerAsync), an SM
// kernel storing through peer pointers, and both together (half each). A probe for bench/NOTES.md ("1024³ on 2 GPUs
// at 7 ms"), outside the build; it leaves the tree once measured (its numbers go to docs/performance.md).
//   nvcc -O2 -arch=sm_90 -o link_rate bench/probes/link_rate.cu && ./link_rate [MiB each way, default 2048]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                           \
  do {                                                                                     \
    cudaError_t e = (x);                                                                   \
    if (e != cudaSuccess) {                                                                \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));        \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

__global__ void store_to_peer(const float4* src, float4* dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

struct Side {
  float4* src = nullptr;
  float4* dst = nullptr;  // on the other GPU
  cudaStream_t ce = nullptr, sm = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  int sms = 0;
};

int main(int argc, char** argv) {
  const size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) << 20 : size_t{2048} << 20;
  const size_t n = bytes / sizeof(float4);
  Side s[2];
  for (int g = 0; g < 2; ++g) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CHECK(cudaMalloc(&s[g].src, bytes));
    CHECK(cudaMemset(s[g].src, 1, bytes));
    CHECK(cudaStreamCreateWithFlags(&s[g].ce, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s[g].sm, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&s[g].start));
    CHECK(cudaEventCreate(&s[g].stop));
    CHECK(cudaDeviceGetAttribute(&s[g].sms, cudaDevAttrMultiProcessorCount, g));
  }
  for (int g = 0; g < 2; ++g) {
    CHECK(cudaSetDevice(1 - g));
    CHECK(cudaMalloc(&s[g].dst, bytes));  // g's destination lives on the other GPU
  }
  // mode 0: copy engines; 1: SM stores; 2: half each, on two streams.
  const char* names[] = {"copy engines", "SM stores", "both, half each"};
  for (int mode = 0; mode < 3; ++mode) {
    for (int blocks_per_sm : {1, 2, 4}) {
      if (mode == 0 && blocks_per_sm > 1) continue;
      float best = 1e30f;
      for (int rep = 0; rep < 6; ++rep) {
        for (int g = 0; g < 2; ++g) {
          CHECK(cudaSetDevice(g));
          CHECK(cudaDeviceSynchronize());
        }
        for (int g = 0; g < 2; ++g) {
          CHECK(cudaSetDevice(g));
          CHECK(cudaEventRecord(s[g].start, s[g].ce));
          CHECK(cudaStreamWaitEvent(s[g].sm, s[g].start, 0));
          const size_t ce_n = mode == 0 ? n : mode == 1 ? 0 : n / 2;
          if (ce_n > 0)
            CHECK(cudaMemcpyPeerAsync(s[g].dst, 1 - g, s[g].src, g, ce_n * sizeof(float4), s[g].ce));
          if (ce_n < n)
            store_to_peer<<<s[g].sms * blocks_per_sm, 1024, 0, s[g].sm>>>(s[g].src + ce_n, s[g].dst + ce_n,
                                                                         n - ce_n);
          CHECK(cudaGetLastError());
          cudaEvent_t sm_done;
          CHECK(cudaEventCreateWithFlags(&sm_done, cudaEventDisableTiming));
          CHECK(cudaEventRecord(sm_done, s[g].sm));
          CHECK(cudaStreamWaitEvent(s[g].ce, sm_done, 0));
          CHECK(cudaEventRecord(s[g].stop, s[g].ce));
          CHECK(cudaEventDestroy(sm_done));
        }
        float slowest = 0;
        for (int g = 0; g < 2; ++g) {
          CHECK(cudaSetDevice(g));
          CHECK(cudaEventSynchronize(s[g].stop));
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, s[g].start, s[g].stop));
          slowest = ms > slowest ? ms : slowest;
        }
        if (rep > 0 && slowest < best) best = slowest;
      }
      std::printf("%-16s blocks/SM %d: %.3f ms for %zu MiB each way, %.1f GB/s each way\n", names[mode],
                  mode == 0 ? 0 : blocks_per_sm, best, bytes >> 20, bytes / (best * 1e6));
    }
  }
  return 0;
}
