// Lowering rule: the kernels of a real transform. The plan's stages run on the complex volume (NX/2) x NY x NZ
// exactly as a complex plan of that size lowers (an odd NX: the step's kernel on NX x NY x NZ, or on paired rows;
// padded columns: the other kernels on them; RealKernel); this rule then marks where the real step runs and how
// each kernel carries the half spectrum's Nyquist column (RealKernel), and refuses the tile shapes the real kernels
// do not handle, by name.
#include <algorithm>
#include <string>
#include <vector>

#include "fft3d/transform.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

std::string kernel_name(const KernelSpec& spec) {
  return "kernel " + std::to_string(spec.kernel_index) + " {" + to_string(spec.kernel) + "}";
}

// The kernel with the step holds whole X rows in one block: the step pairs frequency k with NX/2 - k of a row.
void require_whole_rows(const KernelSpec& spec) {
  const AxisTile& x = spec.axes[0];
  const bool whole_rows = x.tile.size() == 1 && x.tile.front() == TileMode{x.length, 1};
  if (x.length > 1 && !whole_rows)
    throw LoweringError(kernel_name(spec) + ": the real step needs whole X rows of " + std::to_string(x.length) +
                        " complex values in each tile; this tile holds " + std::to_string(x.extent()) +
                        " (put every X stage in this kernel)");
  if (spec.tile_blocks > 1)
    throw LoweringError(kernel_name(spec) + ": the real step runs in one block; this tile is spread over " +
                        std::to_string(spec.tile_blocks) + " blocks (choose smaller Y or Z stages in this kernel)");
}

// A kernel without the step walks one more X tile per tile of the other axes; the tiles of a cluster must not
// span X tiles, so that those extra tiles form clusters of their own.
void require_nyquist_tiles_fit(const KernelSpec& spec) {
  const AxisTile& x = spec.axes[0];
  if (x.tile.size() != 1 || x.grid.size() > 1)
    throw LoweringError(kernel_name(spec) + ": a real transform's kernel without X stages needs one contiguous X run "
                        "per tile");
  if (spec.tiles_per_cluster() > 1)
    throw LoweringError(kernel_name(spec) + ": natural order across a cluster of " +
                        std::to_string(spec.tiles_per_cluster()) + " tiles is not offered for real transforms yet");
}

}  // namespace

bool detaches_real_step(const Plan& plan) {
  const std::optional<RealStep> step = real_step_of(plan);
  if (!step || odd_real_rows(plan) || plan.size.ny != 1 || plan.size.nz != 1 || plan.batch != 1) return false;
  for (const Kernel& kernel : plan.kernels)
    if (kernel.real) {
      const auto x_stages = std::count_if(kernel.subs.begin(), kernel.subs.end(),
                                          [](const SubComputation& s) { return s.axis == Axis::x; });
      return static_cast<std::size_t>(x_stages) != stages_of(plan, Axis::x).size();
    }
  return false;
}

KernelSpec real_pass_spec(const Plan& plan, const ArchProfile& profile, const std::string& plan_name) {
  KernelSpec pass;
  pass.role = KernelRole::real_pass;
  pass.plan_name = plan_name;
  pass.plan_hash = stable_hash(plan);
  pass.kernel_index = static_cast<int>(plan.kernels.size()) + 1;  // after the kernels and the reorder pass
  pass.profile = profile.name;
  pass.precision = plan.precision;
  pass.size = stage_extents(plan);
  pass.real.kind = real_step_of(plan)->kind;
  pass.real.half = plan.size.nx / 2;
  pass.threads = real_pass_threads;
  const std::int64_t pairs = pass.real.half / 2 + 1;  // k = 0 .. half/2, each with half - k
  pass.tiles = (pairs + pass.threads - 1) / pass.threads;
  return pass;
}

