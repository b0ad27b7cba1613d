#include "cpu_loops.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

namespace fft3d::cpu {

std::int64_t axis_step(const VolumeLayout& layout, Axis axis) {
  switch (axis) {
    case Axis::x: return 1;
    case Axis::y: return layout.row_pitch;
    case Axis::z: return layout.row_pitch * layout.extents.ny;
  }
  return 1;
}

ButterflyLoops butterfly_loops(const VolumeLayout& layout, Axis axis, std::int64_t radix, std::int64_t stride,
                               std::int64_t span, std::int64_t max_batch) {
  const Extents& size = layout.extents;
  const std::int64_t step = axis_step(layout, axis);
  std::vector<ButterflyLoop> loops;
  for (Axis other : all_axes)
    if (other != axis) loops.push_back({size[other], axis_step(layout, other), 0});
  loops.push_back({size[axis] / span, span * step, 0});  // groups g
  loops.push_back({stride, step, 1});                     // offsets j
  std::erase_if(loops, [](const ButterflyLoop& loop) { return loop.extent == 1; });
  std::stable_sort(loops.begin(), loops.end(),
                   [](const ButterflyLoop& a, const ButterflyLoop& b) { return a.step < b.step; });

  ButterflyLoops result;
  result.points = radix;
  result.point_step = stride * step;
  if (!loops.empty()) {
    result.batch = loops.front();
    result.outer.assign(loops.begin() + 1, loops.end());
  }
  result.batch_size = std::clamp<std::int64_t>(result.batch.extent, 1, max_batch);
  return result;
}

std::int64_t ButterflyLoops::batches() const {
  std::int64_t count = (batch.extent + batch_size - 1) / batch_size;
  for (const ButterflyLoop& loop : outer) count *= loop.extent;
  return count;
}

ButterflyBatch ButterflyLoops::batch_at(std::int64_t index) const {
  const std::int64_t chunks = (batch.extent + batch_size - 1) / batch_size;
  const std::int64_t first = index % chunks * batch_size;
  ButterflyBatch result{first * batch.step, first * batch.offset_step, std::min(batch_size, batch.extent - first)};
  index /= chunks;
  for (const ButterflyLoop& loop : outer) {
    const std::int64_t i = index % loop.extent;
    index /= loop.extent;
    result.base += i * loop.step;
    result.offset += i * loop.offset_step;
  }
  return result;
}

}  // namespace fft3d::cpu
