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

}  // namespace fft3d
