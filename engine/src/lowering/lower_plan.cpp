// Lowering: a legal plan and a profile to one KernelSpec per kernel (plus the digit-reversal pass when natural
// order needs one). The rules live one per file; this file applies them in order and checks the profile's limits.
#include <algorithm>
#include <future>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "fft3d/checks.hpp"
#include "lowering/spec_memo.hpp"
#include "lowering/tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d {
namespace {

std::string describe_tile(const KernelSpec& spec) {
  std::ostringstream text;
  text << spec.axes[0].extent() << "X x " << spec.axes[1].extent() << "Y x " << spec.axes[2].extent() << "Z = "
       << spec.tile_elements << (spec.precision == Precision::fp64 ? " fp64" : "") << " elements";
  if (spec.tile_blocks > 1) text << " spread over a cluster of " << spec.tile_blocks << " blocks";
  return text.str();
}

void check_profile_limits(const KernelSpec& spec, const ArchProfile& profile) {
  const std::string where = "kernel " + std::to_string(spec.kernel_index) + " {" + to_string(spec.kernel) + "}";
  if (spec.shared_bytes > profile.shared_memory_per_block)
    throw LoweringError(where + ": tile " + describe_tile(spec) + " needs " + std::to_string(spec.shared_bytes) +
                        " B of shared memory per block; profile " + profile.name + " has " +
                        std::to_string(profile.shared_memory_per_block) + " B per block");
  if (spec.threads > profile.max_threads_per_block)
    throw LoweringError(where + ": " + std::to_string(spec.threads) + " threads per block; profile " + profile.name +
                        " allows " + std::to_string(profile.max_threads_per_block));
}

// The two rules that take most of a kernel's lowering, memoized across the plans the process lowers: the planner's
// candidates share kernels (spec_memo.hpp). The capacity bounds the memory a long-lived process keeps.
constexpr std::size_t memo_capacity = 1024;

void memoized_global_passes(KernelSpec& spec, const ArchProfile& profile, OffsetCheck check) {
  static lowering::SpecMemo<std::pair<bool, bool>> every_tile(memo_capacity), end_tiles(memo_capacity);
  lowering::SpecMemo<std::pair<bool, bool>>& memo = check == OffsetCheck::every_tile ? every_tile : end_tiles;
  const auto [load, store] = memo.get(spec, profile, [&spec, check] {
    KernelSpec reached = spec;
    lowering::reach_global_from_passes(reached, check);
    return std::pair{reached.load_in_first_pass, reached.store_in_last_pass};
  });
  spec.load_in_first_pass = load;
  spec.store_in_last_pass = store;
}

SharedLayout memoized_shared_layout(const KernelSpec& spec, const ArchProfile& profile) {
  static lowering::SpecMemo<SharedLayout> memo(memo_capacity);
  return memo.get(spec, profile, [&] { return lowering::choose_shared_layout(spec, profile); });
}

// real: a real plan's kernel (`plan` holds its complex stages only; `real_plan` the step). volume_nx: the volume's
// row length where `plan` has the padded rows of padded_rows_plan (KernelSpec::volume_nx), else 0.
KernelSpec lower_kernel(const Plan& plan, int index, const ArchProfile& profile, const std::string& plan_name,
                        const Plan* real_plan, OffsetCheck offset_check, std::int64_t volume_nx, bool complex_run) {
  const Kernel& kernel = plan.kernels[index];
  const bool real = real_plan != nullptr;
  // An odd NX's kernels have neither Nyquist tiles nor a side array (RealKernel): their tiles grow and their threads
  // balance as complex kernels' do; an even NX's keep the rules they were measured with.
  const bool packed = real && packs_real_rows(*real_plan);
  KernelSpec spec;
  spec.plan_name = plan_name;
  spec.plan_hash = stable_hash(plan);
  spec.kernel_index = index;
  spec.kernel = kernel;
  spec.profile = profile.name;
  spec.precision = plan.precision;
  spec.conflict_group_threads = profile.conflict_group_threads;
  if (plan.precision == Precision::fp64) spec.conflict_group_threads = std::max(1, profile.conflict_group_threads / 2);
  spec.size = plan.size;
  spec.volume_nx = volume_nx;
  spec.tiles = 1;
  spec.tile_elements = 1;
  for (Axis axis : all_axes) {
    AxisTile& tile = spec.axes[axis_index(axis)] = lowering::tile_axis(plan, kernel, axis, real);
    spec.tile_elements *= tile.extent();
    spec.tiles *= tile.tiles();
  }
  const bool nyquist_tiles = real && lowering::takes_nyquist_tiles(*real_plan, index);
  lowering::narrow_x_runs(spec, kernel, profile, plan.batch, nyquist_tiles);
  lowering::grow_small_tile(spec, kernel, profile, packed);
  lowering::mark_in_tile_reversals(plan, kernel, spec);
  lowering::mark_cluster_reversals(plan, index, spec, profile);
  lowering::mark_transposed_store(plan, index, spec, profile, complex_run);
  spec.stages = lowering::tile_stages(spec, kernel);
  const KernelSpec unsplit = spec;
  lowering::split_large_radices(spec.stages, register_radix_limit(profile, spec.precision),
                               lowering::pass_radix_limit(spec, profile));
  lowering::distribute_large_tile(spec, profile, offset_check == OffsetCheck::every_tile);
  lowering::widen_shared_spread_passes(spec, unsplit, profile);
  spec.threads = lowering::block_threads(spec, profile, packed);
  // A tile over shared memory even in the densest layout fails before the layout search (which simulates every
  // shared access of the tile per candidate).
  spec.shared_bytes = 2 * spec.part_elements() * spec.real_bytes();
  check_profile_limits(spec, profile);
  memoized_global_passes(spec, profile, offset_check);
  if (real_plan) lowering::keep_real_step_off_global_passes(spec, real_plan->kernels[index]);
  spec.shared = memoized_shared_layout(spec, profile);
  spec.shared_bytes = 2 * spec.shared.words * spec.real_bytes();
  spec.nominal_flops = lowering::nominal_flops(spec);
  check_profile_limits(spec, profile);
  return spec;
}

// `columns`: where given (padded half-spectrum columns), the plan the kernels without the real step lower from;
// `step`: where given (paired real rows), the plan the kernel with it lowers from. A complex plan's kernels that
// pad their rows (pads_x_rows) lower from padded_rows_plan. `complex_run`: the plan runs as a C2C transform (not
// the complex stages of a real plan).
LoweredPlan lower_legal_plan(const Plan& plan, const ArchProfile& profile, const std::string& plan_name,
                             OffsetCheck offset_check, const Plan* real_plan, bool complex_run,
                             const Plan* columns = nullptr, const Plan* step = nullptr) {
  const auto pads = [&](const Kernel& kernel) { return !real_plan && lowering::pads_x_rows(plan, kernel); };
  const std::optional<Plan> padded = std::any_of(plan.kernels.begin(), plan.kernels.end(), pads)
                                         ? std::optional<Plan>(lowering::padded_rows_plan(plan))
                                         : std::nullopt;  // only where a kernel pads
  // Kernels lower independently, each on its own thread (the coalescing checks and the layout search take
  // milliseconds a kernel); the first error in plan order is the one thrown.
  std::vector<std::future<KernelSpec>> lowering;
  for (int k = 0; k < static_cast<int>(plan.kernels.size()); ++k) {
    const bool has_step = real_plan && real_plan->kernels[static_cast<std::size_t>(k)].real;
    const bool padding = pads(plan.kernels[static_cast<std::size_t>(k)]);
    const Plan& source =
        columns && real_plan && !has_step ? *columns : step && has_step ? *step : padding ? *padded : plan;
    const std::int64_t volume_nx = padding ? plan.size.nx : 0;
    lowering.push_back(
        std::async(std::launch::async,
                   [&source, k, &profile, &plan_name, real_plan, offset_check, volume_nx, complex_run] {
                     return lower_kernel(source, k, profile, plan_name, real_plan, offset_check, volume_nx,
                                         complex_run);
                   }));
  }
  LoweredPlan lowered;
  for (std::future<KernelSpec>& kernel : lowering) {
    lowered.kernels.push_back(kernel.get());
    if (lowered.kernels.back().masks_x()) lowered.kernels.back().plan_hash = stable_hash(plan);  // not the padded one
  }
  if (!lowered.kernels.empty()) lowered.reorder = lowering::digit_reversal_pass(plan, lowered.kernels);
  // The late form's clusters are consecutive tiles along the sorted axes; a real kernel's Nyquist tiles follow all
  // its other tiles in the grid, so such a kernel does not take it.
  lowering::mark_sorted_layouts(plan, lowered, profile, [real_plan](std::size_t k) {
    return !real_plan || !lowering::takes_nyquist_tiles(*real_plan, k);
  });
  return lowered;
}

// Every kernel of a batch plan (and the reorder pass) runs the batch's volumes in one launch (KernelSpec::batch).
void mark_batch(std::int64_t batch, LoweredPlan& lowered) {
  for (KernelSpec& spec : lowered.kernels) spec.batch = batch;
  if (lowered.reorder) lowered.reorder->batch = batch;
}

}  // namespace

