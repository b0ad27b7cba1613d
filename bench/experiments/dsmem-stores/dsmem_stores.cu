// The first pass of a tile spread over a cluster of P blocks (the second kernel of the hopper Z splits): each block
// loads 1/P of the tile's radix-8 butterflies from global memory and writes their outputs into the part that holds
// them, (P-1)/P of them in other blocks' shared memory; after a cluster barrier each block stores its own part.
// Which costs: the remote stores' instruction count (scalar 4-byte st.shared::cluster, as generated now, against
// 8- and 16-byte vector stores), or the bytes crossing between SMs? The copy twin (each block loads and stores
// only its own part) is the floor. No arithmetic: the butterfly outputs are its inputs. Median of 20, events.
// Build: nvcc -O3 -arch=sm_90 -o dsmem_stores dsmem_stores.cu ; run: dsmem_stores P   (P = 2, 4, 8)
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

constexpr unsigned part_words = 16384;  // values per block: re and im planes of 64 KB each

struct Geometry {
  unsigned parts, log_parts;  // P blocks per tile
  unsigned ny;                // tile: 16 X by (P * 128) Y (the whole line) by 8 Z; volume 128 X by ny by nz
};

// Tile element e (X bits 0-3, Y bits 4.., Z top 3 bits) of tile `tile` in global memory.
__device__ __forceinline__ long long global_of(const Geometry& g, unsigned long long tile, unsigned e) {
  const unsigned log_y = 7 + g.log_parts;
  const unsigned x = e & 15u, y = (e >> 4) & ((1u << log_y) - 1), z = e >> (4 + log_y);
  const unsigned long long tx = tile & 7ull, tz = tile >> 3;
  return (long long)(tx * 16 + x) + 128LL * ((long long)y + (long long)g.ny * (long long)(tz * 8 + z));
}

__device__ __forceinline__ unsigned remote(const float* array, unsigned word, unsigned rank) {
  unsigned address;
  asm("mapa.shared::cluster.u32 %0, %1, %2;"
      : "=r"(address)
      : "r"((unsigned)__cvta_generic_to_shared(array + word)), "r"(rank));
  return address;
}
__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

// Each block stores its own part to global memory.
__device__ __forceinline__ void store_part(const Geometry& g, const float* re, const float* im, float2* out,
                                           unsigned long long tile, unsigned part) {
  for (unsigned w = threadIdx.x; w < part_words; w += blockDim.x)
    out[global_of(g, tile, part * part_words + w)] = make_float2(re[w], im[w]);
}

// The twin: each block loads its own part and stores it.
__global__ void __launch_bounds__(1024) twin(const float2* __restrict__ in, float2* out, Geometry g) {
  extern __shared__ float shared[];
  float* re = shared;
  float* im = shared + part_words;
  const unsigned part = blockIdx.x & (g.parts - 1);
  const unsigned long long tile = blockIdx.x >> g.log_parts;
  float2 v[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) v[i] = in[global_of(g, tile, part * part_words + threadIdx.x + i * 1024u)];
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    re[threadIdx.x + i * 1024u] = v[i].x;
    im[threadIdx.x + i * 1024u] = v[i].y;
  }
  __syncthreads();
  store_part(g, re, im, out, tile, part);
}

