// Rule: the tile of one axis (kernel_spec.hpp). Whole butterfly groups of every stage of the axis, and along X
// whole aligned 16-element (128-byte) chunks so every global access of a warp is a full transaction.
#include <algorithm>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

constexpr std::int64_t chunk = 16;  // complex fp32 values per 128-byte segment

void push_mode(std::vector<TileMode>& modes, std::int64_t extent, std::int64_t stride) {
  if (extent > 1) modes.push_back({extent, stride});
}

// Stages of `axis` in this kernel, in kernel order.
std::vector<SubComputation> stages_in(const Kernel& kernel, Axis axis) {
  std::vector<SubComputation> stages;
  for (const SubComputation& sub : kernel.subs)
    if (sub.axis == axis) stages.push_back(sub);
  return stages;
}

// X with stages: T >= 16 takes 16 consecutive j per chunk and S/T chunks at stride T; T < 16 takes whole groups
// (contiguous runs of S) until a chunk is full.
AxisTile tile_x_with_stages(std::int64_t n, std::int64_t span, std::int64_t stride) {
  AxisTile tile;
  tile.length = n;
  if (stride >= chunk) {
    push_mode(tile.tile, chunk, 1);
    push_mode(tile.tile, span / stride, stride);
    push_mode(tile.grid, stride / chunk, chunk);
    push_mode(tile.grid, n / span, span);
  } else {
    const std::int64_t groups = std::max<std::int64_t>(1, std::min(chunk, n) / span);
    push_mode(tile.tile, stride, 1);
    push_mode(tile.tile, span / stride, stride);
    push_mode(tile.tile, groups, span);
    push_mode(tile.grid, n / (span * groups), span * groups);
  }
  return tile;
}

// An axis without stages: one position (Y, Z), one chunk (X), or, when X is shorter than a chunk, enough Y rows
// to fill one 128-byte segment.
AxisTile tile_without_stages(const Plan& plan, Axis axis) {
  const std::int64_t n = plan.size[axis];
  std::int64_t extent = 1;
  if (axis == Axis::x) extent = std::min(chunk, n);
  if (axis == Axis::y && plan.size.nx < chunk) extent = std::min(n, chunk / plan.size.nx);
  AxisTile tile;
  tile.axis = axis;
  tile.length = n;
  push_mode(tile.tile, extent, 1);
  push_mode(tile.grid, n / extent, extent);
  return tile;
}

}  // namespace

AxisTile tile_axis(const Plan& plan, const Kernel& kernel, Axis axis) {
  const std::vector<SubComputation> stages = stages_in(kernel, axis);
  if (stages.empty()) return tile_without_stages(plan, axis);
  const std::int64_t n = plan.size[axis];
  const std::int64_t span = stages.front().span;
  const std::int64_t stride = stages.back().stride;
  if (axis == Axis::x) return tile_x_with_stages(n, span, stride);
  AxisTile tile;
  tile.axis = axis;
  tile.length = n;
  push_mode(tile.tile, span / stride, stride);
  push_mode(tile.grid, stride, 1);
  push_mode(tile.grid, n / span, span);
  return tile;
}

}  // namespace fft3d::lowering
