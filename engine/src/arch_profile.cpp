#include "fft3d/arch_profile.hpp"

#include "fft3d/errors.hpp"

namespace fft3d {
namespace {

// Tesla's and Fermi's: no charge, every kernel costs one pass over memory, as in the paper.
constexpr CostModel one_pass_per_kernel = {};

// Hopper's charges: each kernel's time over its copy twin's (a kernel that only copies its tile), less one, on an
// H100 SXM; docs/performance.md#cost-model gives the measurements behind each line.
constexpr CostModel hopper_cost_model = {
    .spread_crossing = 1.5,               // crossing passes, 4-8 blocks: 2.2-2.7 twins
    .spread_first_pass = 0.5,             // Z/Y split second kernels at 2^25-2^27 points: ~1.5 twins
    .spread_wide_cluster = 0.15,          // Y lines of 512 behind 8-16 Z: 1.61-1.68 floors on 8 blocks, 1.48-1.54 on 4
    .spread_few_lines = 0.2,              // Z4 x Y1024 over 4 blocks 3-5% slower than Z8 x Y1024 over 8
    .pair_crossing = 1.2,                 // a middle pass crossing 2 blocks: 1.6-2.3 twins
    .pair_first_pass = 0.4,               // only the first pass crossing 2 blocks: 1.27-1.56 twins
    .fp64_spread_share = 0.4,             // fp64 two-pass plans (64 KB parts): 2.7-2.85 floors, 0.86-0.91x three passes
    .spread_whole_volume = 0.5,           // 32^3 x 512 whole in 8 parts of 32 KB: 1.48 twins (2.09 in 2 of 128 KB)
    .exchange_overlapped = 0.6,           // cluster of 2, or several blocks a multiprocessor over L2: 1.2-1.5 twins
    .exchange_exposed = 1.2,              // one block a multiprocessor, cluster of 4-8: 1.8-2.3 twins
    .one_block_per_multiprocessor = 0.1,  // 1.07-1.11 twins where the passes reach global memory
    .narrow_x_runs = 0.1,                 // copies of 64-byte runs: 1.03-1.08 of 128-byte runs
    .narrow_x_runs_spread = 0.15,         // spread 512 KB tiles: 1.43-1.50 floors against 1.30-1.39
    .idle_multiprocessors = 0.6,          // 73 small volumes: plans rid of 16-32-block grids up to 3.4x faster
    .deep_z = 0.1,                        // whole-Z copy twins 1.11-1.14 a pass against 1.03 for Y (512^3 and others)
    .deep_z_spread = 0.2,                 // Z lines of 512-1024 planes spread: 1.67-1.92 floors
    .sorted_layout = 0.15,                // 256^3 second kernel: 1.31 twins sorted against 1.13 digit-reversed
    .late_sorted_stores = 0.25,           // 1024x512x64 in place: a late-form plan 0.23 pass over an early-form one
    .spread_mixed_tile = 2.0,             // 243^3, 384x384x256: 3.4-3.6 floors a spread kernel, 1.2-1.6 one-block
};

}  // namespace

// Values from DESIGN.md and the paper (§4.2): one row per architecture. The planner's radices on Tesla and Fermi
// are the paper's register radices; on Hopper a whole Y or Z line of up to 2048 points fits one tile or a cluster of
// two, and X radices as large go through shared memory (the lowering says which tiles fit).
const std::vector<ArchProfile>& arch_profiles() {
  static const std::vector<ArchProfile> profiles = {
      {.name = "tesla", .compute_capability = 13, .shared_memory_banks = 16, .bank_width_bytes = 4,
       .conflict_group_threads = 16, .threads_per_block = 64, .max_threads_per_block = 512,
       .shared_memory_per_block = 16 * 1024, .registers_per_sm = 16 * 1024, .max_registers_per_thread = 128,
       .multiprocessors = 30, .planner_max_yz_radix = 16, .planner_max_x_radix = 8,
       .cost = one_pass_per_kernel},
      {.name = "fermi", .compute_capability = 20, .shared_memory_banks = 32, .bank_width_bytes = 4,
       .conflict_group_threads = 32, .threads_per_block = 128, .max_threads_per_block = 1024,
       .shared_memory_per_block = 48 * 1024, .registers_per_sm = 32 * 1024, .max_registers_per_thread = 63,
       .l2_cache_bytes = 768 * 1024, .multiprocessors = 15, .planner_max_yz_radix = 32,
       .planner_max_x_radix = 8, .cost = one_pass_per_kernel},
      {.name = "hopper", .compute_capability = 90, .shared_memory_banks = 32, .bank_width_bytes = 4,
       .conflict_group_threads = 32, .threads_per_block = 256, .max_threads_per_block = 1024,
       .shared_memory_per_block = 227 * 1024, .registers_per_sm = 64 * 1024, .max_registers_per_thread = 255,
       .max_cluster_size = 8, .max_cluster_size_opt_in = 16, .has_tma = true,
       .l2_cache_bytes = 50LL * 1024 * 1024, .multiprocessors = 132, .one_block_tile_radix = 32,
       .narrow_x_run_bytes = 64, .spread_blocks_per_multiprocessor = 2,
       .transposed_store_min_elements = std::int64_t{1} << 21, .planner_max_yz_radix = 2048,
       .planner_max_x_radix = 2048, .cost = hopper_cost_model},
  };
  return profiles;
}

std::optional<ArchProfile> find_arch_profile(std::string_view name) {
  for (const ArchProfile& p : arch_profiles())
    if (p.name == name) return p;
  return std::nullopt;
}

std::string arch_profile_names() {
  std::string names;
  for (const ArchProfile& p : arch_profiles()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

const ArchProfile& arch_profile_for_device(int compute_capability) {
  const ArchProfile* newest = nullptr;
  for (const ArchProfile& p : arch_profiles())
    if (p.compute_capability <= compute_capability && (!newest || p.compute_capability > newest->compute_capability))
      newest = &p;
  if (!newest)
    throw UsageError("compute capability " + std::to_string(compute_capability) + ": no profile (known: " +
                     arch_profile_names() + ")");
  return *newest;
}

}  // namespace fft3d
