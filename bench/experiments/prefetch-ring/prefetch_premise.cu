// Premise test for a persistent tile kernel that prefetches the next tile into a ring of shared-memory chunks
// (bench/NOTES.md version 18). Not part of the build: nvcc -O3 -arch=sm_90 prefetch_premise.cu.
//
// A one-block tile of 16384 complex fp32 (128 KB, planar re/im in shared memory as fft3d's kernels keep it) leaves
// one block per multiprocessor, so nothing overlaps its shared-memory passes with memory traffic. Here the same
// synthetic work (four radix-16 passes, the first from global memory, the last to it) runs four ways:
//   twin        load sweep, store sweep (fft3d's copy twin: the floor a fused kernel is measured against);
//   one_tile    one tile per block (what fft3d's generated kernels do today);
//   persistent  one block per multiprocessor looping over tiles, each tile's loads issued with cp.async after the
//               last one's final shared-memory read (the persistent loop alone, no prefetch);
//   ring        the same loop with shared memory as a ring of seven 32 KB chunks: a tile takes four, so while a
//               tile runs its passes three quarters of the next one are already loading; the last quarter goes
//               into the first chunk the tile frees.
// Two access patterns of fft3d's 256^3 kernels: rows of 256 elements (X whole, 64 Y rows at stride 4) and runs of
// 16 elements (16 X, 4 Y, 256 Z). The outputs of one_tile, persistent and ring must be bitwise identical (same
// arithmetic, same order): the check fails the run otherwise.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                                  \
  do {                                                                                               \
    cudaError_t status_ = (call);                                                                    \
    if (status_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)

constexpr unsigned kThreads = 1024;
constexpr unsigned kTile = 16384;          // elements
constexpr unsigned kChunk = 4096;          // elements per ring chunk (32 KB planar)
constexpr unsigned kChunksPerTile = kTile / kChunk;
constexpr unsigned kRingChunks = 7;        // 224 KB
constexpr long long kSide = 256;           // 256^3 volume
constexpr unsigned kTiles = 1024;

// Global offset of tile element e: the tile's origin plus the element's offset, which adds over disjoint bit
// fields of e (so e0 + 1024 k costs one constant add once k is unrolled). Pattern 0: X whole (256), 64 Y rows at
// stride 4; tile = (y phase, z). Pattern 1: 16 X, 4 adjacent Y, 256 Z; tile = (x tile, y tile).
template <int Pattern>
__device__ __forceinline__ long long tile_origin(unsigned tile) {
  if (Pattern == 0) return kSide * ((tile & 3u) + kSide * (long long)(tile >> 2));
  return 16 * (tile & 15u) + kSide * 4 * (tile >> 4);
}
template <int Pattern>
__device__ __forceinline__ unsigned element_offset(unsigned e) {
  if (Pattern == 0) return (e & 255u) + kSide * 4 * (e >> 8);
  return (e & 15u) + kSide * ((e >> 4) & 3u) + kSide * kSide * (e >> 6);
}
template <int Pattern>
__device__ __forceinline__ long long global_offset(unsigned tile, unsigned e) {
  return tile_origin<Pattern>(tile) + element_offset<Pattern>(e);
}

__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// 16-point DFT, forward sign, natural order in and out (as fft3d emits it).
__device__ __forceinline__ float2 cmul_minus_i(float2 a) { return make_float2(a.y, -a.x); }
__device__ __forceinline__ void radix16(float2* v) {
  float2 d;
  d = csub(v[0], v[8]); v[0] = cadd(v[0], v[8]);
  v[8] = d;
  d = csub(v[1], v[9]); v[1] = cadd(v[1], v[9]);
  v[9] = cmul(d, make_float2(9.23879533e-01f, -3.82683432e-01f));
  d = csub(v[2], v[10]); v[2] = cadd(v[2], v[10]);
  v[10] = cmul(d, make_float2(7.07106781e-01f, -7.07106781e-01f));
  d = csub(v[3], v[11]); v[3] = cadd(v[3], v[11]);
  v[11] = cmul(d, make_float2(3.82683432e-01f, -9.23879533e-01f));
  d = csub(v[4], v[12]); v[4] = cadd(v[4], v[12]);
  v[12] = cmul_minus_i(d);
  d = csub(v[5], v[13]); v[5] = cadd(v[5], v[13]);
  v[13] = cmul(d, make_float2(-3.82683432e-01f, -9.23879533e-01f));
  d = csub(v[6], v[14]); v[6] = cadd(v[6], v[14]);
  v[14] = cmul(d, make_float2(-7.07106781e-01f, -7.07106781e-01f));
  d = csub(v[7], v[15]); v[7] = cadd(v[7], v[15]);
  v[15] = cmul(d, make_float2(-9.23879533e-01f, -3.82683432e-01f));
  d = csub(v[0], v[4]); v[0] = cadd(v[0], v[4]);
  v[4] = d;
  d = csub(v[1], v[5]); v[1] = cadd(v[1], v[5]);
  v[5] = cmul(d, make_float2(7.07106781e-01f, -7.07106781e-01f));
  d = csub(v[2], v[6]); v[2] = cadd(v[2], v[6]);
  v[6] = cmul_minus_i(d);
  d = csub(v[3], v[7]); v[3] = cadd(v[3], v[7]);
  v[7] = cmul(d, make_float2(-7.07106781e-01f, -7.07106781e-01f));
  d = csub(v[8], v[12]); v[8] = cadd(v[8], v[12]);
  v[12] = d;
  d = csub(v[9], v[13]); v[9] = cadd(v[9], v[13]);
  v[13] = cmul(d, make_float2(7.07106781e-01f, -7.07106781e-01f));
  d = csub(v[10], v[14]); v[10] = cadd(v[10], v[14]);
  v[14] = cmul_minus_i(d);
  d = csub(v[11], v[15]); v[11] = cadd(v[11], v[15]);
  v[15] = cmul(d, make_float2(-7.07106781e-01f, -7.07106781e-01f));
  d = csub(v[0], v[2]); v[0] = cadd(v[0], v[2]);
  v[2] = d;
  d = csub(v[1], v[3]); v[1] = cadd(v[1], v[3]);
  v[3] = cmul_minus_i(d);
  d = csub(v[4], v[6]); v[4] = cadd(v[4], v[6]);
  v[6] = d;
  d = csub(v[5], v[7]); v[5] = cadd(v[5], v[7]);
  v[7] = cmul_minus_i(d);
  d = csub(v[8], v[10]); v[8] = cadd(v[8], v[10]);
  v[10] = d;
  d = csub(v[9], v[11]); v[9] = cadd(v[9], v[11]);
  v[11] = cmul_minus_i(d);
  d = csub(v[12], v[14]); v[12] = cadd(v[12], v[14]);
  v[14] = d;
  d = csub(v[13], v[15]); v[13] = cadd(v[13], v[15]);
  v[15] = cmul_minus_i(d);
  d = csub(v[0], v[1]); v[0] = cadd(v[0], v[1]);
  v[1] = d;
  d = csub(v[2], v[3]); v[2] = cadd(v[2], v[3]);
  v[3] = d;
  d = csub(v[4], v[5]); v[4] = cadd(v[4], v[5]);
  v[5] = d;
  d = csub(v[6], v[7]); v[6] = cadd(v[6], v[7]);
  v[7] = d;
  d = csub(v[8], v[9]); v[8] = cadd(v[8], v[9]);
  v[9] = d;
  d = csub(v[10], v[11]); v[10] = cadd(v[10], v[11]);
  v[11] = d;
  d = csub(v[12], v[13]); v[12] = cadd(v[12], v[13]);
  v[13] = d;
  d = csub(v[14], v[15]); v[14] = cadd(v[14], v[15]);
  v[15] = d;
  d = v[1]; v[1] = v[8]; v[8] = d;
  d = v[2]; v[2] = v[4]; v[4] = d;
  d = v[3]; v[3] = v[12]; v[12] = d;
  d = v[5]; v[5] = v[10]; v[10] = d;
  d = v[7]; v[7] = v[14]; v[14] = d;
  d = v[11]; v[11] = v[13]; v[13] = d;
}

// The element a thread's butterfly k touches in each pass (group strides 1024, 64, 256, 1024: every warp's 32
// accesses are consecutive words, so no bank conflicts without a swizzle).
template <int Pass>
__device__ __forceinline__ unsigned pass_element(unsigned t, int k) {
  if (Pass == 1) return ((t & 63u) | ((t >> 6) << 10)) + 64u * k;
  if (Pass == 2) return ((t & 255u) | ((t >> 8) << 12)) + 256u * k;
  return t + 1024u * k;
}

__device__ float2 twiddle_table[256];  // filled by the host: w_256^j

// threadIdx.x read through volatile asm: the compiler cannot hoist what derives from it out of a persistent loop
// (hoisted twiddle and address values of every pass spill at the 64 registers 1024 threads allow).
__device__ __forceinline__ unsigned thread_index() {
  unsigned t;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
  return t;
}

template <int Pass>
__device__ __forceinline__ float2 twiddle(unsigned t, int k) {
  return __ldg(&twiddle_table[(((t >> (2 * Pass)) & 15u) * k) & 255u]);
}

// Shared memory: tile element e lives in its chunk e / kChunk at offset e % kChunk; `base(chunk)` is the chunk's
// first word. The chunk of a pass's element is known without k (passes 1 and 2) or from k alone (passes 0 and 3),
// so the ring's modulo is computed once a pass or folds to a few registers.
struct FlatTile {
  __device__ unsigned base(unsigned chunk) const { return chunk * kChunk; }
};
struct RingTile {
  unsigned first_chunk;  // ring slot of the tile's chunk 0
  __device__ unsigned base(unsigned chunk) const { return ((first_chunk + chunk) % kRingChunks) * kChunk; }
  __device__ unsigned word(unsigned e) const { return base(e / kChunk) + e % kChunk; }
};

// The tile's complex values in shared memory: planar (re and im arrays, as fft3d's kernels keep them) or
// interleaved (float2, so that 16-byte copies can fill it).
struct Planar {
  float* re;
  float* im;
  __device__ Planar(float* shared, unsigned elements) : re(shared), im(shared + elements) {}
  __device__ float2 get(unsigned a) const { return make_float2(re[a], im[a]); }
  __device__ void set(unsigned a, float2 v) const { re[a] = v.x; im[a] = v.y; }
};
struct Interleaved {
  float2* c;
  __device__ Interleaved(float* shared, unsigned) : c(reinterpret_cast<float2*>(shared)) {}
  __device__ float2 get(unsigned a) const { return c[a]; }
  __device__ void set(unsigned a, float2 v) const { c[a] = v; }
};

template <int Pass>
__device__ __forceinline__ unsigned pass_chunk(unsigned t, int k) {
  return (Pass == 1 || Pass == 2) ? t >> 8 : (unsigned)k >> 2;
}

template <int Pass, class Tile>
__device__ __forceinline__ unsigned pass_word(const Tile& tile, unsigned t, int k) {
  return tile.base(pass_chunk<Pass>(t, k)) + pass_element<Pass>(t, k) % kChunk;
}

// One radix-16 pass in shared memory: read, butterfly, twiddle, write back, barrier.
template <int Pass, class Layout, class Tile>
__device__ __forceinline__ void shared_pass(const Layout& smem, const Tile& tile) {
  const unsigned t = thread_index();
  float2 v[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned a = pass_word<Pass>(tile, t, k);
    v[k] = smem.get(a);
  }
  radix16(v);
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned a = pass_word<Pass>(tile, t, k);
    const float2 w = k == 0 ? v[0] : cmul(v[k], twiddle<Pass>(t, k));
    smem.set(a, w);
  }
  __syncthreads();
}

