// Rule: the tile of one axis (kernel_spec.hpp). Whole butterfly groups of every stage of the axis, and along X
// whole aligned 16-element (128-byte) chunks so every global access of a warp is a full transaction. Where the X
// groups cannot make whole chunks (an X length or group that is not a multiple of 16, e.g. 100 or 243), the tile
// takes whole X rows, which then share their first and last 128-byte segments with the neighbouring rows.
// Why whole rows: a row is the longest contiguous run the volume offers, so it has the fewest shared segments.
#include <algorithm>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

constexpr std::int64_t sector_bytes = 32;  // the L2's unit of a global access

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

// X with stages: T a multiple of 16 takes 16 consecutive j per chunk and S/T chunks at stride T; otherwise whole
// groups (contiguous runs of S) until a chunk is full, or the whole row where such groups do not make whole chunks.
AxisTile tile_x_with_stages(std::int64_t n, std::int64_t span, std::int64_t stride) {
  AxisTile tile;
  tile.length = n;
  if (stride % x_chunk == 0) {
    push_mode(tile.tile, x_chunk, 1);
    push_mode(tile.tile, span / stride, stride);
    push_mode(tile.grid, stride / x_chunk, x_chunk);
    push_mode(tile.grid, n / span, span);
  } else {
    std::int64_t groups = std::max<std::int64_t>(1, std::min(x_chunk, n) / span);
    const std::int64_t run = span * groups;
    if (n % run != 0 || (run % x_chunk != 0 && run != n)) groups = n / span;  // the whole row
    push_mode(tile.tile, stride, 1);
    push_mode(tile.tile, span / stride, stride);
    push_mode(tile.tile, groups, span);
    push_mode(tile.grid, n / (span * groups), span * groups);
  }
  return tile;
}

// The largest divisor of n that is at most `limit` (min(n, limit) for powers of two).
std::int64_t largest_divisor_at_most(std::int64_t n, std::int64_t limit) {
  for (std::int64_t d = std::min(n, limit); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

}  // namespace

// The X run of a tile without X stages: a chunk where chunks divide the row, else the longest divisor of the row up
// to a chunk whose runs cover whole 32-byte sectors (rows and runs both multiples of a sector: 1000 takes 8, not
// 10), else the longest divisor. Complex plans only: a real plan's half-spectrum rows (NX/2 + 1 values) are not the
// stage plan's rows. Why: a run that ends inside a sector shares it with the next tile's run, and both tiles then
// write part of that sector (docs/performance.md L108).
std::int64_t x_run_without_stages(const Plan& plan, bool real) {
  const std::int64_t n = plan.size.nx;
  const std::int64_t value_bytes = static_cast<std::int64_t>(complex_value_bytes(plan.precision));
  if (!real && n * value_bytes % sector_bytes == 0)
    for (std::int64_t d = std::min(n, x_chunk); d * value_bytes >= sector_bytes; --d)
      if (n % d == 0 && d * value_bytes % sector_bytes == 0) return d;
  return largest_divisor_at_most(n, x_chunk);
}

namespace {

// An axis without stages: one position (Y, Z), one chunk (X; where chunks do not divide the row, the run of
// x_run_without_stages: such runs share segments with the neighbouring tiles' runs), or, when X is shorter than a
// chunk, enough Y rows to fill one 128-byte segment (as many as divide the Y length).
// Why not whole rows here: a tile without X stages holds its Y and Z lines behind each X value, and a whole row of
// a few hundred values times those lines is over a block's shared memory.
AxisTile tile_without_stages(const Plan& plan, Axis axis, bool real) {
  const std::int64_t n = plan.size[axis];
  std::int64_t extent = 1;
  if (axis == Axis::x) extent = x_run_without_stages(plan, real);
  if (axis == Axis::y && plan.size.nx < x_chunk) extent = largest_divisor_at_most(n, x_chunk / plan.size.nx);
  AxisTile tile;
  tile.axis = axis;
  tile.length = n;
  push_mode(tile.tile, extent, 1);
  push_mode(tile.grid, n / extent, extent);
  return tile;
}

}  // namespace

AxisTile tile_axis(const Plan& plan, const Kernel& kernel, Axis axis, bool real) {
  const std::vector<SubComputation> stages = stages_in(kernel, axis);
  if (stages.empty()) return tile_without_stages(plan, axis, real);
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
