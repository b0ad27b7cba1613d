// Rule: natural order. The DIF stages leave each axis digit-reversed. Where the natural-order store undoes that:
// - inside the tile, when one kernel holds every stage of the axis (its tile holds the whole axis);
// - across a thread-block cluster, when the kernel holding the axis's last stage can take as one cluster all the
//   tiles of the axes up to this one (at most the profile's portable cluster size): the store writes each value to
//   its frequency's global position, which stays within the positions the cluster loaded;
// - otherwise in a digit-reversal pass after the last kernel (through a workspace), and explain says so.
#include "fft3d/index_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

std::size_t stages_here(const Kernel& kernel, Axis axis) {
  std::size_t here = 0;
  for (const SubComputation& sub : kernel.subs) here += sub.axis == axis;
  return here;
}

bool kernel_holds_every_stage(const Plan& plan, const Kernel& kernel, Axis axis) {
  const std::size_t here = stages_here(kernel, axis);
  return here > 0 && here == stages_of(plan, axis).size();
}

// The kernel holding the axis's last stage (-1 for an axis without stages).
int last_kernel_of(const Plan& plan, Axis axis) {
  int last = -1;
  for (int k = 0; k < static_cast<int>(plan.kernels.size()); ++k)
    if (stages_here(plan.kernels[k], axis) > 0) last = k;
  return last;
}

}  // namespace

void mark_in_tile_reversals(const Plan& plan, const Kernel& kernel, KernelSpec& spec) {
  for (Axis axis : all_axes) {
    std::vector<std::int64_t> radices = radices_of(plan, axis);
    if (radices.size() > 1 && kernel_holds_every_stage(plan, kernel, axis))
      spec.axes[axis_index(axis)].reversal_radices = std::move(radices);
  }
}

void mark_cluster_reversals(const Plan& plan, int kernel_index, KernelSpec& spec, const ArchProfile& profile) {
  std::int64_t tiles_up_to_axis = 1;  // all tiles of X, then of X and Y, ...: consecutive tiles (block order)
  for (Axis axis : all_axes) {
    AxisTile& tile = spec.axes[axis_index(axis)];
    tiles_up_to_axis *= tile.tiles();
    std::vector<std::int64_t> radices = radices_of(plan, axis);
    const bool reversed_here = radices.size() > 1 && tile.reversal_radices.empty() &&
                               last_kernel_of(plan, axis) == kernel_index;
    if (!reversed_here || tiles_up_to_axis > profile.max_cluster_size) continue;
    tile.cluster_reversal_radices = std::move(radices);
    spec.cluster_blocks = static_cast<int>(tiles_up_to_axis);  // one block per tile until distribute_tile.cpp
  }
}

std::optional<KernelSpec> digit_reversal_pass(const Plan& plan, const std::vector<KernelSpec>& kernels) {
  KernelSpec pass = kernels.front();
  pass.role = KernelRole::digit_reversal;
  pass.kernel_index = static_cast<int>(plan.kernels.size());
  pass.kernel = {};
  pass.axes = {};
  pass.stages = {};
  pass.shared = {};
  pass.shared_bytes = 0;
  pass.tile_elements = 0;
  pass.nominal_flops = 0;
  pass.cluster_blocks = 1;
  pass.tile_blocks = 1;
  pass.part_stride = 1;
  bool needed = false;
  for (Axis axis : all_axes) {
    std::vector<std::int64_t> radices = radices_of(plan, axis);
    bool reversed_by_a_kernel = false;
    for (const KernelSpec& spec : kernels) {
      const AxisTile& tile = spec.axes[axis_index(axis)];
      reversed_by_a_kernel |= !tile.reversal_radices.empty() || !tile.cluster_reversal_radices.empty();
    }
    if (radices.size() > 1 && !reversed_by_a_kernel) {
      pass.reorder_radices[axis_index(axis)] = std::move(radices);
      needed = true;
    }
  }
  if (!needed) return std::nullopt;
  pass.threads = 256;  // a gather, one thread per element: no tile, so the profile's block size does not apply
  pass.tiles = (plan.size.elements() + pass.threads - 1) / pass.threads;
  return pass;
}

}  // namespace fft3d::lowering