template <class Layout, class Tile>
__device__ __forceinline__ void middle_passes(const Layout& smem, const Tile& tile) {
  shared_pass<1>(smem, tile);
  shared_pass<2>(smem, tile);
}

template <class Layout, class Tile>
__device__ __forceinline__ void first_pass_from_shared(const Layout& smem, const Tile& tile) {
  shared_pass<0>(smem, tile);
}

template <int Pattern>
__device__ __forceinline__ void store_tile(const float2 (&v)[16], float2* out, unsigned tile_index) {
  const long long g0 = global_offset<Pattern>(tile_index, thread_index());
#pragma unroll
  for (int k = 0; k < 16; ++k) out[g0 + element_offset<Pattern>(1024u * k)] = v[k];
}

template <class Layout, class Tile>
__device__ __forceinline__ void last_pass_read(const Layout& smem, const Tile& tile, float2 (&v)[16]) {
  const unsigned t = thread_index();
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned a = pass_word<3>(tile, t, k);
    v[k] = smem.get(a);
  }
}

__device__ __forceinline__ void copy_async_4(float* shared_word, const float* global_word) {
  const unsigned s = (unsigned)__cvta_generic_to_shared(shared_word);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(global_word) : "memory");
}
__device__ __forceinline__ void copy_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void copy_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

