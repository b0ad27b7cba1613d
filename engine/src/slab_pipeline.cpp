#include "fft3d/slab_pipeline.hpp"

#include <algorithm>

namespace fft3d {

std::int64_t slab_chunk_planes(const SlabDecomposition& units, std::int64_t min_bytes) {
  if (min_bytes == 0) min_bytes = slab_chunk_min_bytes;
  const std::int64_t planes = units.z_slab().nz;
  std::int64_t chunks = slab_pipeline_chunks;
  while (chunks > 1 && units.local_elements() * exchange_unit_bytes / chunks < min_bytes) chunks /= 2;
  return std::max<std::int64_t>(1, planes / std::min(chunks, planes));
}

std::int64_t column_row_chunks(const SlabDecomposition& units, SlabLayout layout, bool one_launch_per_plane_chunk,
                               std::int64_t min_bytes) {
  if (layout != SlabLayout::natural) return 1;
  if (min_bytes == 0) min_bytes = column_chunk_min_bytes;
  const std::int64_t rows = units.y_slab().ny;
  std::int64_t chunks = column_pipeline_chunks;
  if (one_launch_per_plane_chunk) chunks = std::min<std::int64_t>(chunks, max_slab_gpus / units.gpus);
  while (chunks > 1 && (rows % chunks != 0 || units.local_elements() * exchange_unit_bytes / chunks < min_bytes))
    chunks /= 2;
  return chunks;
}

SlabExchange one_process_exchange(SlabExchange asked, int gpus) {
  constexpr int copy_engines_up_to_gpus = 2;
  if (asked != SlabExchange::automatic) return asked;
  return gpus <= copy_engines_up_to_gpus ? SlabExchange::copy_engines : SlabExchange::peer_stores;
}

SlabPipeline one_process_pipeline(const SlabDecomposition& units, SlabLayout layout, SlabExchange asked,
                                  std::int64_t min_chunk_bytes) {
  SlabPipeline p;
  p.exchange = one_process_exchange(asked, units.gpus);
  p.chunk_planes = slab_chunk_planes(units, min_chunk_bytes);
  if (p.exchange != SlabExchange::nccl)
    p.row_chunks = column_row_chunks(units, layout, p.exchange == SlabExchange::peer_stores, min_chunk_bytes);
  return p;
}

namespace {

bool holds_axis(const Kernel& kernel, Axis axis) {
  return std::any_of(kernel.subs.begin(), kernel.subs.end(),
                     [axis](const SubComputation& s) { return s.axis == axis; });
}

}  // namespace

std::optional<SlabLastKernelApart> slab_last_kernel_apart(const SlabDecomposition& d, std::int64_t chunk_planes,
                                                          std::int64_t row_chunks) {
  const std::vector<Kernel>& kernels = d.slab.kernels;
  const std::int64_t rows = d.size.ny / d.gpus;
  if (d.kind != TransformKind::c2c || kernels.size() < 2 || rows % row_chunks != 0) return std::nullopt;
  const Kernel& last = kernels.back();
  const bool only_x = std::all_of(last.subs.begin(), last.subs.end(),
                                  [](const SubComputation& s) { return s.axis == Axis::x; });
  const bool x_before = std::any_of(kernels.begin(), kernels.end() - 1,
                                    [](const Kernel& k) { return holds_axis(k, Axis::x); });
  if (!only_x || x_before) return std::nullopt;
  SlabLastKernelApart apart{d.slab, d.slab, d.slab};
  apart.y_part.size.nz = chunk_planes;
  apart.y_part.axes = {Axis::y};
  apart.y_part.kernels.pop_back();
  for (Plan* x : {&apart.x_own, &apart.x_peers}) {
    x->size = {d.size.nx, rows, 1};
    x->axes = {Axis::x};
    x->kernels = {last};
    x->batch = chunk_planes;
  }
  apart.x_own.size.ny = rows / row_chunks;
  return apart;
}

}  // namespace fft3d
