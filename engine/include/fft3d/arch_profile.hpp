// Architecture profiles: the hardware limits a plan's kernels are lowered against (DESIGN.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fft3d {

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

  friend bool operator==(const ArchProfile&, const ArchProfile&) = default;
};

const std::vector<ArchProfile>& arch_profiles();
std::optional<ArchProfile> find_arch_profile(std::string_view name);
std::string arch_profile_names();  // "tesla, fermi, hopper"

}  // namespace fft3d
