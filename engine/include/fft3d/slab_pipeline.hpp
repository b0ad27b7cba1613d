// How a one-process multi-GPU run pipelines its work (docs/multi-gpu.md, "The exchanges"): the slab plan in chunks
// of Z planes, each chunk's copies overlapping the next chunk's passes; the natural layout's y slabs in row chunks,
// each chunk's copies back (forward) or in (inverse) overlapping the next chunk's Z work. Pure arithmetic on the
// decomposition, so that the CPU tests and `fft3d explain --gpus` see what MultiGpuTransform will run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "fft3d/slab_decomposition.hpp"

namespace fft3d {

// How the exchanges move data. copy_engines: strided peer copies (cudaMemcpy2DAsync over NVLink), no packing,
// pipelined with the slab plan's chunks of Z planes; one process only. peer_stores: the same copies in the same
// schedule, run by an SM kernel on each sender that stores straight into the peers' buffers (two blocks a
// multiprocessor, alongside the slab plan's next chunk); one process only. nccl: NCCL's grouped send/receive, one
// block per plane and peer, each exchange after the local plan before it. automatic: in one process, copy_engines
// on 2 GPUs and peer_stores on more (a GPU's copy engines outrun its SMs' stores to one peer, but share one link's
// rate among several peers, where the stores keep theirs: docs/performance.md L115); nccl with a caller's
// communicator.
enum class SlabExchange : std::uint8_t { automatic, copy_engines, peer_stores, nccl };

// "automatic", "copy engines", "peer stores", "NCCL": the names reports print.
inline std::string exchange_name(SlabExchange exchange) {
  switch (exchange) {
    case SlabExchange::copy_engines: return "copy engines";
    case SlabExchange::peer_stores: return "peer stores";
    case SlabExchange::nccl: return "NCCL";
    case SlabExchange::automatic: break;
  }
  return "automatic";
}

// What one process runs: the caller's exchange, or for automatic copy engines on up to 2 GPUs and peer stores on
// more (SlabExchange's comment says why).
SlabExchange one_process_exchange(SlabExchange asked, int gpus);

// Up to slab_pipeline_chunks slab chunks, each at least slab_chunk_min_bytes: below that a chunk's launches and
// events cost more than the overlap gains.
inline constexpr std::int64_t slab_pipeline_chunks = 8;
inline constexpr std::int64_t slab_chunk_min_bytes = std::int64_t{64} << 20;

// Up to column_pipeline_chunks row chunks, each at least column_chunk_min_bytes: every row chunk splits each copy of
// the exchanges, and below that the host's enqueueing of the pieces outlasts the GPUs' work (docs/performance.md,
// L136).
inline constexpr std::int64_t column_pipeline_chunks = 8;
inline constexpr std::int64_t column_chunk_min_bytes = std::int64_t{256} << 20;

// Z planes of one slab chunk of `units` (a decomposition in exchange units, in_exchange_units): the z slab in
// slab_pipeline_chunks chunks, fewer (halving) where a chunk would hold less than `min_bytes` (0:
// slab_chunk_min_bytes), at least one plane.
std::int64_t slab_chunk_planes(const SlabDecomposition& units, std::int64_t min_bytes = 0);

// Row chunks of the y slabs of `units` for a run in `layout`: 1 for the y-slab layout (the caller's buffers);
// natural: up to column_pipeline_chunks, halving until each holds at least `min_bytes` (0: column_chunk_min_bytes)
// and the count divides NY/G. `one_launch_per_plane_chunk` (the peer-store kernel, up to max_slab_gpus copies a
// launch): at most max_slab_gpus / G, so that a sender's pieces of a plane chunk, one a row chunk and destination,
// stay one launch.
std::int64_t column_row_chunks(const SlabDecomposition& units, SlabLayout layout, bool one_launch_per_plane_chunk,
                               std::int64_t min_bytes = 0);

// How one process pipelines a run of `units` in `layout` with the exchange it asks for: the exchange it runs, the Z
// planes of a slab chunk and the row chunks of the y slabs (1 with NCCL, whose steps run whole). `min_chunk_bytes`:
// MultiGpuDesc's (0: the floors above).
struct SlabPipeline {
  SlabExchange exchange = SlabExchange::copy_engines;
  std::int64_t chunk_planes = 1;
  std::int64_t row_chunks = 1;
};
SlabPipeline one_process_pipeline(const SlabDecomposition& units, SlabLayout layout, SlabExchange asked,
                                  std::int64_t min_chunk_bytes = 0);

// The slab plan's last kernel run apart, so that it stores each GPU's own rows straight into its y slab (forward)
// or loads them from there (inverse, which runs the planes' X work first: a 2D transform's axes commute), instead of
// a copy moving them (half the exchange's HBM traffic on 2 GPUs: the local block's read and write). Offered where
// that kernel holds every X stage and the kernels before it none (the planner's {Y ...} {X whole} slab plans) in a
// complex decomposition. `y_part`: the slab plan without its last kernel on one chunk of `chunk_planes` Z planes
// (axes Y). `x_own`: the last kernel on this GPU's rows of one of the y slab's `row_chunks` row chunks (in_row_chunks;
// 1: the y slab whole) in a chunk's planes, volumes (NX, NY/(G*C), 1) (axes X), a batch of `chunk_planes`, which the
// schedule runs with batch strides NX*NY on the z-slab side and NX*NY/(G*C) on the y-slab side. `x_peers`: the same
// kernel on one peer's rows of a chunk, in place in the z slab, volumes (NX, NY/G, 1), batch strides NX*NY.
// `d` in values, as slab_decomposition returns it.
struct SlabLastKernelApart {
  Plan y_part;
  Plan x_own;
  Plan x_peers;
};
std::optional<SlabLastKernelApart> slab_last_kernel_apart(const SlabDecomposition& d, std::int64_t chunk_planes,
                                                          std::int64_t row_chunks = 1);

}  // namespace fft3d
