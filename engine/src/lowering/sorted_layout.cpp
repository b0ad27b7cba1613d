// Rule: the sorted layout. An axis whose stages span kernels ends digit-reversed, and its natural order costs the
// digit-reversal pass (a third pass for a two-pass plan, and a workspace) unless a cluster holds all its tiles.
// Along Y and Z there is a cheaper way. The first kernel stores position p of the axis at f(p) =
// frequency_at_position(p, radices), the frequency the axis's DIF stages will leave at p; every later kernel with
// stages of the axis loads and stores at f(p) (the same rows it reads), so what the last stage leaves at p lies at
// f(p): natural order. f only moves whole rows (Y) or planes (Z), so every access stays whole 128-byte X runs; it
// is a bit permutation, so it adds over disjoint bit fields and the emitter keeps its constant-offset loads. X keeps
// the other forms: a permutation along X would split the runs.
// Out of place the first kernel reads the input and writes `out`, so its stores may go anywhere. In place they land
// on rows other tiles have yet to load; the tiles that differ only along the sorted axes load exactly the rows they
// store. The first kernel walks the sorted axes' tiles first (KernelSpec::grid_order), so those tiles are
// consecutive blocks, and when they fit one cluster of the profile (up to its opt-in size: 16 on an H100, where a
// launch of more than the portable 8 asks for it) it runs in such clusters, every block loading before any stores.
// Where the first kernel's tiles cannot (a tile spread over a cluster already, or too many tiles along the sorted
// axes), the late form: in place the kernels before the last one with the sorted axes' stages load and store
// natural positions, and that kernel loads natural positions and stores sorted ones, its sorted axes' tiles walked
// first and run in clusters as above. Out of place nothing changes. Otherwise in place keeps the reorder pass.
// Why: the two-pass plans that split Y ({X whole, Y part} {Y rest, Z whole}) need no exchange between tiles, but a
// reorder pass made them slower than three whole-line passes; sorted, they are faster (docs/performance.md, L32).
// The late form serves the C2R mirrors, whose first kernel holds the large tile and whose last holds small ones.
#include <functional>
#include <optional>

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

// Runs `spec`'s sorted stores in place in clusters of its sorted axes' tiles, where they form one: one-block tiles,
// no other cluster, more than one tile and at most the profile's opt-in cluster size. False where they do not.
bool cluster_sorted_stores(KernelSpec& spec, const ArchProfile& profile) {
  const std::int64_t cluster = tiles_of_sorted_axes(spec);
  if (spec.cluster_blocks != 1 || cluster <= 1 || cluster > profile.max_cluster_size_opt_in) return false;
  spec.sorted_store_cluster = static_cast<int>(cluster);
  spec.grid_order = sorted_axes_first(spec);
  return true;
}

// The last kernel holding stages of every sorted axis, where it is the last kernel with stages of each (the late
// form's kernel); none where the sorted axes end in different kernels.
std::optional<std::size_t> last_sorting_kernel(const Plan& plan, const LoweredPlan& lowered) {
  std::optional<std::size_t> last;
  for (std::size_t k = 1; k < lowered.kernels.size(); ++k)
    for (const AxisTile& axis : lowered.kernels[k].axes)
      if (!axis.sorted_radices.empty()) last = k;
  if (!last) return std::nullopt;
  for (const AxisTile& axis : lowered.kernels.front().axes) {
    if (axis.sorted_radices.empty()) continue;
    bool has_stage = false;
    for (const SubComputation& sub : plan.kernels[*last].subs) has_stage |= sub.axis == axis.axis;
    if (!has_stage) return std::nullopt;
  }
  return last;
}

}  // namespace

void mark_sorted_layouts(const Plan& plan, LoweredPlan& lowered, const ArchProfile& profile,
                         const std::function<bool(std::size_t)>& late_form_allowed) {
  lowered.sorted_layout = lowered.sorted_layout_in_place = lowered.sorts_late_in_place = false;
  if (!lowered.reorder || !lowered.reorder->reorder_radices[axis_index(Axis::x)].empty()) return;
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
  if (cluster_sorted_stores(lowered.kernels.front(), profile)) {
    lowered.sorted_layout_in_place = true;
    return;
  }
  const std::optional<std::size_t> late = last_sorting_kernel(plan, lowered);
  if (late && late_form_allowed(*late) && cluster_sorted_stores(lowered.kernels[*late], profile))
    lowered.sorted_layout_in_place = lowered.sorts_late_in_place = true;
}

}  // namespace fft3d::lowering