__device__ __forceinline__ void copy_async_16(float2* shared_pair, const float2* global_pair) {
  const unsigned s = (unsigned)__cvta_generic_to_shared(shared_pair);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(global_pair) : "memory");
}

// Loads chunks [First, Last) of tile `tile_index` with cp.async into the ring: planar, each thread copies the re
// and im words of 4 elements a chunk (4-byte copies); interleaved, 2 pairs of adjacent elements (16-byte copies).
template <int Pattern, unsigned First, unsigned Last, class Layout>
__device__ __forceinline__ void load_chunks(const Layout& smem, const float2* in, unsigned tile_index,
                                            const RingTile& tile) {
  if constexpr (std::is_same<Layout, Planar>::value) {
    const float2* g0 = in + global_offset<Pattern>(tile_index, thread_index());
#pragma unroll 1
    for (unsigned c = First; c < Last; ++c) {
      const unsigned base = tile.base(c) + thread_index();
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const float* g = reinterpret_cast<const float*>(g0 + element_offset<Pattern>(c * kChunk + kThreads * k));
        const unsigned a = base + kThreads * k;
        copy_async_4(smem.re + a, g);
        copy_async_4(smem.im + a, g + 1);
      }
    }
  } else {
    const float2* g0 = in + global_offset<Pattern>(tile_index, 2 * thread_index());
#pragma unroll 1
    for (unsigned c = First; c < Last; ++c) {
      const unsigned base = tile.base(c) + 2 * thread_index();
#pragma unroll
      for (int k = 0; k < 2; ++k)
        copy_async_16(smem.c + base + 2 * kThreads * k, g0 + element_offset<Pattern>(c * kChunk + 2 * kThreads * k));
    }
  }
  copy_async_commit();
}

