// Rule: natural order of an X axis split over two kernels, without the digit-reversal pass (out of place): the
// sorted layout (sorted_layout.cpp) on X. The first kernel's stage (radix N1 at stride N2) leaves frequency k1 of
// group n2 at n2 + N2*k1; the last kernel's (radix N2, contiguous groups) leaves frequency k1 + N1*k2 at k2 + N2*k1.
// So the first kernel stores position n2 + N2*k1 at its sorted place k1 + N1*n2 (frequency_at_position), and the
// last kernel loads and stores there: what its stage leaves at k2 + N2*k1 lands at k1 + N1*k2, natural order.
// Coalescing: the first kernel's tile holds 16 consecutive n2 (one 128-byte run) by all N1 values of k1, so each n2
// stores N1 consecutive positions; the last kernel's tile takes 16 consecutive groups (16 consecutive k1,
// gather_x_groups), so each k2 (or n2) covers 16 consecutive positions. Both walk their X tile's two modes swapped
// in the load and store phases (AxisTile::swapped_walk), so a warp's threads touch consecutive positions; those
// phases replace the passes' own global accesses. In place the first kernel's stores land in rows other tiles have
// yet to load: such runs keep the reorder pass.
// Why not permute X in the first kernel's natural order: its runs are 16 values of n2, which the frequency order
// scatters N1 apart; nor in the last pass's stores: a warp's butterflies hold one group.
// Spread tiles (up to the portable cluster) keep the 16 groups in every part (KernelSpec::part_digit_bound) and walk
// within each part, so a part's stores are runs of its share of k1 (first kernel) or of the 16 groups (last).
// Contract: X a power of two, a complex plan.
#include <algorithm>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

constexpr std::int64_t segment_groups = 16;  // complex fp32 values in one 128-byte segment: the k1 a warp row covers

std::vector<int> x_kernels(const Plan& plan) {
  std::vector<int> kernels;
  for (int k = 0; k < static_cast<int>(plan.kernels.size()); ++k)
    if (std::any_of(plan.kernels[k].subs.begin(), plan.kernels[k].subs.end(),
                    [](const SubComputation& sub) { return sub.axis == Axis::x; }))
      kernels.push_back(k);
  return kernels;
}

bool is_power_of_two(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// The X tile of two modes {a:1, b:stride}.
bool two_modes(const AxisTile& x, std::int64_t first_extent, std::int64_t second_stride) {
  return x.tile.size() == 2 && x.tile[0].stride == 1 && x.tile[0].extent == first_extent &&
         x.tile[1].stride == second_stride;
}

// Sorted X with the swapped walk, the passes' global accesses off (the phases walk), the layout chosen again.
void sort_x(KernelSpec& spec, const std::vector<std::int64_t>& radices, bool loads, const ArchProfile& profile) {
  AxisTile& x = spec.axes[axis_index(Axis::x)];
  x.sorted_radices = radices;
  x.sorted_loads = loads;
  x.swapped_walk = true;
  if (loads) spec.load_in_first_pass = false;
  spec.store_in_last_pass = false;
  spec.shared = choose_shared_layout(spec, profile);
  spec.shared_bytes = 2 * spec.shared.words * spec.real_bytes();
}

}  // namespace

void gather_x_groups(const Plan& plan, int kernel_index, KernelSpec& spec, const ArchProfile& profile) {
  const std::vector<int> kernels = x_kernels(plan);
  if (kernels.size() != 2 || kernels.back() != kernel_index || !is_power_of_two(plan.size.nx)) return;
  AxisTile& x = spec.axes[axis_index(Axis::x)];
  if (x.tile.size() != 1 || x.tile.front().stride != 1) return;  // one group of the last stage, contiguous
  const std::int64_t span = x.tile.front().extent;
  if (span < segment_groups || x.length / span < segment_groups) return;
  const std::int64_t gathered = spec.tile_elements * segment_groups;
  if (gathered * spec.complex_bytes() > part_bytes_limit(profile) * profile.max_cluster_size) return;
  x.tile.push_back({segment_groups, span});
  spec.part_digit_bound = span;  // spread, every part keeps the 16 groups
  x.grid.clear();
  if (x.length > span * segment_groups) x.grid.push_back({x.length / (span * segment_groups), span * segment_groups});
  spec.tile_elements = gathered;
  spec.tiles /= segment_groups;
}

bool sort_x_over_two_kernels(const Plan& plan, LoweredPlan& lowered, const std::vector<std::int64_t>& radices,
                             const ArchProfile& profile) {
  const std::vector<int> kernels = x_kernels(plan);
  if (kernels.size() != 2 || radices.size() != 2) return false;
  KernelSpec& first = lowered.kernels[kernels.front()];
  KernelSpec& last = lowered.kernels[kernels.back()];
  const std::int64_t n1 = radices.front(), n2 = radices.back();
  if (!two_modes(first.axes[axis_index(Axis::x)], first.x_run_elements, n2) ||
      !two_modes(last.axes[axis_index(Axis::x)], n2, n2) || !tile::part_walk_modes(first) ||
      !tile::part_walk_modes(last) || first.tiles_per_cluster() > 1 || last.tiles_per_cluster() > 1 ||
      n1 < segment_groups)
    return false;
  const KernelSpec first_before = first, last_before = last;
  sort_x(first, radices, false, profile);
  sort_x(last, radices, true, profile);
  if (tile::check_coalescing(first).coalesced() && tile::check_coalescing(last).coalesced()) return true;
  first = first_before;
  last = last_before;
  return false;
}

}  // namespace fft3d::lowering
