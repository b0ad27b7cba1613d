// Rule: the sorted layout. An axis whose stages span kernels ends digit-reversed, and its natural order costs the
// digit-reversal pass (a third pass for a two-pass plan, and a workspace) unless a cluster holds all its tiles.
// Along Y and Z there is a cheaper way. The first kernel stores position p of the axis at f(p) =
// frequency_at_position(p, radices), the frequency the axis's DIF stages will leave at p; every later kernel with
// stages of the axis loads and stores at f(p) (the same rows it reads), so what the last stage leaves at p lies at
// f(p): natural order. f only moves whole rows (Y) or planes (Z), so every access stays whole 128-byte X runs; it
// is a bit permutation, so it adds over disjoint bit fields and the emitter keeps its constant-offset loads. X keeps
// the other forms (a permutation along X would split the runs), except an X split over two kernels whose tiles walk
// the sorted positions in runs (x_transposed_store.cpp), which this rule then combines with Y's and Z's layouts.
// Out of place the first kernel reads the input and writes `out`, so its stores may go anywhere. In place they land
// on rows other tiles have yet to load; the tiles that differ only along the sorted axes load exactly the rows they
// store. The first kernel walks the sorted axes' tiles first (KernelSpec::grid_order), so those tiles are
// consecutive blocks, and when they fit one cluster of the profile (up to its opt-in size: 16 on an H100, where a
// launch of more than the portable 8 asks for it) it runs in such clusters, every block loading before any stores.
// Otherwise in place keeps the reorder pass.
// Why: the two-pass plans that split Y ({X whole, Y part} {Y rest, Z whole}) need no exchange between tiles, but a
// reorder pass made them slower than three whole-line passes; sorted, they are faster (1024x256x256 in place: 1.07 ms
// sorted, 1.66 with the reorder pass, 1.17 in three passes). Measured: docs/performance.md, ledger "sorted layout".
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

// The grid order that walks the sorted axes' tiles first (then the others in their usual order), and the tiles of
// those axes: consecutive blocks that together load the rows they store.
std::array<Axis, 3> sorted_axes_first(const KernelSpec& spec) {
  std::array<Axis, 3> order{};
  std::size_t next = 0;
  for (bool sorted : {true, false})
    for (const AxisTile& axis : spec.axes)
      if (axis.sorted_radices.empty() != sorted) order[next++] = axis.axis;
  return order;
}

std::int64_t tiles_of_sorted_axes(const KernelSpec& spec) {
  std::int64_t tiles = 1;
  for (const AxisTile& axis : spec.axes)
    if (!axis.sorted_radices.empty()) tiles *= axis.tiles();
  return tiles;
}

}  // namespace

void mark_sorted_layouts(const Plan& plan, LoweredPlan& lowered, const ArchProfile& profile) {
  lowered.sorted_layout = lowered.sorted_layout_in_place = false;
  if (!lowered.reorder) return;
  const std::vector<std::int64_t>& x_radices = lowered.reorder->reorder_radices[axis_index(Axis::x)];
  const bool x_sorted = !x_radices.empty();
  if (x_sorted && !sort_x_over_two_kernels(plan, lowered, x_radices, profile)) return;
  for (Axis axis : {Axis::y, Axis::z}) {
    const std::vector<std::int64_t>& radices = lowered.reorder->reorder_radices[axis_index(axis)];
    if (radices.empty()) continue;
    for (std::size_t k = 0; k < lowered.kernels.size(); ++k) {
      bool has_stage = false;
      for (const SubComputation& sub : plan.kernels[k].subs) has_stage |= sub.axis == axis;
      if (k > 0 && !has_stage) continue;  // a kernel without the axis's stages reads and writes the same rows
      AxisTile& tile = lowered.kernels[k].axes[axis_index(axis)];
      tile.sorted_radices = radices;
      tile.sorted_loads = k > 0;
    }
  }
  lowered.sorted_layout = true;
  if (x_sorted) return;  // X's first kernel stores into rows other tiles load: in place keeps the reorder pass
  KernelSpec& first = lowered.kernels.front();
  const std::int64_t cluster = tiles_of_sorted_axes(first);
  if (first.cluster_blocks == 1 && cluster > 1 && cluster <= profile.max_cluster_size_opt_in) {
    first.sorted_store_cluster = static_cast<int>(cluster);
    first.grid_order = sorted_axes_first(first);
    lowered.sorted_layout_in_place = true;
  }
}

}  // namespace fft3d::lowering
