// The exchanges of the slab decomposition as strided copies (one per pair of GPUs and range of Z planes), which a
// GPU's copy engines run straight into the peer's buffer: no pack, no staging (docs/multi-gpu.md). Pure layout
// arithmetic, in complex elements.
#pragma once

#include <cstdint>
#include <vector>

#include "fft3d/slab_decomposition.hpp"

namespace fft3d {

// `height` rows of `width` contiguous values: row r from src_offset + r*src_pitch of GPU `from`'s buffer to
// dst_offset + r*dst_pitch of GPU `to`'s buffer.
struct PlaneCopy {
  int from = 0;
  int to = 0;
  std::int64_t src_offset = 0;
  std::int64_t src_pitch = 0;
  std::int64_t dst_offset = 0;
  std::int64_t dst_pitch = 0;
  std::int64_t width = 0;
  std::int64_t height = 0;
  friend bool operator==(const PlaneCopy&, const PlaneCopy&) = default;
};

// z slabs -> y slabs: planes [z0, z1) of GPU `from`'s z slab, one copy to every GPU h (h = from included): the rows
// y in [h*NY/G, (h+1)*NY/G) of each plane, to planes from*NZ/G + z of h's y slab.
// @pre 0 <= z0 <= z1 <= NZ/G.
std::vector<PlaneCopy> to_y_slab_copies(const SlabDecomposition& d, int from, std::int64_t z0, std::int64_t z1);

// y slabs -> z slabs: planes [z0, z1) of GPU `to`'s z slab, one copy from every GPU g: g's rows of those planes,
// read from planes to*NZ/G + z of g's y slab.
// @pre 0 <= z0 <= z1 <= NZ/G.
std::vector<PlaneCopy> to_z_slab_copies(const SlabDecomposition& d, int to, std::int64_t z0, std::int64_t z1);

// Runs copies between host buffers (buffers[g] is GPU g's): the CPU model of an exchange, for tests.
template <typename T>
void run_copies(const std::vector<PlaneCopy>& copies, const std::vector<const T*>& sources,
                const std::vector<T*>& destinations) {
  for (const PlaneCopy& c : copies)
    for (std::int64_t r = 0; r < c.height; ++r)
      for (std::int64_t i = 0; i < c.width; ++i)
        destinations[c.to][c.dst_offset + r * c.dst_pitch + i] = sources[c.from][c.src_offset + r * c.src_pitch + i];
}

}  // namespace fft3d
