// Rule: the block size. The profile's own block size (the paper's, for tesla and fermi plans), doubled while a
// kernel with a split stage would leave a thread more than max_elements_per_thread tile elements, up to the
// profile's maximum. Why: the last pass of a split stage holds all of a thread's elements in registers across a
// barrier (2 registers each). 16 elements per thread puts a 128 KB Hopper tile (64X x 256 = 16384 elements) on 1024
// threads: 32 warps per SM for the shared-memory passes, and ptxas fits its radix-16 passes in the 64 registers
// that 1024 threads leave without spilling (NVRTC, sm_90); 512 threads would take 88-100 registers for 16 warps.
// A kernel whose passes hold more values (radix-32 passes of a one-block tile, split_radix.cpp) keeps that many per
// thread: 512 threads of 32 for the same tile.
#include <algorithm>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {
constexpr std::int64_t max_elements_per_thread = 16;
}

int block_threads(const KernelSpec& spec, const ArchProfile& profile) {
  int threads = profile.threads_per_block;
  bool split = false;
  std::int64_t per_thread = max_elements_per_thread;
  for (const TileStage& stage : spec.stages) {
    split |= stage.is_split();
    for (std::int64_t radix : stage.split_radices) per_thread = std::max(per_thread, radix);
  }
  if (!split) return threads;
  while (spec.part_elements() > per_thread * threads && 2 * threads <= profile.max_threads_per_block)
    threads *= 2;
  return threads;
}

}  // namespace fft3d::lowering
