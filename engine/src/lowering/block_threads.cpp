// Rule: the block size. The profile's own block size (the paper's, for tesla and fermi plans), doubled while a
// kernel with a split stage would leave a thread more than max_elements_per_thread tile elements, up to the
// profile's maximum. Why: the last pass of a split stage holds all of a thread's elements in registers across a
// barrier (2 registers each). 16 elements per thread puts a 128 KB Hopper tile (64X x 256 = 16384 elements) on 1024
// threads: 32 warps per SM for the shared-memory passes, and ptxas fits its radix-16 passes in the 64 registers
// that 1024 threads leave without spilling (NVRTC, sm_90); 512 threads would take 88-100 registers for 16 warps.
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {
constexpr std::int64_t max_elements_per_thread = 16;
}

int block_threads(const KernelSpec& spec, const ArchProfile& profile) {
  int threads = profile.threads_per_block;
  bool split = false;
  for (const TileStage& stage : spec.stages) split |= stage.is_split();
  if (!split) return threads;
  while (spec.part_elements() > max_elements_per_thread * threads && 2 * threads <= profile.max_threads_per_block)
    threads *= 2;
  return threads;
}

}  // namespace fft3d::lowering