template <int Pattern>
__global__ void __launch_bounds__(kThreads, 1) twin(const float2* in, float2* out) {
  extern __shared__ float shared[];
  float* re = shared;
  float* im = shared + kTile;
  const long long g0 = global_offset<Pattern>(blockIdx.x, threadIdx.x);
  float2 v[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) v[k] = in[g0 + element_offset<Pattern>(1024u * k)];
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned a = pass_element<0>(threadIdx.x, k);
    re[a] = v[k].x;
    im[a] = v[k].y;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned a = pass_element<3>(threadIdx.x, k);
    out[g0 + element_offset<Pattern>(1024u * k)] = make_float2(re[a], im[a]);
  }
}

template <int Pattern, class Layout>
__device__ __forceinline__ void fused_tile(const Layout& smem, const float2* in, float2* out, unsigned tile_index) {
  const FlatTile tile;
  const unsigned t = thread_index();
  const long long g0 = global_offset<Pattern>(tile_index, t);
  float2 v[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) v[k] = in[g0 + element_offset<Pattern>(1024u * k)];
  radix16(v);
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const unsigned a = pass_element<0>(t, k);
    const float2 w = k == 0 ? v[0] : cmul(v[k], twiddle<0>(t, k));
    smem.set(a, w);
  }
  __syncthreads();
  middle_passes(smem, tile);
  last_pass_read(smem, tile, v);
  radix16(v);
  __syncthreads();  // the next tile's first pass writes shared memory
  store_tile<Pattern>(v, out, tile_index);
}

template <int Pattern, class Layout>
__global__ void __launch_bounds__(kThreads, 1) one_tile(const float2* in, float2* out) {
  extern __shared__ float shared[];
  fused_tile<Pattern>(Layout(shared, kTile), in, out, blockIdx.x);
}

