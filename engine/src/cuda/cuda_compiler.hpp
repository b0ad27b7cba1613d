// NVRTC compilation of generated kernels with an on-disk cache. Works without a GPU (compile for a named arch).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lowering/kernel_spec.hpp"

namespace fft3d {

// What ptxas reported for the kernel (--ptxas-options=-v).
struct CompileReport {
  int registers = -1;
  std::int64_t stack_frame_bytes = 0;
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
  std::int64_t static_shared_bytes = 0;
  bool from_cache = false;
  double compile_ms = 0;   // NVRTC time (0 on a cache hit)
  std::string cubin_path;  // the cache entry
  std::string log;         // the full NVRTC/ptxas log
  bool spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
};

struct CompiledKernel {
  std::string entry_name;
  std::vector<char> cubin;
  CompileReport report;
};

// Parses "Used N registers", "N bytes stack frame, N bytes spill stores, N bytes spill loads", "N bytes smem".
CompileReport parse_ptxas_log(const std::string& log);

// NVRTC's version as "13.0".
std::string nvrtc_version_text();

// The NVRTC options used for `arch` (e.g. 90): sm_<arch>, -std=c++17, ptxas verbose, and a register limit where the
// kernel's profile has one below the hardware's 255 (ArchProfile::max_registers_per_thread: Fermi's 63), so a
// kernel of that profile's tuning table fits the register file the table was tuned for (on sm_90 to within the
// allocation unit of 8 registers per thread: ptxas meets 63 with 64).
std::vector<std::string> nvrtc_options(int arch, int max_registers_per_thread = 255);

// The kernel cache's key: the hash of every byte NVRTC compiles (emit_compiled_source, which holds the spec
// text), the NVRTC version and every option (the arch among them).
std::uint64_t kernel_cache_key(const std::string& compiled_source, const std::vector<std::string>& options,
                               const std::string& nvrtc_version);

// Compiles the spec's emit_compiled_source for sm_<arch> within its profile's register limit, or loads it from the
// cache under kernel_cache_key. On failure the compiled source is kept next to the log and CompileError names both
// paths.
CompiledKernel compile_kernel(const KernelSpec& spec, int arch);

// The same for a fixed kernel text (not a KernelSpec): `source` with the entry `entry_name`, for sm_<arch>.
CompiledKernel compile_source(const std::string& source, const std::string& entry_name, int arch);

}  // namespace fft3d
