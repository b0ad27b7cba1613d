#include "bench/multi_gpu_layout.hpp"

namespace fft3d::bench {

std::vector<SlabPiece> slab_pieces(const Extents& size, int gpus, int rank, SlabLayout layout) {
  const std::int64_t local = size.elements() / gpus;
  if (layout == SlabLayout::natural) return {{0, rank * local, local}};
  const std::int64_t plane = size.nx * size.ny;        // one Z plane of the whole volume
  const std::int64_t share = plane / gpus;             // this rank's Y rows of that plane
  std::vector<SlabPiece> pieces;
  pieces.reserve(static_cast<std::size_t>(size.nz));
  for (std::int64_t z = 0; z < size.nz; ++z) pieces.push_back({z * share, z * plane + rank * share, share});
  return pieces;
}

}  // namespace fft3d::bench
