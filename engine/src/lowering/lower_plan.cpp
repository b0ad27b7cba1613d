// Lowering: a legal plan and a profile to one KernelSpec per kernel (plus the digit-reversal pass when natural
// order needs one). The rules live one per file; this file applies them in order and checks the profile's limits.
#include <algorithm>
#include <future>
#include <sstream>
#include <vector>

#include "fft3d/checks.hpp"
#include "lowering/tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d {
namespace {

std::string describe_tile(const KernelSpec& spec) {
  std::ostringstream text;
  text << spec.axes[0].extent() << "X x " << spec.axes[1].extent() << "Y x " << spec.axes[2].extent() << "Z = "
       << spec.tile_elements << " elements";
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

KernelSpec lower_kernel(const Plan& plan, int index, const ArchProfile& profile, const std::string& plan_name) {
  const Kernel& kernel = plan.kernels[index];
  KernelSpec spec;
  spec.plan_name = plan_name;
  spec.plan_hash = stable_hash(plan);
  spec.kernel_index = index;
  spec.kernel = kernel;
  spec.profile = profile.name;
  spec.conflict_group_threads = profile.conflict_group_threads;
  spec.size = plan.size;
  spec.tiles = 1;
  spec.tile_elements = 1;
  for (Axis axis : all_axes) {
    AxisTile& tile = spec.axes[axis_index(axis)] = lowering::tile_axis(plan, kernel, axis);
    spec.tile_elements *= tile.extent();
    spec.tiles *= tile.tiles();
  }
  lowering::narrow_x_runs(spec, kernel, profile);
  lowering::grow_small_tile(spec, kernel, profile);
  lowering::mark_in_tile_reversals(plan, kernel, spec);
  lowering::mark_cluster_reversals(plan, index, spec, profile);
  spec.stages = lowering::tile_stages(spec, kernel);
  const KernelSpec unsplit = spec;
  lowering::split_large_radices(spec.stages, register_radix_limit(profile), lowering::pass_radix_limit(spec, profile));
  lowering::distribute_large_tile(spec, profile);
  lowering::widen_shared_spread_passes(spec, unsplit, profile);
  spec.threads = lowering::block_threads(spec, profile);
  // A tile over shared memory even in the densest layout fails before the layout search (which simulates every
  // shared access of the tile per candidate).
  spec.shared_bytes = 2 * spec.part_elements() * 4;
  check_profile_limits(spec, profile);
  lowering::reach_global_from_passes(spec);
  spec.shared = lowering::choose_shared_layout(spec, profile);
  spec.shared_bytes = 2 * spec.shared.words * 4;
  spec.nominal_flops = lowering::nominal_flops(spec);
  check_profile_limits(spec, profile);
  return spec;
}

}  // namespace

LoweredPlan lower_plan(const Plan& plan, const ArchProfile& profile, const std::string& plan_name) {
  require_legal(plan);
  // Kernels lower independently, each on its own thread (the coalescing checks and the layout search take
  // milliseconds a kernel); the first error in plan order is the one thrown.
  std::vector<std::future<KernelSpec>> lowering;
  for (int k = 0; k < static_cast<int>(plan.kernels.size()); ++k)
    lowering.push_back(std::async(std::launch::async, [&plan, k, &profile, &plan_name] {
      return lower_kernel(plan, k, profile, plan_name);
    }));
  LoweredPlan lowered;
  for (std::future<KernelSpec>& kernel : lowering) lowered.kernels.push_back(kernel.get());
  if (!lowered.kernels.empty()) lowered.reorder = lowering::digit_reversal_pass(plan, lowered.kernels);
  lowering::mark_sorted_layouts(plan, lowered, profile);
  return lowered;
}

std::int64_t LoweredPlan::workspace_bytes(bool out_of_place) const {
  return reorders(out_of_place) ? reorder->size.elements() * 8 : 0;
}

}  // namespace fft3d