// One tile per block with a load sweep: global loads into shared memory first, then all four passes from shared
// memory (one more round trip than one_tile, none of the ring's addressing).
template <int Pattern>
__global__ void __launch_bounds__(kThreads, 1) one_tile_sweep(const float2* in, float2* out) {
  extern __shared__ float shared[];
  const Planar smem(shared, kTile);
  const FlatTile tile;
  const unsigned t = thread_index();
  const long long g0 = global_offset<Pattern>(blockIdx.x, t);
  float2 v[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) v[k] = in[g0 + element_offset<Pattern>(1024u * k)];
#pragma unroll
  for (int k = 0; k < 16; ++k) smem.set(pass_element<0>(t, k), v[k]);
  __syncthreads();
  first_pass_from_shared(smem, tile);
  middle_passes(smem, tile);
  last_pass_read(smem, tile, v);
  radix16(v);
  store_tile<Pattern>(v, out, blockIdx.x);
}

// Larger radices in registers, fewer shared-memory round trips. `three_passes`: radix-16 passes 0, 1 and 3 (two
// round trips) at 1024 threads. `radix32`: two radix-32 passes (one round trip) at 512 threads, each thread holding
// 32 values (64 registers of data, under the 128 that 512 threads allow).
__device__ __forceinline__ void radix32(float2* v) {
  // DIF first layer (halves 16 apart, twiddle w_32^i on the difference), then a radix-16 DFT on each half.
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    float s, c;
    sincospif(-(float)i / 16.0f, &s, &c);
    const float2 d = csub(v[i], v[i + 16]);
    v[i] = cadd(v[i], v[i + 16]);
    v[i + 16] = cmul(d, make_float2(c, s));
  }
  radix16(v);
  radix16(v + 16);
}

template <int Pattern>
__global__ void __launch_bounds__(kThreads, 1) three_passes(const float2* in, float2* out) {
  extern __shared__ float shared[];
  const Planar smem(shared, kTile);
  const FlatTile tile;
  const unsigned t = thread_index();
  const long long g0 = global_offset<Pattern>(blockIdx.x, t);
  float2 v[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) v[k] = in[g0 + element_offset<Pattern>(1024u * k)];
  radix16(v);
#pragma unroll
  for (int k = 0; k < 16; ++k)
    smem.set(pass_element<0>(t, k), k == 0 ? v[0] : cmul(v[k], twiddle<0>(t, k)));
  __syncthreads();
  shared_pass<1>(smem, tile);
  last_pass_read(smem, tile, v);
  radix16(v);
  store_tile<Pattern>(v, out, blockIdx.x);
}

constexpr unsigned kThreads32 = kTile / 32;

template <int Pattern>
__global__ void __launch_bounds__(kThreads32, 1) radix32_passes(const float2* in, float2* out) {
  extern __shared__ float shared[];
  const Planar smem(shared, kTile);
  const unsigned t = thread_index();
  const long long g0 = global_offset<Pattern>(blockIdx.x, t);
  float2 v[32];
#pragma unroll
  for (int k = 0; k < 32; ++k) v[k] = in[g0 + element_offset<Pattern>(kThreads32 * k)];
  radix32(v);
#pragma unroll
  for (int k = 0; k < 32; ++k)
    smem.set(t + kThreads32 * k, k == 0 ? v[0] : cmul(v[k], __ldg(&twiddle_table[(t * k) & 255u])));
  __syncthreads();
  // Second pass: 32 values at stride 32 within 1024-element blocks; for each k a warp covers 32 consecutive
  // elements, in shared memory and in the global store.
  const unsigned base = (t & 31u) | ((t >> 5) << 10);
#pragma unroll
  for (int k = 0; k < 32; ++k) v[k] = smem.get(base + 32u * k);
  radix32(v);
  const long long g1 = global_offset<Pattern>(blockIdx.x, base);
#pragma unroll
  for (int k = 0; k < 32; ++k) out[g1 + element_offset<Pattern>(32u * k)] = v[k];
}

template <int Pattern>
__global__ void __launch_bounds__(kThreads32, 1) twin512(const float2* in, float2* out) {
  extern __shared__ float shared[];
  const Planar smem(shared, kTile);
  const unsigned t = thread_index();
  const long long g0 = global_offset<Pattern>(blockIdx.x, t);
  float2 v[32];
#pragma unroll
  for (int k = 0; k < 32; ++k) v[k] = in[g0 + element_offset<Pattern>(kThreads32 * k)];
#pragma unroll
  for (int k = 0; k < 32; ++k) smem.set(t + kThreads32 * k, v[k]);
  __syncthreads();
  const unsigned base = (t & 31u) | ((t >> 5) << 10);
  const long long g1 = global_offset<Pattern>(blockIdx.x, base);
#pragma unroll
  for (int k = 0; k < 32; ++k) out[g1 + element_offset<Pattern>(32u * k)] = smem.get(base + 32u * k);
}

