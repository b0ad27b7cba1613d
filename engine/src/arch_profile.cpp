#include "fft3d/arch_profile.hpp"

namespace fft3d {

// Values from DESIGN.md and the paper (§4.2): one row per architecture.
const std::vector<ArchProfile>& arch_profiles() {
  static const std::vector<ArchProfile> profiles = {
      {.name = "tesla", .compute_capability = 13, .shared_memory_banks = 16, .bank_width_bytes = 4,
       .conflict_group_threads = 16, .threads_per_block = 64, .max_threads_per_block = 512,
       .shared_memory_per_block = 16 * 1024, .registers_per_sm = 16 * 1024, .max_registers_per_thread = 128,
       .multiprocessors = 30},
      {.name = "fermi", .compute_capability = 20, .shared_memory_banks = 32, .bank_width_bytes = 4,
       .conflict_group_threads = 32, .threads_per_block = 128, .max_threads_per_block = 1024,
       .shared_memory_per_block = 48 * 1024, .registers_per_sm = 32 * 1024, .max_registers_per_thread = 63,
       .l2_cache_bytes = 768 * 1024, .multiprocessors = 15},
      {.name = "hopper", .compute_capability = 90, .shared_memory_banks = 32, .bank_width_bytes = 4,
       .conflict_group_threads = 32, .threads_per_block = 256, .max_threads_per_block = 1024,
       .shared_memory_per_block = 227 * 1024, .registers_per_sm = 64 * 1024, .max_registers_per_thread = 255,
       .max_cluster_size = 8, .max_cluster_size_opt_in = 16, .has_tma = true,
       .l2_cache_bytes = 50LL * 1024 * 1024, .multiprocessors = 132, .one_block_tile_radix = 32,
       .narrow_x_run_bytes = 64, .spread_blocks_per_multiprocessor = 2},
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

}  // namespace fft3d
