#include "slab_copies.hpp"

namespace fft3d {

std::vector<PlaneCopy> to_y_slab_copies(const SlabDecomposition& d, int from, std::int64_t z0, std::int64_t z1) {
  const std::int64_t nx = d.spectrum().nx, plane = nx * d.size.ny;
  const std::int64_t rows = d.size.ny / d.gpus, planes = d.size.nz / d.gpus;
  const std::int64_t block = nx * rows;  // one plane's share of one y slab
  std::vector<PlaneCopy> copies;
  for (int to = 0; to < d.gpus; ++to)
    copies.push_back({.from = from, .to = to, .src_offset = z0 * plane + to * block, .src_pitch = plane,
                      .dst_offset = (from * planes + z0) * block, .dst_pitch = block, .width = block,
                      .height = z1 - z0});
  return copies;
}

std::vector<PlaneCopy> to_z_slab_copies(const SlabDecomposition& d, int to, std::int64_t z0, std::int64_t z1) {
  const std::int64_t nx = d.spectrum().nx, plane = nx * d.size.ny;
  const std::int64_t rows = d.size.ny / d.gpus, planes = d.size.nz / d.gpus;
  const std::int64_t block = nx * rows;
  std::vector<PlaneCopy> copies;
  for (int from = 0; from < d.gpus; ++from)
    copies.push_back({.from = from, .to = to, .src_offset = (to * planes + z0) * block, .src_pitch = block,
                      .dst_offset = z0 * plane + from * block, .dst_pitch = plane, .width = block,
                      .height = z1 - z0});
  return copies;
}

std::vector<PlaneCopy> in_row_chunks(const SlabDecomposition& d, const std::vector<PlaneCopy>& copies,
                                     std::int64_t row_chunks, bool to_y_slabs, std::int64_t only) {
  const std::int64_t block = d.spectrum().nx * (d.size.ny / d.gpus);  // one plane's rows of a y slab
  const std::int64_t width = block / row_chunks;                     // one plane's rows of one chunk
  const std::int64_t chunk_values = width * d.size.nz;               // one chunk of every plane
  std::vector<PlaneCopy> pieces;
  for (std::int64_t c = 0; c < row_chunks; ++c) {
    if (only >= 0 && c != only) continue;
    for (PlaneCopy piece : copies) {
      std::int64_t& y_offset = to_y_slabs ? piece.dst_offset : piece.src_offset;
      std::int64_t& y_pitch = to_y_slabs ? piece.dst_pitch : piece.src_pitch;
      std::int64_t& z_offset = to_y_slabs ? piece.src_offset : piece.dst_offset;
      const std::int64_t first_plane = y_offset / block;
      y_offset = c * chunk_values + first_plane * width;
      y_pitch = width;
      z_offset += c * width;
      piece.width = width;
      pieces.push_back(piece);
    }
  }
  return pieces;
}

}  // namespace fft3d