// The persistent loop around today's kernel body (global loads into registers, no cp.async, no prefetch).
template <int Pattern>
__global__ void __launch_bounds__(kThreads, 1) looped_fused(const float2* in, float2* out) {
  extern __shared__ float shared[];
#pragma unroll 1
  for (unsigned tile_index = blockIdx.x; tile_index < kTiles; tile_index += gridDim.x)
    fused_tile<Pattern>(Planar(shared, kTile), in, out, tile_index);
}

// Persistent loop; `Prefetch` false: the whole next tile loads after this tile's last read; true: three chunks
// load before this tile's passes, the fourth after its last read.
// Tile loads into the ring with cp.async from every thread; a tile's chunks are complete after wait_all and the
// barrier that follows it.
template <int Pattern, class Layout>
struct CopyAsyncLoader {
  __device__ void init() {}
  template <unsigned First, unsigned Last>
  __device__ void load(const Layout& smem, const float2* in, unsigned tile_index, const RingTile& tile) {
    load_chunks<Pattern, First, Last>(smem, in, tile_index, tile);
  }
  __device__ void wait(const RingTile&) { copy_async_wait_all(); }
};

// Tile loads into the ring with bulk copies (the Hopper copy engine, cp.async.bulk): warp 0 issues one copy per
// 2 KB row (pattern 0) or per 128-byte run (pattern 1); each ring slot has an mbarrier that completes when its
// chunk's 32 KB have landed. Interleaved layout only (the copy engine copies bytes).
template <int Pattern>
struct BulkLoader {
  uint64_t* barriers;   // kRingChunks mbarriers after the ring
  unsigned wait_parity = 0;  // bit s: the parity of slot s's next completion
  __device__ void init() {
    if (threadIdx.x == 0) {
      for (unsigned s = 0; s < kRingChunks; ++s)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(barriers + s)) : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
  }
  static __device__ unsigned shared_address(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
  template <unsigned First, unsigned Last>
  __device__ void load(const Interleaved& smem, const float2* in, unsigned tile_index, const RingTile& tile) {
    if (threadIdx.x >= 32) return;
    const unsigned lane = threadIdx.x;
    const float2* origin = in + tile_origin<Pattern>(tile_index);
#pragma unroll 1
    for (unsigned c = First; c < Last; ++c) {
      const unsigned slot = (tile.first_chunk + c) % kRingChunks;
      const unsigned barrier = shared_address(barriers + slot);
      if (lane == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(kChunk * 8u)
                     : "memory");
      __syncwarp();
      constexpr unsigned run = Pattern == 0 ? 256u : 16u;  // elements one copy moves
      for (unsigned r = lane; r < kChunk / run; r += 32) {
        const unsigned e = c * kChunk + r * run;
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                shared_address(smem.c + slot * kChunk + r * run)),
            "l"(origin + element_offset<Pattern>(e)), "r"(run * 8u), "r"(barrier)
            : "memory");
      }
    }
  }
  __device__ void wait(const RingTile& tile) {
#pragma unroll 1
    for (unsigned c = 0; c < kChunksPerTile; ++c) {
      const unsigned slot = (tile.first_chunk + c) % kRingChunks;
      const unsigned parity = (wait_parity >> slot) & 1u;
      unsigned done = 0;
      while (!done)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(shared_address(barriers + slot)), "r"(parity)
            : "memory");
      wait_parity ^= 1u << slot;
    }
  }
};