void require_step_rows_fit(const Plan& plan, const ArchProfile& profile) {
  const std::optional<RealStep> step = real_step_of(plan);
  if (!step) return;
  const std::int64_t row = stage_extents(plan).nx;  // complex values a row of the step's kernel holds
  const auto complex_bytes = static_cast<std::int64_t>(2 * real_value_bytes(plan.precision));
  const std::int64_t limit = part_bytes_limit(profile);
  if (row * complex_bytes <= limit) return;
  std::size_t k = 0;
  while (!plan.kernels[k].real) ++k;
  const std::int64_t longest_even = 2 * (limit / complex_bytes);
  throw LoweringError("kernel " + std::to_string(k) + " {" + to_string(plan.kernels[k]) + "}: " + to_string(*step) +
                      ": the real step holds each row's " + std::to_string(row) + " complex values (" +
                      std::to_string(row * complex_bytes) + " B) in one block, over the " + std::to_string(limit) +
                      " B a tile takes in one block on profile " + profile.name + "; real rows of up to NX = " +
                      std::to_string(longest_even) + " (" + to_string(plan.precision) +
                      ") take a real transform on the GPU, longer ones not yet (the CPU backend takes them; or run C2C)");
}

void keep_real_step_off_global_passes(KernelSpec& spec, const Kernel& real_kernel) {
  if (!real_kernel.real) return;
  if (real_kernel.real_position == 0) spec.load_in_first_pass = false;
  if (real_kernel.real_position == real_kernel.subs.size()) spec.store_in_last_pass = false;
}

Plan complex_stage_plan(const Plan& plan) {
  Plan stages = plan;
  stages.size = stage_extents(plan);
  for (Kernel& kernel : stages.kernels) {
    kernel.real.reset();
    kernel.real_position = 0;
  }
  return stages;
}

Plan half_spectrum_stage_plan(const Plan& plan) {
  Plan stages = complex_stage_plan(plan);
  stages.size.nx = padded_spectrum_columns(plan);
  for (Kernel& kernel : stages.kernels)
    std::erase_if(kernel.subs, [](const SubComputation& s) { return s.axis == Axis::x; });
  return stages;
}

std::int64_t padded_spectrum_columns(const Plan& plan) {
  const std::int64_t columns = plan.size.nx / 2 + 1;
  return columns <= x_chunk ? columns : whole_chunks(columns);
}

bool pairs_real_rows(const Plan& plan) {
  if (!odd_real_rows(plan) || plan.size.nx == 1) return false;
  for (const Kernel& kernel : plan.kernels)
    if (kernel.real)
      return std::all_of(kernel.subs.begin(), kernel.subs.end(),
                         [](const SubComputation& s) { return s.axis == Axis::x; });
  return false;
}

std::int64_t paired_rows(const Plan& plan) {
  return whole_chunks((plan.size.ny * plan.size.nz + 1) / 2);
}

Plan paired_rows_stage_plan(const Plan& plan) {
  Plan stages = complex_stage_plan(plan);
  stages.size = {plan.size.nx, paired_rows(plan), 1};
  return stages;
}

bool pads_spectrum_columns(const Plan& plan) {
  const std::int64_t half = plan.size.nx / 2;
  return odd_real_rows(plan) || (half > x_chunk && half % x_chunk != 0);
}

bool takes_nyquist_tiles(const Plan& plan, std::size_t index) {
  return !plan.kernels[index].real && !pads_spectrum_columns(plan);
}

std::int64_t nyquist_tile_count(const KernelSpec& spec) {
  return spec.tiles / spec.axes[axis_index(Axis::x)].tiles();
}

void mark_real_kernels(const Plan& plan, LoweredPlan& lowered) {
  const RealStep step = *real_step_of(plan);
  for (std::size_t k = 0; k < lowered.kernels.size(); ++k) {
    KernelSpec& spec = lowered.kernels[k];
    const Kernel& kernel = plan.kernels[k];
    spec.kernel = kernel;
    spec.plan_hash = stable_hash(plan);
    spec.real.kind = step.kind;
    spec.real.half = plan.size.nx / 2;
    spec.real.odd = odd_real_rows(plan);
    spec.real.padded_columns = !kernel.real && pads_spectrum_columns(plan);
    spec.real.paired_rows = kernel.real && pairs_real_rows(plan);
    if (spec.real.paired_rows) spec.real.volume_rows = plan.size.ny * plan.size.nz;
    if (kernel.real) {
      require_whole_rows(spec);
      spec.real.step_stage = static_cast<int>(kernel.real_position);
      spec.shared_bytes += 2 * spec.side_elements() * spec.real_bytes();  // the side array's real and imaginary words
    } else if (takes_nyquist_tiles(plan, k)) {  // padded columns past NX/2 are masked instead (RealKernel)
      require_nyquist_tiles_fit(spec);
      spec.real.nyquist_tiles = nyquist_tile_count(spec);
    }
  }
}

}  // namespace fft3d::lowering
