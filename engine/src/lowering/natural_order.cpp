// Rule: natural order. The DIF stages leave each axis digit-reversed. Where the natural-order store undoes that:
// - inside the tile, when one kernel holds every stage of the axis (its tile holds the whole axis);
// - across a thread-block cluster, when the kernel holding the axis's last stage can take as one cluster all the
//   tiles of the axes up to this one (at most the profile's portable cluster size): the store writes each value to
//   its frequency's global position, which stays within the positions the cluster loaded;
// - otherwise in a digit-reversal pass after the last kernel (through a workspace), and explain says so. Where
//   that pass reverses X, consecutive frequencies lie N/r1 positions apart (r1 the first radix), so it transposes
//   tiles of runs of both through shared memory (reorder_tile): a gather would read one value a sector.
#include <algorithm>

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

// The transpose tile's side: 32 values (256 bytes in fp32), one warp's walk along a run.
constexpr std::int64_t transpose_side = 32;
constexpr int gather_threads = 256;  // the pass has no stage tile: its block size is its own, not the profile's
// Tiles under a gather's block of values take the gather: 4-frequency runs (32-byte stores) transposed slower than
// it gathered (docs/performance.md, L110). Such a tile keeps both runs at 8 values (64 bytes) or more.
constexpr std::int64_t smallest_transpose_tile = gather_threads;

// The longest run up to transpose_side values that divides the radix (tiles must not straddle a digit).
std::int64_t run_within(std::int64_t radix) {
  for (std::int64_t run = std::min(transpose_side, radix); run > 1; --run)
    if (radix % run == 0) return run;
  return 1;
}

ReorderTile x_transpose_tile(const std::vector<std::int64_t>& x_radices) {
  if (x_radices.size() < 2) return {};
  const ReorderTile tile{run_within(x_radices.front()), run_within(x_radices.back())};
  if (tile.elements() < smallest_transpose_tile) return {};
  return tile;
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
  pass.size = plan.size;  // the volume's, whatever plan the first kernel lowered from (padded rows or columns)
  pass.volume_nx = 0;
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
  pass.blocks_per_multiprocessor = 1;  // the first kernel's spread parts say nothing of this pass's blocks
  bool needed = false;
  for (Axis axis : all_axes) {
    std::vector<std::int64_t> radices = radices_of(plan, axis);
    bool reversed_by_a_kernel = false;
    for (const KernelSpec& spec : kernels) {
      const AxisTile& tile = spec.axes[axis_index(axis)];
      reversed_by_a_kernel |= !tile.reversal_radices.empty() || !tile.cluster_reversal_radices.empty() ||
                              !tile.workspace_reversal_radices.empty();
    }
    if (radices.size() > 1 && !reversed_by_a_kernel) {
      pass.reorder_radices[axis_index(axis)] = std::move(radices);
      needed = true;
    }
  }
  if (!needed) return std::nullopt;
  pass.reorder_tile = x_transpose_tile(pass.reorder_radices[axis_index(Axis::x)]);
  pass.threads = gather_threads;
  const std::int64_t block_elements = pass.reorder_tile.transposes() ? pass.reorder_tile.elements() : pass.threads;
  pass.tiles = (plan.size.elements() + block_elements - 1) / block_elements;
  return pass;
}

}  // namespace fft3d::lowering