// Persistent loop over the ring; `Prefetch` false: the whole next tile loads after this tile's last read; true:
// three chunks load before this tile's passes, the fourth after its last read.
template <int Pattern, bool Prefetch, class Layout, class Loader>
__device__ __forceinline__ void ring_loop(const Layout& smem, Loader& loader, const float2* in, float2* out) {
  unsigned n = 0;  // tiles this block has done
  unsigned tile_index = blockIdx.x;
  if (tile_index < kTiles) loader.template load<0, kChunksPerTile>(smem, in, tile_index, RingTile{0});
#pragma unroll 1
  for (; tile_index < kTiles; tile_index += gridDim.x, ++n) {
    const RingTile tile{(kChunksPerTile * n) % kRingChunks};
    const RingTile next{(kChunksPerTile * (n + 1)) % kRingChunks};
    const unsigned next_index = tile_index + gridDim.x;
    loader.wait(tile);
    __syncthreads();
    if (Prefetch && next_index < kTiles) loader.template load<0, kChunksPerTile - 1>(smem, in, next_index, next);
    first_pass_from_shared(smem, tile);
    middle_passes(smem, tile);
    float2 v[16];
    last_pass_read(smem, tile, v);
    radix16(v);
    // Every thread has read the tile, so its chunks are free; the copy engine's writes to them come after this
    // thread's ordinary shared-memory writes.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (next_index < kTiles)
      loader.template load<Prefetch ? kChunksPerTile - 1 : 0, kChunksPerTile>(smem, in, next_index, next);
    store_tile<Pattern>(v, out, tile_index);
  }
}

template <int Pattern, bool Prefetch, class Layout>
__global__ void __launch_bounds__(kThreads, 1) looped(const float2* in, float2* out) {
  extern __shared__ float shared[];
  const Layout smem(shared, kRingChunks * kChunk);
  CopyAsyncLoader<Pattern, Layout> loader;
  ring_loop<Pattern, Prefetch>(smem, loader, in, out);
}

template <int Pattern, bool Prefetch>
__global__ void __launch_bounds__(kThreads, 1) looped_bulk(const float2* in, float2* out) {
  extern __shared__ __align__(128) float shared[];
  const Interleaved smem(shared, kRingChunks * kChunk);
  BulkLoader<Pattern> loader{reinterpret_cast<uint64_t*>(shared + 2 * kRingChunks * kChunk)};
  loader.init();
  ring_loop<Pattern, Prefetch>(smem, loader, in, out);
}

using Kernel = void (*)(const float2*, float2*);

float time_kernel(Kernel kernel, unsigned blocks, unsigned threads, size_t shared_bytes, const float2* in,
                  float2* out, int reps) {
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < reps + 3; ++r) {
    CHECK(cudaEventRecord(start));
    kernel<<<blocks, threads, shared_bytes>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 3) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return times[times.size() / 2];
}

