// The default planner's cost model: passes over memory in pass-equivalents, each kernel one pass plus the charges of
// its profile's CostModel for what its lowered tile does (docs/performance.md#cost-model). The features are read off the
// KernelSpec; the coefficients are profile data (arch_profile.cpp).
#include "cost_model.hpp"

#include <algorithm>
#include <vector>

#include "fft3d/planner.hpp"
#include "lowering/tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

constexpr std::int64_t segment_elements = 16;  // complex fp32 values in one 128-byte run of global memory
constexpr std::int64_t pair = 2;               // a tile spread over two one-block parts

// Whether a pass of a spread tile other than a first pass that loads from global memory reads or writes other
// blocks' shared memory (tile::pass_crosses_parts). Such a first pass only stores to the other parts, and stores do
// not wait.
bool crosses_after_its_global_loads(const KernelSpec& spec) {
  const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(spec);
  return std::any_of(passes.begin() + (spec.load_in_first_pass ? 1 : 0), passes.end(),
                     [](const tile::ButterflyPass& pass) { return pass.cross; });
}

// The elements of one contiguous run of the tile in global memory: its first X digit where that is contiguous, times
// the first Y digit where the tile holds whole X rows and that digit is contiguous too.
std::int64_t contiguous_run_elements(const KernelSpec& spec) {
  const auto contiguous = [](const AxisTile& axis) {
    return axis.tile.empty() || axis.tile.front().stride != 1 ? std::int64_t{1} : axis.tile.front().extent;
  };
  const AxisTile& x = spec.axes[axis_index(Axis::x)];
  const std::int64_t run = contiguous(x);
  return run == x.length ? run * contiguous(spec.axes[axis_index(Axis::y)]) : run;
}

// A tile spread over more than a pair of parts whose first pass alone crosses: the first-pass charge, and for tiles
// of 128-byte runs (where it was measured) more for wide clusters without Z lines and for tiles of few lines.
double spread_first_pass_cost(const KernelSpec& spec, std::int64_t whole_blocks, const CostModel& cost) {
  const std::int64_t y = spec.axes[axis_index(Axis::y)].extent(), z = spec.axes[axis_index(Axis::z)].extent();
  double extra = cost.spread_first_pass;
  if (contiguous_run_elements(spec) > segment_elements) return extra;
  if (whole_blocks > cost.spread_wide_cluster_parts && z < cost.spread_wide_cluster_z)
    extra += cost.spread_wide_cluster;
  if (std::min(y, z) <= cost.few_lines) extra += cost.spread_few_lines;
  return extra;
}

// Whether a batch's buffer fits within whole_volume_l2_share of L2: there a plan of two kernels reads its
// intermediate from L2, and one whole-volume pass has too few blocks to overlap its barriers.
bool batch_in_l2(const KernelSpec& spec, const ArchProfile& profile) {
  const double bytes = static_cast<double>(spec.volume_elements() * spec.complex_bytes() * spec.batch);
  return bytes <= profile.cost.whole_volume_l2_share * static_cast<double>(profile.l2_cache_bytes);
}

// An fp64 tile spread in parts that leave room for a second block a multiprocessor (distribute_tile.cpp) over a
// portable cluster: the form fp64_spread_share was fitted on. Other fp64 tiles keep fp32's charges: wider spreads ran
// slower than the share predicts (docs/performance.md L156).
bool measured_fp64_parts(const KernelSpec& spec, const ArchProfile& profile) {
  return spec.precision == Precision::fp64 && spec.blocks_per_multiprocessor > 1 &&
         spec.tile_blocks <= profile.max_cluster_size;
}

// A tile spread over a cluster: crossing passes wait on other blocks' shared memory. The charges go by the one-block
// parts of part_bytes_limit the tile fills (they were measured on such parts), not by its blocks, which may be
// smaller parts that share a multiprocessor; a whole-volume tile widened into small parts has its own charge in a
// batch over L2.
double spread_cost(const KernelSpec& spec, const ArchProfile& profile) {
  const CostModel& cost = profile.cost;
  if (spec.tile_blocks <= 1) return 0.0;
  if (whole_volume_in_small_parts(spec, profile) && !batch_in_l2(spec, profile)) return cost.spread_whole_volume;
  const std::int64_t whole_blocks = spec.complex_bytes() * spec.tile_elements / part_bytes_limit(profile);
  if (whole_blocks < pair) return 0.0;
  const bool crosses = crosses_after_its_global_loads(spec);
  const double share = measured_fp64_parts(spec, profile) ? cost.fp64_spread_share : 1.0;
  if (whole_blocks == pair) return share * (crosses ? cost.pair_crossing : cost.pair_first_pass);
  return share * (crosses ? cost.spread_crossing : spread_first_pass_cost(spec, whole_blocks, cost));
}

// The natural-order exchange across a cluster of tiles reads (C-1)/C of the tile from other blocks; several blocks
// a multiprocessor hide it behind memory traffic, unless a cluster of 4 or more works on a volume that stays in L2.
double exchange_cost(const KernelSpec& spec, const ArchProfile& profile, bool one_block_per_multiprocessor,
                     bool volume_in_l2) {
  if (!tile::exchanges_across_cluster(spec)) return 0.0;
  const double remote = 1.0 - 1.0 / static_cast<double>(spec.tiles_per_cluster());
  const bool overlapped = !one_block_per_multiprocessor && (spec.tiles_per_cluster() == pair || !volume_in_l2);
  return remote * (overlapped ? profile.cost.exchange_overlapped : profile.cost.exchange_exposed);
}

}  // namespace

