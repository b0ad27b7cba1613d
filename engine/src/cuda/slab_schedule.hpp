// The single-process schedule of a multi-GPU transform (docs/multi-gpu.md): the local plans on each GPU's compute
// stream, the exchanges as strided copies pushed straight into the receivers' buffers (slab_copies.hpp) by each
// sender's copy engines or by its SM kernel (peer_copy_kernel.hpp), and the events between them. The slab plan runs in
// chunks of Z planes so that a chunk's copies overlap the next chunk's passes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "cuda/peer_copy_kernel.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/slab_pipeline.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

// One GPU's part. The transforms were built with its device current; every stream belongs to it.
struct SlabSide {
  int device = 0;
  GpuTransform* slab = nullptr;    // the slab plan's kernels on one chunk of Z planes (a real transform's R2C)
  GpuTransform* slab_c2r = nullptr;  // a real transform's: the C2R slab plan on one chunk, which the inverse runs
  GpuTransform* column = nullptr;  // the column plan on the y slab (NX, NY/G, NZ)
  GpuTransform* column_chunk = nullptr;  // the column plan on one row chunk (column_chunk_plan); null: no row chunks
  cudaStream_t compute = nullptr;
  std::vector<cudaStream_t> copies;  // one per destination GPU, in slab order
  ExchangeUnit* buffer = nullptr;  // the exchange buffer: local_elements() exchange units
  // Where set, the copies this GPU sends go as one launch of this kernel (peer_copy_blocks blocks) on its own
  // copy stream, copies[its slab index], instead of one copy-engine copy per destination.
  const PeerCopyKernel* peer_copies = nullptr;
  int peer_copy_blocks = 0;
  // Where the slab plan's last kernel runs apart (slab_last_kernel_apart, for the run's chunk and row chunks): the
  // plan without it, the last kernel on this GPU's own rows of a row chunk from the z slab into the y slab
  // (forward) and back (inverse), and on a peer's rows in place in the z slab, their batch strides set; null: the
  // slab plan whole.
  GpuTransform* slab_y_part = nullptr;
  GpuTransform* slab_x_own_forward = nullptr;
  GpuTransform* slab_x_own_inverse = nullptr;
  GpuTransform* slab_x_peers = nullptr;
};

// Runs a local plan on buffers addressed in exchange units, as values of the plan's precision and kind (R2C: reals
// in; C2R: reals out).
void execute_local_plan(GpuTransform& plan, const ExchangeUnit* in, ExchangeUnit* out, const TransformOptions& options,
                        cudaStream_t stream);

// Waits until every event has completed (the caller's timeout and error checks): the end of a run.
using WaitForEvents = std::function<void(const std::vector<cudaEvent_t>&)>;

// One run's data on every GPU, addressed in exchange units. `in[g]` == `out[g]`: in place. A real transform's real
// side takes `real_plane_units` a Z plane (its rows of reals, padded in place); 0: a complex transform, whose planes
// are the spectrum's on both sides. `in_scratch`: the inputs, writable (a real inverse out of place); else empty.
struct SlabRun {
  std::vector<const ExchangeUnit*> in;
  std::vector<ExchangeUnit*> out;
  std::vector<ExchangeUnit*> in_scratch;
  std::int64_t real_plane_units = 0;
};

// Runs the transform on every side and returns once `wait_for` has seen every GPU's last step done, in the layouts
// MultiGpuTransform::execute documents. Inputs are never written out of place, except a real inverse's (scratch).
// `d` counts in exchange units (in_exchange_units), as every offset here does. `row_chunks` > 1: the natural layout's
// y slabs in that many row chunks, each run by the sides' column_chunk.
// @pre sides.size() == run's vectors' sizes == d.gpus; chunk_planes divides NZ/G; row_chunks divides NY/G, and
// over 1 only with the natural layout and every side's column_chunk set; peer access is enabled between every pair
// of sides.
void run_slab_schedule(const SlabDecomposition& d, std::int64_t chunk_planes, std::int64_t row_chunks,
                       const std::vector<SlabSide>& sides, const SlabRun& run, SlabLayout layout,
                       const TransformOptions& options, const WaitForEvents& wait_for);

// The exchange alone, z slabs in `z_slabs` to y slabs in `y_slabs` (distinct buffers), with the sides' copies; returns
// once `wait_for` has seen every copy done. `d` counts in exchange units.
void run_slab_exchange(const SlabDecomposition& d, const std::vector<SlabSide>& sides,
                       const std::vector<const ExchangeUnit*>& z_slabs,
                       const std::vector<ExchangeUnit*>& y_slabs, const WaitForEvents& wait_for);

}  // namespace fft3d