// W = 4 (512 threads): each thread takes W butterflies at consecutive X, loads their inputs as one 16- or
// 32-byte run, and stores each output's re and im as one W-word vector (st.shared::cluster.v2/.v4.f32).
template <int W>
__global__ void __launch_bounds__(2048 / W) vector_stores(const float2* __restrict__ in, float2* out, Geometry g) {
  extern __shared__ float shared[];
  float* re = shared;
  float* im = shared + part_words;
  const unsigned part = blockIdx.x & (g.parts - 1);
  const unsigned long long tile = blockIdx.x >> g.log_parts;
  const unsigned eighth = g.parts * part_words / 8;
  cluster_barrier();
  const unsigned base = part * 2048u + threadIdx.x * W;
  float2 v[8][W];
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const long long at = global_of(g, tile, base + k * eighth);
    if (W == 2) {
      const float4 pair = *reinterpret_cast<const float4*>(in + at);
      v[k][0] = make_float2(pair.x, pair.y);
      v[k][1] = make_float2(pair.z, pair.w);
    } else {
#pragma unroll
      for (int j = 0; j < W; j += 2) {
        const float4 pair = *reinterpret_cast<const float4*>(in + at + j);
        v[k][j] = make_float2(pair.x, pair.y);
        v[k][j + 1] = make_float2(pair.z, pair.w);
      }
    }
  }
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const unsigned e = base + k * eighth;
    const unsigned owner = e >> 14, word = e & (part_words - 1);
    if (W == 2) {
      asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(remote(re, word, owner)), "f"(v[k][0].x),
                   "f"(v[k][1].x)
                   : "memory");
      asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(remote(im, word, owner)), "f"(v[k][0].y),
                   "f"(v[k][1].y)
                   : "memory");
    } else {
      asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(remote(re, word, owner)),
                   "f"(v[k][0].x), "f"(v[k][1].x), "f"(v[k][2].x), "f"(v[k][3].x)
                   : "memory");
      asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(remote(im, word, owner)),
                   "f"(v[k][0].y), "f"(v[k][1].y), "f"(v[k][2].y), "f"(v[k][3].y)
                   : "memory");
    }
  }
  cluster_barrier();
  store_part(g, re, im, out, tile, part);
}


// Attribution: W = 1 or 2 butterflies per thread at consecutive X (8- or 16-byte global loads); stores scalar
// (vector = false: re and im of each output, 4 bytes each) or as W-word vectors; the own part through plain
// st.shared (local_plain) or through st.shared::cluster like the rest.
template <int W, bool vector, bool local_plain, bool wide_loads = true>
__global__ void __launch_bounds__(1024) first_pass(const float2* __restrict__ in, float2* out, Geometry g) {
  extern __shared__ float shared[];
  float* re = shared;
  float* im = shared + part_words;
  const unsigned part = blockIdx.x & (g.parts - 1);
  const unsigned long long tile = blockIdx.x >> g.log_parts;
  const unsigned eighth = g.parts * part_words / 8;
  cluster_barrier();
  float2 v[2 / W][8][W];
#pragma unroll
  for (int it = 0; it < 2 / W; ++it) {
    const unsigned base = part * 2048u + (threadIdx.x + it * 1024u) * W;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const long long at = global_of(g, tile, base + k * eighth);
      if (W == 2 && wide_loads) {
        const float4 pair = *reinterpret_cast<const float4*>(in + at);
        v[it][k][0] = make_float2(pair.x, pair.y);
        v[it][k][W - 1] = make_float2(pair.z, pair.w);
      } else {
#pragma unroll
        for (int j = 0; j < W; ++j) v[it][k][j] = in[at + j];
      }
    }
  }
#pragma unroll
  for (int it = 0; it < 2 / W; ++it) {
    const unsigned base = part * 2048u + (threadIdx.x + it * 1024u) * W;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const unsigned e = base + k * eighth;
      const unsigned owner = e >> 14, word = e & (part_words - 1);
      if (local_plain && owner == part) {
#pragma unroll
        for (int j = 0; j < W; ++j) {
          re[word + j] = v[it][k][j].x;
          im[word + j] = v[it][k][j].y;
        }
      } else if (vector && W == 2) {
        asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(remote(re, word, owner)), "f"(v[it][k][0].x),
                     "f"(v[it][k][W - 1].x)
                     : "memory");
        asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(remote(im, word, owner)), "f"(v[it][k][0].y),
                     "f"(v[it][k][W - 1].y)
                     : "memory");
      } else {
#pragma unroll
        for (int j = 0; j < W; ++j) {
          asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(remote(re, word + j, owner)), "f"(v[it][k][j].x)
                       : "memory");
          asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(remote(im, word + j, owner)), "f"(v[it][k][j].y)
                       : "memory");
        }
      }
    }
  }
  cluster_barrier();
  store_part(g, re, im, out, tile, part);
}

