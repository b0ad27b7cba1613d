// Where a GPU's share of a slab-decomposed volume lies in the whole volume's natural order (x + NX*(y + NY*z)), as
// runs of values contiguous in both: what scattering a host volume to the GPUs, gathering it back and checking a
// distributed result in chunks need. Pure arithmetic: the layouts of slab_decomposition.hpp, no CUDA.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d::bench {

// `count` values at `local_offset` of a GPU's buffer are the values at `natural_offset` of the whole volume.
struct SlabPiece {
  std::int64_t local_offset = 0;
  std::int64_t natural_offset = 0;
  std::int64_t count = 0;
  friend bool operator==(const SlabPiece&, const SlabPiece&) = default;
};

// The pieces of GPU `rank` of `gpus` holding `layout` (natural: its z slab, one piece; y_slabs: one piece per Z
// plane, NX*NY/G values each), in local order.
// @pre gpus >= 1 divides size.ny and size.nz; 0 <= rank < gpus.
// @post the pieces of all ranks cover [0, size.elements()) once each; each rank's cover [0, N/G) of its buffer.
std::vector<SlabPiece> slab_pieces(const Extents& size, int gpus, int rank, SlabLayout layout);

// visit(gpu, local_offset, natural_offset, count) for every piece of every GPU's buffer in `layout`, in chunks of at
// most `max_chunk` values: the host stages one chunk at a time.
template <class Visit>
void for_each_chunk(const Extents& size, int gpus, SlabLayout layout, std::int64_t max_chunk, Visit visit) {
  for (int g = 0; g < gpus; ++g)
    for (const SlabPiece& piece : slab_pieces(size, gpus, g, layout))
      for (std::int64_t done = 0; done < piece.count; done += max_chunk)
        visit(static_cast<std::size_t>(g), piece.local_offset + done, piece.natural_offset + done,
              std::min(max_chunk, piece.count - done));
}

}  // namespace fft3d::bench
