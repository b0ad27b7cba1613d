// The butterflies of one sub-computation over the whole volume, as nested loops over memory addresses, and the
// thread split of those loops. Private to the CPU backend.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "parallel_for.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::cpu {

// A volume in memory, X contiguous: element (x, y, z) of `extents` lives at x + row_pitch * (y + ny * z). A dense
// volume has row_pitch == nx; the X stages of a real transform run on the first NX/2 columns of rows NX/2 + 1 long.
struct VolumeLayout {
  VolumeLayout(const Extents& dense) : extents(dense), row_pitch(dense.nx) {}  // NOLINT: a dense volume
  VolumeLayout(const Extents& columns, std::int64_t pitch) : extents(columns), row_pitch(pitch) {}

  Extents extents;
  std::int64_t row_pitch = 1;  // >= extents.nx
};

// One loop over butterflies: `extent` iterations, each moving the butterfly's address by `step` and its offset j
// (the twiddle's j) by `offset_step`.
struct ButterflyLoop {
  std::int64_t extent = 1;
  std::int64_t step = 0;
  std::int64_t offset_step = 0;
};

// A run of `count` butterflies along the batch loop: the b-th has point 0 at address base + b*batch.step and the
// offset j = offset + b*batch.offset_step.
struct ButterflyBatch {
  std::int64_t base = 0;
  std::int64_t offset = 0;
  std::int64_t count = 0;
};

// Every butterfly of a sub-computation A(count, radix, stride, span) of `layout`: for each line along A, group g and
// offset j, the points at address line + (g*span + j + k*stride)*step(A), k < radix. The loop with the smallest
// memory step is the batch loop, so a batch reads `points` short contiguous runs (columns of X for Y and Z stages,
// offsets j for X stages): that keeps Y and Z stages cache friendly.
struct ButterflyLoops {
  std::int64_t points = 1;      // the radix
  std::int64_t point_step = 0;  // address distance of points k and k+1
  std::int64_t batch_size = 1;  // butterflies per batch (the last batch of a batch loop may have fewer)
  ButterflyLoop batch;
  std::vector<ButterflyLoop> outer;  // smallest step first

  // @post batches() * batch_size >= number of butterflies (== when batch_size divides batch.extent)
  std::int64_t batches() const;
  // @pre 0 <= index < batches(); batch index + 1 is the next batch along the batch loop, then along outer[0], ...
  ButterflyBatch batch_at(std::int64_t index) const;
};

// @pre radix * stride == span, span divides layout.extents[axis]; max_batch >= 1
// @post points == radix; batch_size <= max_batch
ButterflyLoops butterfly_loops(const VolumeLayout& layout, Axis axis, std::int64_t radix, std::int64_t stride,
                               std::int64_t span, std::int64_t max_batch);

// The memory distance between neighbours along `axis`: 1, row_pitch or row_pitch*ny.
std::int64_t axis_step(const VolumeLayout& layout, Axis axis);

}  // namespace fft3d::cpu
