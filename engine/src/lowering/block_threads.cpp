// Rule: the block size. The profile's own block size (the paper's, for tesla and fermi plans), doubled while a
// kernel with a split stage would leave a thread more than max_elements_per_thread tile elements, up to the
// profile's maximum. Why: the last pass of a split stage holds all of a thread's elements in registers across a
// barrier (2 registers each). 16 elements per thread puts a 128 KB Hopper tile (64X x 256 = 16384 elements) on 1024
// threads: 32 warps per SM for the shared-memory passes, and ptxas fits its radix-16 passes in the 64 registers
// that 1024 threads leave without spilling (NVRTC, sm_90); 512 threads would take 88-100 registers for 16 warps.
// A kernel whose passes hold more values (radix-32 passes of a one-block tile, split_radix.cpp) keeps that many per
// thread: 512 threads of 32 for the same tile.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {
constexpr std::int64_t max_elements_per_thread = 16;
constexpr int warp_threads = 32;
constexpr int min_balanced_warps = 2;
// A grid fills the GPU for balanced threads when it holds this many waves of the threads the GPU runs at once at
// assumed_registers a thread.
constexpr std::int64_t min_balanced_waves = 4;
constexpr std::int64_t assumed_registers = 64;

// Work items of each round a block takes through its tile: the load and store sweeps (one element each), then
// every pass of every stage (one butterfly each).
std::vector<std::int64_t> round_items(const KernelSpec& spec) {
  const std::int64_t part = spec.part_elements();
  std::vector<std::int64_t> items{part};
  for (const TileStage& stage : spec.stages) {
    if (!stage.is_split()) items.push_back(part / stage.sub.radix);
    for (std::int64_t radix : stage.split_radices) items.push_back(part / radix);
  }
  return items;
}

// Thread slots a block holds through its sweeps and passes: sum of ceil(items / threads) * threads.
std::int64_t held_slots(const std::vector<std::int64_t>& items, std::int64_t threads) {
  std::int64_t slots = 0;
  for (std::int64_t n : items) slots += (n + threads - 1) / threads * threads;
  return slots;
}

bool has_mixed_radix(const KernelSpec& spec) {
  for (const TileStage& stage : spec.stages) {
    if (!std::has_single_bit(static_cast<std::uint64_t>(stage.sub.radix))) return true;
    for (std::int64_t radix : stage.split_radices)
      if (!std::has_single_bit(static_cast<std::uint64_t>(radix))) return true;
  }
  return false;
}

// Rule: a complex one-block tile with a radix other than a power of two takes the power of two of threads, at most
// the block size above, that holds the fewest thread slots through its sweeps and passes (the larger on ties),
// keeping at most `per_thread` elements a thread and a grid of min_balanced_waves (300^3's X tile: 128 threads; its
// radix-15 pass has 80 butterflies). Why: idle threads wait at each pass's barrier while holding registers that
// could host other blocks; a grid that does not fill the GPU has no other blocks to host.
int balanced_threads(const KernelSpec& spec, const ArchProfile& profile, int threads, std::int64_t per_thread) {
  const std::vector<std::int64_t> items = round_items(spec);
  const std::int64_t fewest = (spec.part_elements() + per_thread - 1) / per_thread;
  const std::int64_t gpu_threads = profile.multiprocessors * (profile.registers_per_sm / assumed_registers);
  const std::int64_t filling = (min_balanced_waves * gpu_threads + spec.tiles - 1) / spec.tiles;
  const std::int64_t lowest = std::max({min_balanced_warps * std::int64_t{warp_threads}, fewest, filling});
  int best = threads;
  for (std::int64_t t = threads / 2; t >= lowest; t /= 2)
    if (held_slots(items, t) < held_slots(items, best)) best = static_cast<int>(t);
  return best;
}
}  // namespace

int block_threads(const KernelSpec& spec, const ArchProfile& profile, bool real) {
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
  if (real || spec.tile_blocks > 1 || !has_mixed_radix(spec)) return threads;
  return balanced_threads(spec, profile, threads, per_thread);
}

}  // namespace fft3d::lowering
