// Copy twins of tiles whose X run is 16, 8, 4 or 2 complex values (128, 64, 32, 16 bytes): does a tile that keeps
// a narrow X run, with the blocks holding the neighbouring runs of the same 128-byte line launched beside it
// (consecutive blocks, or one thread-block cluster), copy as fast as a tile of whole 128-byte runs?
// Each block loads its tile (16 values per thread, all in flight), stages it in shared memory (128 KB: one block
// per SM, like the engine's big tiles), and stores it. Median of 20 launches, CUDA events, out of place.
// Build: nvcc -O3 -arch=sm_90 -o narrow_runs narrow_runs.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e = (call);                                                          \
    if (e != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int threads = 1024;
constexpr int per_thread = 16;  // 16384 values = 128 KB per tile

struct Geometry {
  long long nx, ny;
  int log_cx, log_ty;  // tile: 2^log_cx X by 2^log_ty Y by (16384 >> (log_cx + log_ty)) Z
  long long tiles_x, tiles_y;
};

__device__ __forceinline__ long long offset_of(const Geometry& g, long long block, int e) {
  const long long tx = block % g.tiles_x, rest = block / g.tiles_x;
  const long long ty = rest % g.tiles_y, tz = rest / g.tiles_y;
  const int x = e & ((1 << g.log_cx) - 1);
  const int y = (e >> g.log_cx) & ((1 << g.log_ty) - 1);
  const int z = e >> (g.log_cx + g.log_ty);
  const long long cx = 1LL << g.log_cx, cy = 1LL << g.log_ty, cz = 16384LL >> (g.log_cx + g.log_ty);
  return (tx * cx + x) + g.nx * ((ty * cy + y) + g.ny * (tz * cz + z));
}

__global__ void __launch_bounds__(threads) tile_copy(const float2* __restrict__ in, float2* out, Geometry g) {
  extern __shared__ float2 tile[];
  float2 v[per_thread];
#pragma unroll
  for (int i = 0; i < per_thread; ++i) v[i] = in[offset_of(g, blockIdx.x, threadIdx.x + i * threads)];
#pragma unroll
  for (int i = 0; i < per_thread; ++i) tile[threadIdx.x + i * threads] = v[i];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    const int e = threadIdx.x + i * threads;
    out[offset_of(g, blockIdx.x, e)] = tile[e];
  }
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: narrow_runs NX NY NZ\n");
    return 2;
  }
  const long long nx = std::atoll(argv[1]), ny = std::atoll(argv[2]), nz = std::atoll(argv[3]);
  const long long n = nx * ny * nz;
  const size_t bytes = n * sizeof(float2);
  float2 *in, *out;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemset(in, 0, bytes));
  CHECK(cudaFuncSetAttribute(tile_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, 16384 * 8));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  auto time = [&](auto launch) {
    std::vector<float> ms;
    for (int r = 0; r < 23; ++r) {
      CHECK(cudaEventRecord(start));
      launch();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (r >= 3) ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    return median(ms);
  };
  const float memcpy_ms = time([&] { CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice)); });
  std::printf("volume %lldx%lldx%lld, %.3f GB each way; memcpy %.4f ms (%.0f GB/s)\n", nx, ny, nz, bytes / 1e9,
              memcpy_ms, 2 * bytes / memcpy_ms / 1e6);
  std::printf("%-26s %8s %9s %9s %8s\n", "tile (X run x Y x Z)", "cluster", "ms", "GB/s", "/memcpy");
  for (int log_cx = 4; log_cx >= 1; --log_cx)
    for (int log_ty = 0; log_ty <= 14 - log_cx; ++log_ty) {
      const long long cx = 1LL << log_cx, cy = 1LL << log_ty, cz = 16384LL >> (log_cx + log_ty);
      if (cy > ny || cz > nz) continue;
      // Only the shapes of the engine's line tiles: a whole Y line (Z planes behind it), or a whole Z line.
      const bool y_line = cy == std::min(ny, 16384LL >> log_cx) && cz >= 1;
      const bool z_line = cz == nz && cy >= 1;
      if (!y_line && !z_line) continue;
      Geometry g{nx, ny, log_cx, log_ty, nx / cx, ny / cy};
      const long long blocks = (nx / cx) * (ny / cy) * (nz / cz);
      for (int cluster : {1, int(16 / cx)}) {
        if (cluster == 1 && cx == 16 && false) continue;
        if (cluster > 1 && cx == 16) continue;
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(unsigned(blocks));
        config.blockDim = dim3(threads);
        config.dynamicSmemBytes = 16384 * 8;
        cudaLaunchAttribute attribute;
        attribute.id = cudaLaunchAttributeClusterDimension;
        attribute.val.clusterDim.x = cluster;
        attribute.val.clusterDim.y = 1;
        attribute.val.clusterDim.z = 1;
        config.attrs = &attribute;
        config.numAttrs = 1;
        const float ms = time([&] { CHECK(cudaLaunchKernelEx(&config, tile_copy, (const float2*)in, out, g)); });
        char name[64];
        std::snprintf(name, sizeof name, "%lldB x %lld x %lld", cx * 8, cy, cz);
        std::printf("%-26s %8d %9.4f %9.0f %8.3f\n", name, cluster, ms, 2 * bytes / ms / 1e6, memcpy_ms / ms);
      }
    }
  return 0;
}