// The twin with 16-byte loads: each thread loads its own part's values two at a time.
__global__ void __launch_bounds__(1024) twin16(const float2* __restrict__ in, float2* out, Geometry g) {
  extern __shared__ float shared[];
  float* re = shared;
  float* im = shared + part_words;
  const unsigned part = blockIdx.x & (g.parts - 1);
  const unsigned long long tile = blockIdx.x >> g.log_parts;
  float4 v[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    v[i] = *reinterpret_cast<const float4*>(in + global_of(g, tile, part * part_words + 2 * (threadIdx.x + i * 1024u)));
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const unsigned w = 2 * (threadIdx.x + i * 1024u);
    re[w] = v[i].x; im[w] = v[i].y; re[w + 1] = v[i].z; im[w + 1] = v[i].w;
  }
  __syncthreads();
  store_part(g, re, im, out, tile, part);
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const unsigned parts = argc > 1 ? unsigned(std::atoi(argv[1])) : 4;
  unsigned log_parts = 0;
  while ((1u << log_parts) < parts) ++log_parts;
  const unsigned ny = parts * 128;
  const long long n = 1LL << 27;  // 1 GiB of complex fp32
  const long long nz = n / (128LL * ny);
  const size_t bytes = n * sizeof(float2);
  Geometry g{parts, log_parts, ny};
  float2 *in, *out;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  {
    std::vector<float2> host(n);
    for (long long i = 0; i < n; ++i) host[i] = make_float2(float(i % 1000003), float(i % 999983));
    CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  }
  const unsigned blocks = unsigned(n / part_words);
  const size_t shared_bytes = 2 * part_words * sizeof(float);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  auto time = [&](auto launch) {
    std::vector<float> ms;
    for (int r = 0; r < 23; ++r) {
      CHECK(cudaMemset(out, 0xff, bytes));
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
  // Every variant is a copy: its output must equal its input.
  auto check = [&](const char* name) {
    std::vector<float2> a(n), b(n);
    CHECK(cudaMemcpy(a.data(), in, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), out, bytes, cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; ++i)
      if (a[i].x != b[i].x || a[i].y != b[i].y) {
        std::printf("%s: WRONG at %lld\n", name, i);
        std::exit(1);
      }
  };
  const float memcpy_ms = time([&] { CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice)); });
  std::printf("tile 16 x %u x 8 spread over %u blocks; volume 128x%ux%lld; memcpy %.4f ms\n", ny, parts, ny, nz,
              memcpy_ms);
  auto run = [&](const char* name, auto kernel, unsigned threads) {
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)));
    if (parts > 8) CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = shared_bytes;
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = parts;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    const float ms = time([&] { CHECK(cudaLaunchKernelEx(&config, kernel, (const float2*)in, out, g)); });
    check(name);
    std::printf("%-44s %8.4f ms  %.3f of memcpy\n", name, ms, memcpy_ms / ms);
  };
  run("twin, 8-byte loads", twin, 1024);
  run("twin, 16-byte loads", twin16, 1024);
  run("8B loads, scalar cluster stores (as generated)", first_pass<1, false, false>, 1024);
  run("8B loads, scalar, own part st.shared", first_pass<1, false, true>, 1024);
  run("16B loads, scalar cluster stores", first_pass<2, false, false>, 1024);
  run("16B loads, scalar, own part st.shared", first_pass<2, false, true>, 1024);
  run("16B loads, v2 cluster stores", first_pass<2, true, false>, 1024);
  run("16B loads, v2, own part st.shared", first_pass<2, true, true>, 1024);
  run("2 x 8B loads (a pair), v2 cluster stores", first_pass<2, true, false, false>, 1024);
  run("v4 cluster stores, 512 threads", vector_stores<4>, 512);
  return 0;
}