LoweredPlan lower_plan(const Plan& plan, const ArchProfile& profile, const std::string& plan_name,
                       OffsetCheck offset_check) {
  require_legal(plan);
  if (!real_step_of(plan)) {
    LoweredPlan lowered = lower_legal_plan(plan, profile, plan_name, offset_check, nullptr, true);
    mark_batch(plan.batch, lowered);
    return lowered;
  }
  if (lowering::detaches_real_step(plan)) {
    LoweredPlan lowered =
        lower_legal_plan(lowering::complex_stage_plan(plan), profile, plan_name, offset_check, nullptr, false);
    lowered.real_pass = lowering::real_pass_spec(plan, profile, plan_name);
    return lowered;
  }
  lowering::require_step_rows_fit(plan, profile);
  const Plan stages = lowering::complex_stage_plan(plan);
  const std::optional<Plan> columns =
      lowering::pads_spectrum_columns(plan) ? std::optional(lowering::half_spectrum_stage_plan(plan)) : std::nullopt;
  const std::optional<Plan> step =
      lowering::pairs_real_rows(plan) ? std::optional(lowering::paired_rows_stage_plan(plan)) : std::nullopt;
  LoweredPlan lowered = lower_legal_plan(stages, profile, plan_name, offset_check, &plan, false,
                                         columns ? &*columns : nullptr, step ? &*step : nullptr);
  lowering::mark_real_kernels(plan, lowered);
  for (const KernelSpec& spec : lowered.kernels) check_profile_limits(spec, profile);  // the side arrays added bytes
  mark_batch(plan.batch, lowered);
  return lowered;
}

std::int64_t LoweredPlan::workspace_bytes(bool out_of_place) const {
  if (reorders(out_of_place)) return reorder->size.elements() * reorder->complex_bytes();
  if (stores_out_of_workspace()) return kernels.back().size.elements() * kernels.back().complex_bytes();
  return 0;
}

}  // namespace fft3d
