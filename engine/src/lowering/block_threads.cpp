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
#include "lowering/tile_maps.hpp"

namespace fft3d::lowering {
namespace {
constexpr std::int64_t max_elements_per_thread = 16;
}

namespace {
constexpr std::int64_t warp_threads = 32;

// The most butterflies of a split stage's last pass (the pass that holds its values across a barrier).
std::int64_t held_butterflies(const KernelSpec& spec) {
  std::int64_t butterflies = 0;
  for (const TileStage& stage : spec.stages)
    if (stage.is_split()) butterflies = std::max(butterflies, spec.part_elements() / stage.split_radices.back());
  return butterflies;
}

int power_of_two_threads(const KernelSpec& spec, const ArchProfile& profile);
}  // namespace

// Mixed radices: where the power-of-two block leaves a thread more than one butterfly of a held pass (243-point
// lines behind 27 X: 729 radix-9 butterflies on 512 threads), one thread a butterfly instead, in whole warps. Why:
// the threads holding two butterflies' values set the pass's time while the others wait at its barrier.
int block_threads(const KernelSpec& spec, const ArchProfile& profile) {
  const int threads = power_of_two_threads(spec, profile);
  const std::int64_t held = held_butterflies(spec);
  if (tile::bit_fields(spec) || held <= threads) return threads;
  const std::int64_t mixed = (held + warp_threads - 1) / warp_threads * warp_threads;
  return mixed <= profile.max_threads_per_block ? static_cast<int>(mixed) : threads;
}

namespace {
int power_of_two_threads(const KernelSpec& spec, const ArchProfile& profile) {
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
}  // namespace

}  // namespace fft3d::lowering