double cost_beyond_one_pass(const KernelSpec& spec, const ArchProfile& profile) {
  const CostModel& cost = profile.cost;
  const bool spread = spec.tile_blocks > 1;
  const bool one_block_per_multiprocessor = spec.shared_bytes > profile.shared_memory_per_block / 2;
  const bool volume_in_l2 = spec.volume_elements() * spec.complex_bytes() <= profile.l2_cache_bytes;
  double extra = spread_cost(spec, profile);
  // Spread mixed tiles (part digits by division, clusters up to 9 blocks) are untuned: charged apart. A tile of
  // powers of two on a volume whose unstaged axis is not (the fp64 flat column) runs as a power-of-two one.
  if (spread && !tile::staged_bit_fields(spec)) extra += cost.spread_mixed_tile;
  extra += exchange_cost(spec, profile, one_block_per_multiprocessor, volume_in_l2);
  if (one_block_per_multiprocessor) extra += cost.one_block_per_multiprocessor;
  if (spec.x_run_elements < segment_elements) extra += spread ? cost.narrow_x_runs_spread : cost.narrow_x_runs;
  // A grid too small to fill the GPU leaves multiprocessors idle, charged by the share of the busy grid it lacks;
  // a batch's launch holds every volume's blocks.
  const double blocks = static_cast<double>(spec.launch_blocks()) * static_cast<double>(spec.batch);
  const double busy_grid = profile.multiprocessors * cost.busy_grid_share;
  if (blocks < busy_grid) extra += cost.idle_multiprocessors * (busy_grid / blocks - 1.0);
  // 128-byte runs from many Z planes of a volume over L2 open more DRAM pages than Y rows do.
  if (!volume_in_l2 && contiguous_run_elements(spec) <= segment_elements &&
      spec.axes[axis_index(Axis::z)].extent() >= cost.deep_z_planes)
    extra += spread ? cost.deep_z_spread : cost.deep_z;
  if (tile::loads_sorted(spec)) extra += cost.sorted_layout;
  return extra;
}

namespace {

// Out of place, a plan that takes the digit-reversal pass or the sorted layout's late form in place only costs this
// much more than one that serves both placements alike, so that of two plans the model ranks equal the latter wins:
// at such ties the plans for out of place only ran slower (docs/performance.md L156).
constexpr double out_of_place_only_tie_break = 0.01;

// Whether natural order takes the digit-reversal pass in the placement: a complex plan whose sorted layout does not
// spare it there, or a 1D real plan with its step apart (its kernels are the packed row's complex plan). Other real
// plans never run it (a real plan that would is not taken there).
bool charges_reorder_pass(const Plan& plan, const LoweredPlan& lowered, bool in_place) {
  return (!real_step_of(plan) || lowered.real_pass) && lowered.reorders(!in_place);
}

}  // namespace

double ModelTerms::total() const {
  // One pass a kernel, then what each kernel costs beyond it.
  double passes = static_cast<double>(beyond_one_pass.size()) + reorder + late_sort + real_pass;
  for (double beyond : beyond_one_pass) passes += beyond;
  return passes;
}

ModelTerms model_terms(const Plan& plan, const LoweredPlan& lowered, const ArchProfile& profile, bool in_place) {
  ModelTerms terms;
  for (const KernelSpec& spec : lowered.kernels) terms.beyond_one_pass.push_back(cost_beyond_one_pass(spec, profile));
  if (lowered.real_pass) terms.real_pass = 1.0;  // a read and a write of the half spectrum
  if (lowered.sorts_late_in_place)
    terms.late_sort = in_place ? profile.cost.late_sorted_stores : out_of_place_only_tie_break;
  if (charges_reorder_pass(plan, lowered, in_place)) {
    terms.reorder = 1.0;
  } else if (charges_reorder_pass(plan, lowered, true)) {
    terms.reorder = out_of_place_only_tie_break;
  }
  return terms;
}

}  // namespace fft3d::lowering

namespace fft3d {
namespace {

std::optional<double> passes_in_placement(const Plan& plan, bool in_place) {
  const std::optional<ArchProfile> profile = find_arch_profile(plan.arch);
  if (!profile) return std::nullopt;
  try {
    // Ranked with the offsets checked in the end tiles only: a carry that only a middle tile has would rank the
    // plan one global-memory pass too cheap, where checking every tile walks the whole axis for each candidate.
    const LoweredPlan lowered = lower_plan(plan, *profile, "<plan>", OffsetCheck::end_tiles);
    return lowering::model_terms(plan, lowered, *profile, in_place).total();
  } catch (const LoweringError&) {
    return std::nullopt;
  }
}

}  // namespace

// A plan that serves both placements is charged the reorder pass wherever a run in place takes it (and so out of
// place, where the sorted layout can spare it only if it spares it in place too).
std::optional<double> passes_on_its_profile(const Plan& plan) { return passes_in_placement(plan, true); }

PlanPasses passes_on_its_profile_in(bool in_place) {
  return [in_place](const Plan& plan) { return passes_in_placement(plan, in_place); };
}

}  // namespace fft3d