namespace fft3d {

namespace {

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

// What a tile spread over 4-8 blocks whose first pass alone crosses costs beyond its pass (version 24: the second
// kernels of Z and Y splits at 2^25-2^27 points, in floors, a read+write pass at memcpy speed): 0.5, and
// - 0.15 more over 8 blocks than over 4 for tiles without Z lines (Y lines of 512 behind 8-16 Z values: 1.48-1.54
//   floors over 4 blocks, 1.61-1.68 over 8; 512x512x256 and 1024x512x128 took 0.95 and 0.93 ms with the 4-block tile,
//   1.01 and 0.97 with the 8-block one); Z lines of 1024 planes went the other way (1.88-1.92 behind 4 Y values over 4
//   blocks, 1.77-1.83 behind 8 over 8), which the next charge covers;
// - 0.2 for a tile of 128-byte runs with 4 or fewer lines (Y4 x Z1024 above; 1024x1024x64, 64x1024x1024, 128x1024x512
//   and 256x1024x256 took 3-5% longer with Z4 x Y1024 over 4 blocks than with Z8 x Y1024 over 8).
// Both measured on tiles of 128-byte runs (X over 16), so tiles of whole X rows are not charged.
double spread_first_pass_cost(const KernelSpec& spec, std::int64_t whole_blocks) {
  const std::int64_t y = spec.axes[axis_index(Axis::y)].extent(), z = spec.axes[axis_index(Axis::z)].extent();
  double extra = 0.5;
  if (contiguous_run_elements(spec) > 16) return extra;
  if (whole_blocks > 4 && z < 256) extra += 0.15;
  if (std::min(y, z) <= 4) extra += 0.2;
  return extra;
}

// What one kernel costs beyond its pass: its time over its copy twin's on an H100, less one (bench/NOTES.md
// versions 5, 9, 11, 12 and 18).
// - A tile spread over 4-8 blocks of a cluster: 2.2-2.7 when a pass after its global loads crosses (most of a
//   crossing pass's values are remote); about 1.5 when only the first pass, loading from global memory, writes the
//   other blocks (version 18: the Z splits of 256x512x512 and 128x512x1024; of the 27 sizes whose default plan this
//   changed, the 23 measured took 0.923 of their old time out of place and 0.942 in place; by tile shape and
//   cluster: spread_first_pass_cost).
// - Over 2 blocks: 1.27-1.56 when only the first pass crosses; 1.6-2.3 when a pass in the middle reads and writes
//   the other block.
// - The natural-order exchange across a cluster of tiles reads (C-1)/C of the tile from other blocks: 1.8-2.3 with
//   one block per multiprocessor and a cluster of 4-8, 1.2-1.5 for a cluster of 2 or with several blocks per
//   multiprocessor to overlap it, as long as the volume is over the L2 cache: a volume that stays in L2 between
//   kernels leaves less memory time to hide a cluster of 4-8 behind (version 15: there 2-tile exchanges and three
//   passes beat it by 4-23%).
// - A tile that leaves room for one block per multiprocessor: 1.07-1.11 where its passes reach global memory.
// - 64-byte X runs (narrow_x_runs.cpp): +0.1 (their copies took 1.03-1.08 the time of 128-byte runs, version 21;
//   charged 0.05, three sizes off the table took a Z split 4-6% slower than the Y split they had, version 22);
//   +0.15 in a spread tile (version 28: 1.43-1.50 floors against 1.30-1.39 for spread 512 KB tiles of 128-byte
//   runs; at 0.1 the tie gave 512x512x256 a Z split 16 x 16 whose narrowed second kernel made it 2.7% slower).
// Measured on Hopper only: on the Tesla and Fermi profiles a kernel counts one pass, as in the paper.
double cost_beyond_one_pass(const KernelSpec& spec, const ArchProfile& profile) {
  if (profile.name != "hopper") return 0.0;
  // The spread charges were measured with parts of one block's limit (128 KB, one block a multiprocessor), and they
  // go by the blocks of that size the tile fills. Since version 28 such tiles are mostly cut into parts of half that
  // size, two blocks a multiprocessor (distribute_tile.cpp), and their kernels took 2-10% less time: those are not
  // charged as one-block kernels. With narrowed spread tiles at +0.15 (below), of the 343 default plans of 16-1024
  // per axis that changes one, 1024x64x512's (0.497 -> 0.444 ms measured), and none of 152 sizes with a 2048 or
  // 4096 axis.
  const bool spread = spec.tile_blocks > 1;
  const bool one_block_per_multiprocessor = spec.shared_bytes > profile.shared_memory_per_block / 2;
  const std::int64_t whole_blocks = spread ? 8 * spec.tile_elements / lowering::part_bytes_limit(profile) : 1;
  double extra = 0.0;
  if (whole_blocks > 2)
    extra = crosses_after_its_global_loads(spec) ? 1.5 : spread_first_pass_cost(spec, whole_blocks);
  if (whole_blocks == 2) extra = crosses_after_its_global_loads(spec) ? 1.2 : 0.4;
  const bool volume_in_l2 = spec.size.elements() * 8 <= profile.l2_cache_bytes;
  if (tile::exchanges_across_cluster(spec)) {
    const double remote = 1.0 - 1.0 / static_cast<double>(spec.tiles_per_cluster());
    const bool overlapped = !one_block_per_multiprocessor && (spec.tiles_per_cluster() == 2 || !volume_in_l2);
    extra += remote * (overlapped ? 0.6 : 1.2);
  }
  if (one_block_per_multiprocessor) extra += 0.1;
  if (spec.x_run_elements < 16) extra += spread ? 0.15 : 0.1;
  // A grid of fewer blocks than half the multiprocessors leaves most of the GPU idle (version 17: of 73 small
  // volumes whose plans changed with such a charge, those whose old plan had a kernel of 16 or 32 blocks got faster
  // by up to 3.4x, those at 64 blocks mostly slower). 16 blocks: +1.9 passes, 32: +0.6, 64 and over: nothing.
  const double blocks = static_cast<double>(spec.launch_blocks());
  const double half_the_gpu = profile.multiprocessors / 2.0;
  if (blocks < half_the_gpu) extra += 0.6 * (half_the_gpu / blocks - 1.0);
  // A tile of 128-byte runs from 256 or more Z planes, of a volume over the L2 cache: the copy twins of such whole-Z
  // kernels take 1.11-1.14 of a pass where those of the Y kernels take 1.03 (version 19: 512^3, 1024x256x256,
  // 512x512x256). Of 26 sizes where this moved the planner from a Y split to the Z split of a Y line behind whole X
  // rows, the 16 with 256 or more Z planes took 0.935 of their time out of place and 0.927 in place; those with 64 or
  // 128 took 1.014 and 0.966, so fewer planes are not charged. Spread over a cluster such a tile costs 0.2 (version
  // 24, crossing in the first pass only: 1.67-1.92 floors for the Z lines of 512-1024 planes behind 4-16 Y values,
  // 1.48-1.68 for Y lines of 256-512 behind 8-16 Z values; 512x256x512 and 256x256x1024 took a Y split whose second
  // tile spreads Z lines over 8 blocks, 1.02 and 0.99 ms, where the Z split with a 4-block Y-line tile takes 0.92 and
  // 0.97).
  if (!volume_in_l2 && contiguous_run_elements(spec) <= 16 && spec.axes[axis_index(Axis::z)].extent() >= 256)
    extra += spec.tile_blocks > 1 ? 0.2 : 0.1;
  // Loading and storing rows in the sorted layout (version 17: 256^3's second kernel, 1.13 of its twin
  // digit-reversed, 1.31 sorted; the first kernel, which only stores sorted, 1.19 and 1.21).
  if (tile::loads_sorted(spec)) extra += 0.15;
  return extra;
}

}  // namespace

std::optional<double> passes_on_its_profile(const Plan& plan) {
  const std::optional<ArchProfile> profile = find_arch_profile(plan.arch);
  if (!profile) return std::nullopt;
  try {
    const LoweredPlan lowered = lower_plan(plan, *profile);
    // The reorder pass counts unless the sorted layout spares it in place too (and so out of place).
    double passes = static_cast<double>(lowered.kernels.size()) + (lowered.reorders(false) ? 1 : 0);
    for (const KernelSpec& spec : lowered.kernels) passes += cost_beyond_one_pass(spec, *profile);
    return passes;
  } catch (const LoweringError&) {
    return std::nullopt;
  }
}

}  // namespace fft3d
