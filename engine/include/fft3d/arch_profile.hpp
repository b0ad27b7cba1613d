// Architecture profiles: the hardware limits a plan's kernels are lowered against (DESIGN.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fft3d {

// What a kernel costs the default planner beyond one pass over memory, in passes, by the features of its lowered
// tile (lowering/cost_model.cpp applies it; docs/performance.md#cost-model gives the measurements). The charges default to zero:
// every kernel costs one pass, as in the paper. The shape thresholds say where the charges were measured.
struct CostModel {
  // Tiles spread over the blocks of a cluster, by how many one-block parts (part_bytes_limit) the tile fills.
  double spread_crossing = 0;         // over more than 2 parts, a pass after the global loads crosses the parts
  double spread_first_pass = 0;       // over more than 2 parts, only the first pass (loading) crosses
  double spread_wide_cluster = 0;     // added to it for 128-byte runs over wide clusters and few Z values (below)
  double spread_few_lines = 0;        // added to it for 128-byte runs in `few_lines` or fewer Y or Z lines
  double pair_crossing = 0;           // over 2 parts, a pass after the global loads crosses
  double pair_first_pass = 0;         // over 2 parts, only the first pass crosses
  double fp64_spread_share = 1;       // the six above for an fp64 tile in parts of two blocks a multiprocessor
  double spread_whole_volume = 0;     // a tile of the whole volume in small parts (lowering: whole_volume_part_share),
                                      // in a batch over `whole_volume_l2_share` of L2 (below it: the spread charges)
  // The natural-order exchange across a cluster of tiles, per share of the tile read from other blocks.
  double exchange_overlapped = 0;     // several blocks a multiprocessor, cluster of 2 or volume over L2
  double exchange_exposed = 0;        // otherwise
  double one_block_per_multiprocessor = 0;  // a tile that leaves no room for a second block
  double narrow_x_runs = 0;           // 64-byte X runs (narrow_x_runs.cpp)
  double narrow_x_runs_spread = 0;    // 64-byte X runs in a spread tile
  double idle_multiprocessors = 0;    // per missing share of a grid under `busy_grid_share` of the multiprocessors
  double deep_z = 0;                  // a tile of 128-byte runs from `deep_z_planes` or more Z planes, volume over L2
  double deep_z_spread = 0;           // the same tile spread over a cluster
  double sorted_layout = 0;           // a kernel that loads rows in the sorted layout
  double late_sorted_stores = 0;      // in place, the sorted layout's late form (a later kernel's stores sort)
  double spread_mixed_tile = 0;       // a spread tile whose own digits are not bit fields (tile::staged_bit_fields)
  double busy_grid_share = 0.5;       // grids of at least this share of the multiprocessors are not charged idle
  double whole_volume_l2_share = 0.75;  // spread_whole_volume: batches of more than this share of L2 a buffer
  std::int64_t spread_wide_cluster_parts = 4;  // spread_wide_cluster: over more parts than this,
  std::int64_t spread_wide_cluster_z = 256;    // and fewer Z values than this
  std::int64_t few_lines = 4;                  // spread_few_lines applies to tiles of at most this many Y or Z lines
  std::int64_t deep_z_planes = 256;            // deep_z applies to tiles of at least this many Z planes

  friend bool operator==(const CostModel&, const CostModel&) = default;
};

struct ArchProfile {
  std::string name;                     // "tesla", "fermi", "hopper"
  int compute_capability = 0;           // 13, 20, 90
  int shared_memory_banks = 0;          // 16 (Tesla half-warps) or 32
  int bank_width_bytes = 4;
  int conflict_group_threads = 0;       // threads whose accesses are served together: 16 or 32
  int threads_per_block = 0;            // the profile's block size (Tesla 64, Fermi 128, Hopper up to 1024)
  int max_threads_per_block = 0;
  int shared_memory_per_block = 0;      // bytes
  int registers_per_sm = 0;             // 32-bit registers
  int max_registers_per_thread = 0;
  int max_cluster_size = 1;             // portable cluster size (1: no clusters)
  int max_cluster_size_opt_in = 1;      // with the kernel's non-portable opt-in (H100: 16)
  bool has_tma = false;
  long long l2_cache_bytes = 0;         // Tesla none, Fermi 768 KB, H100 50 MB
  int multiprocessors = 0;              // GTX 280 30, GTX 480 15, H100 SXM 132
  int one_block_tile_radix = 0;         // radix of a pass in registers for a tile that holds an SM alone (0: as
                                        // any other tile; Hopper 32: lowering/split_radix.cpp)
  int narrow_x_run_bytes = 0;           // X runs a tile may narrow to where that keeps it in one block (0: always
                                        // 128 bytes, as in the paper; Hopper 64: lowering/narrow_x_runs.cpp)
  int spread_blocks_per_multiprocessor = 1;  // blocks of tiles spread over a cluster that share a multiprocessor:
                                             // their parts are 1/this of a one-block tile (Hopper 2:
                                             // lowering/distribute_tile.cpp)
  std::int64_t transposed_store_min_elements = 0;  // fp32 1D volumes from which a plan's last kernel stores natural
                                                  // order itself (0: never; Hopper 2^21: lowering/transposed_store.cpp)
  std::int64_t planner_max_yz_radix = 16;   // the largest Y or Z radix of one stage the default planner tries
  std::int64_t planner_max_x_radix = 8;     // the largest X radix of one stage it tries
  CostModel cost;                           // what the default planner charges a kernel beyond one pass

  friend bool operator==(const ArchProfile&, const ArchProfile&) = default;
};

const std::vector<ArchProfile>& arch_profiles();
std::optional<ArchProfile> find_arch_profile(std::string_view name);
// The profile a device of compute capability `compute_capability` (major * 10 + minor) runs descriptors on: the
// newest profile whose capability it has (an sm_90 device: hopper). Throws UsageError below every profile's.
const ArchProfile& arch_profile_for_device(int compute_capability);
std::string arch_profile_names();  // "tesla, fermi, hopper"

}  // namespace fft3d