// prefetch_premise            the table of all variants, both patterns, two rounds
// prefetch_premise NAME P      only variant NAME on pattern P, three launches (for a profiler)
int main(int argc, char** argv) {
  const size_t n = kSide * kSide * kSide, bytes = n * sizeof(float2);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d multiprocessors\n", prop.name, prop.multiProcessorCount);
  std::vector<float2> host(n);
  unsigned state = 12345u;
  for (auto& value : host) {
    state = state * 1664525u + 1013904223u;
    value.x = (state >> 8) * (1.0f / 16777216.0f) - 0.5f;
    state = state * 1664525u + 1013904223u;
    value.y = (state >> 8) * (1.0f / 16777216.0f) - 0.5f;
  }
  std::vector<float2> table(256);
  for (int j = 0; j < 256; ++j) table[j] = make_float2((float)std::cos(-2 * M_PI * j / 256), (float)std::sin(-2 * M_PI * j / 256));
  CHECK(cudaMemcpyToSymbol(twiddle_table, table.data(), 256 * sizeof(float2)));
  float2 *in, *out;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> copies;
  for (int r = 0; r < 23; ++r) {
    CHECK(cudaEventRecord(start));
    CHECK(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 3) copies.push_back(ms);
  }
  std::sort(copies.begin(), copies.end());
  const float memcpy_ms = copies[copies.size() / 2];
  std::printf("memcpy %.4f ms (%.0f GB/s read+write)\n", memcpy_ms, 2.0 * bytes / memcpy_ms / 1e6);

  const unsigned persistent_blocks = std::min<unsigned>(prop.multiProcessorCount, kTiles);
  const size_t flat_bytes = 2 * kTile * sizeof(float), ring_bytes = 2 * kRingChunks * kChunk * sizeof(float);
  struct Variant {
    const char* name;
    Kernel kernel[2];
    unsigned blocks;
    size_t shared;
    unsigned threads = kThreads;
    bool reference = false;  // the outputs others must equal
  };
  const Variant variants[] = {
      {"twin", {twin<0>, twin<1>}, kTiles, flat_bytes},
      {"one_tile", {one_tile<0, Planar>, one_tile<1, Planar>}, kTiles, flat_bytes, kThreads, true},
      {"tile_sweep", {one_tile_sweep<0>, one_tile_sweep<1>}, kTiles, flat_bytes},
      {"loop_fused", {looped_fused<0>, looped_fused<1>}, persistent_blocks, flat_bytes},
      {"persistent", {looped<0, false, Planar>, looped<1, false, Planar>}, persistent_blocks, ring_bytes},
      {"ring", {looped<0, true, Planar>, looped<1, true, Planar>}, persistent_blocks, ring_bytes},
      {"one_tile_f2", {one_tile<0, Interleaved>, one_tile<1, Interleaved>}, kTiles, flat_bytes},
      {"persist_f2", {looped<0, false, Interleaved>, looped<1, false, Interleaved>}, persistent_blocks, ring_bytes},
      {"ring_f2", {looped<0, true, Interleaved>, looped<1, true, Interleaved>}, persistent_blocks, ring_bytes},
      {"persist_tma", {looped_bulk<0, false>, looped_bulk<1, false>}, persistent_blocks, ring_bytes + 64},
      {"ring_tma", {looped_bulk<0, true>, looped_bulk<1, true>}, persistent_blocks, ring_bytes + 64},
      {"twin512", {twin512<0>, twin512<1>}, kTiles, flat_bytes, kThreads32},
      {"3_passes", {three_passes<0>, three_passes<1>}, kTiles, flat_bytes, kThreads, true},
      {"r32_passes", {radix32_passes<0>, radix32_passes<1>}, kTiles, flat_bytes, kThreads32, true},
  };
  const char* patterns[] = {"rows of 256 (X whole, Y 64 at stride 4)", "runs of 16 (16 X, 4 Y, 256 Z)"};
  if (argc == 3) {
    for (const Variant& variant : variants)
      if (std::strcmp(variant.name, argv[1]) == 0) {
        const int pattern = std::atoi(argv[2]);
        CHECK(cudaFuncSetAttribute(variant.kernel[pattern], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)variant.shared));
        for (int r = 0; r < 3; ++r)
          variant.kernel[pattern]<<<variant.blocks, variant.threads, variant.shared>>>(in, out);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        return 0;
      }
    std::fprintf(stderr, "no variant %s\n", argv[1]);
    return 1;
  }
  bool ok = true;
  for (int pattern = 0; pattern < 2; ++pattern) {
    std::printf("\npattern: %s\n", patterns[pattern]);
    std::vector<float2> reference(n), result(n);
    float twin_ms = 0;
    for (int round = 0; round < 2; ++round) {
      for (const Variant& variant : variants) {
        CHECK(cudaMemset(out, 0xff, bytes));  // NaN
        const float ms =
            time_kernel(variant.kernel[pattern], variant.blocks, variant.threads, variant.shared, in, out, 20);
        CHECK(cudaMemcpy(result.data(), out, bytes, cudaMemcpyDeviceToHost));
        const char* check = "";
        if (std::strncmp(variant.name, "twin", 4) == 0) {
          if (std::strcmp(variant.name, "twin") == 0) twin_ms = ms;
          check = std::memcmp(result.data(), host.data(), bytes) == 0 ? "copy exact" : "COPY WRONG";
          ok = ok && std::memcmp(result.data(), host.data(), bytes) == 0;
        } else if (variant.reference) {  // a new computation: every element written, later variants compare
          reference = result;
          size_t nan = 0;
          for (const float2& value : result) nan += (value.x != value.x) || (value.y != value.y);
          check = nan == 0 ? "all written (new reference)" : "UNWRITTEN";
          ok = ok && nan == 0;
        } else {
          const bool same = std::memcmp(result.data(), reference.data(), bytes) == 0;
          check = same ? "same as reference" : "DIFFERS FROM reference";
          ok = ok && same;
        }
        std::printf("  round %d %-11s %.4f ms  %5.1f%% of memcpy  /twin %.3f  %s\n", round, variant.name, ms,
                    100.0 * memcpy_ms / ms, ms / twin_ms, check);
      }
    }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("\n%s\n", ok ? "all checks passed" : "CHECKS FAILED");
  return ok ? 0 : 1;
}
