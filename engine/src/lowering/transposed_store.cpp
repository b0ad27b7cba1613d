// Rule: the transposed store. A 1D plan in two steps, {X(G, R, G, N, tw)} then the G-point groups in the last
// kernel (N = R * G), leaves frequency k1 + R * k2 at position k1 * G + k2, and natural order has taken the
// digit-reversal pass: a third pass over the volume, through a workspace. Where the last kernel's tile can hold T
// consecutive groups (T = 16, else 8: runs of 128 or 64 bytes), it stores natural order itself: position p goes to
// frequency_at_position(p, [R, ...]), and the store walks the tile so that consecutive slots take consecutive groups
// (tile::transposed_store_element): each warp writes runs of T consecutive frequencies. Those stores land anywhere in
// the volume, so the kernels run in a workspace and the last one stores into the output (both placements): two
// passes and the same one-volume workspace as the reorder pass. Why: the pass cost a third of a 1D transform
// (docs/performance.md, "1D: three passes"); taken in fp32 from the profile's measured minimum volume.
#include <array>

#include "fft3d/index_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

// Runs of frequencies the store may take, longest first: 128 and 64 bytes of fp32 complex (whole sectors).
constexpr std::array<std::int64_t, 2> store_runs{16, 8};

bool has_stages(const Plan& plan, Axis axis) { return !stages_of(plan, axis).empty(); }

// Whether every X stage but the first lies in kernel `index`, and the first before it.
bool holds_all_x_stages_but_the_first(const Plan& plan, int index) {
  std::size_t here = 0, before = 0;
  for (int k = 0; k < static_cast<int>(plan.kernels.size()); ++k)
    for (const SubComputation& sub : plan.kernels[static_cast<std::size_t>(k)].subs)
      if (sub.axis == Axis::x) (k == index ? here : before) += 1;
  return before == 1 && here >= 1;
}

// Whether the plan's last kernel `index` may take the transposed store: a C2C run of one volume, X the only axis with
// stages, all but its first in the kernel; in fp32 from the profile's minimum volume, since below it and in fp64
// the grown kernel cost more than the pass it saves (docs/performance.md, L195).
bool may_store_transposed(const Plan& plan, int index, const KernelSpec& spec, const ArchProfile& profile,
                          bool complex_run) {
  const bool measured_faster = spec.precision == Precision::fp32 && profile.transposed_store_min_elements > 0 &&
                               plan.size.elements() >= profile.transposed_store_min_elements;
  const bool last_kernel = index + 1 == static_cast<int>(plan.kernels.size());
  return measured_faster && complex_run && plan.batch == 1 && last_kernel && !has_stages(plan, Axis::y) &&
         !has_stages(plan, Axis::z) && holds_all_x_stages_but_the_first(plan, index);
}

}  // namespace

void mark_transposed_store(const Plan& plan, int index, KernelSpec& spec, const ArchProfile& profile,
                           bool complex_run) {
  if (!may_store_transposed(plan, index, spec, profile, complex_run)) return;
  AxisTile& x = spec.axes[axis_index(Axis::x)];
  const std::int64_t groups = stages_of(plan, Axis::x).front().radix;  // R: one group per output k1
  const std::int64_t group = x.length / groups;                          // G: the values of one group
  const bool one_group_a_tile = x.tile.size() == 1 && x.tile.front().stride == 1 && x.extent() == group &&
                                spec.axes[1].extent() == 1 && spec.axes[2].extent() == 1 && !spec.masks_x() &&
                                x.cluster_reversal_radices.empty();
  if (!one_group_a_tile) return;
  for (const std::int64_t run : store_runs) {
    // One block holds the tile (the store walks all of it): within a part's limit, so no cluster spreads it.
    if (groups % run != 0 || run * group * spec.complex_bytes() > part_bytes_limit(profile)) continue;
    x.tile = {{run * group, 1}};
    x.grid.clear();
    if (groups > run) x.grid = {{groups / run, run * group}};
    x.workspace_reversal_radices = radices_of(plan, Axis::x);
    spec.transposed_store_run = run;
    spec.tile_elements = run * group;
    spec.tiles = x.tiles();
    return;
  }
}

}  // namespace fft3d::lowering
