// Rule: a stage whose radix is over the profile's in-register limit runs as DIF passes within each butterfly group
// (TileStage::split_radices; the maps are tile::split_passes). Why the split is exact: with r = r1*r2, input
// k = k2 + r2*k1 and output m = m1 + r1*m2 of a group,
//   X_m = sum_k2 w_r2^(k2*m2) * [ w_r^(k2*m1) * sum_k1 x_(k2 + r2*k1) * w_r1^(k1*m1) ],
// so pass 1 is a radix-r1 DFT at group-index stride r2 with twiddle w_r^(k2*m1) (k2 = q mod r2), pass 2 a radix-r2
// DFT at stride 1, leaving X_m at group index m1*r2 + m2: the DIF stages of an r-point line with radices (r1, r2),
// applied recursively for more factors. The plan stage's own twiddle w_span^(j*m) depends only on the group (j) and
// the output m, so the last pass applies it with the natural m as it writes each output to its place.
#include <algorithm>

#include "lowering/tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d {

// A radix-r stage in registers holds 2r floats of values, and a twiddled one also the r - 1 twiddles that ptxas
// loads ahead of their multiplies. Measured on sm_90 (NVRTC ptxas -v): kernels with radix-32 stages take 164-168
// registers, radix 16: 71-92, radix 8: 40-64 (hence the estimate 5 * radix + 16).
// The limit keeps a stage within half the per-thread share of the register file at the profile's block size (two
// blocks per SM), and never above the profile's own per-thread maximum: hopper and tesla 16, fermi 8.
std::int64_t register_radix_limit(const ArchProfile& profile, Precision precision) {
  const std::int64_t registers_per_value = precision == Precision::fp64 ? 2 : 1;
  const auto estimated_registers = [registers_per_value](std::int64_t radix) {
    return 5 * radix * registers_per_value + 16;
  };
  const std::int64_t budget =
      std::min<std::int64_t>(profile.max_registers_per_thread,
                             profile.registers_per_sm / (2 * std::max(1, profile.threads_per_block)));
  std::int64_t limit = 2;
  while (estimated_registers(2 * limit) <= budget) limit *= 2;
  return limit;
}

namespace lowering {

namespace {
// A radix with factors other than 2 in passes of at most `limit`: its prime factors, largest first, each into the
// first pass it fits (first-fit decreasing), the passes then in increasing order (the larger last, as below).
std::vector<std::int64_t> split_mixed_radix(std::int64_t radix, std::int64_t limit) {
  std::vector<std::int64_t> factors;
  for (std::int64_t f = 2, rest = radix; rest > 1; ++f)
    while (rest % f == 0) {
      factors.push_back(f);
      rest /= f;
    }
  std::sort(factors.rbegin(), factors.rend());
  std::vector<std::int64_t> passes;
  for (std::int64_t f : factors) {
    auto fits = std::find_if(passes.begin(), passes.end(), [&](std::int64_t pass) { return pass * f <= limit; });
    if (fits == passes.end()) passes.push_back(f);
    else *fits *= f;
  }
  std::sort(passes.begin(), passes.end());
  return passes;
}
}  // namespace

std::vector<std::int64_t> split_radices(std::int64_t radix, std::int64_t limit) {
  if ((radix & (radix - 1)) != 0) return split_mixed_radix(radix, limit);
  const int bits = tile::log2_exact(radix);
  const int limit_bits = tile::log2_exact(limit);
  const int passes = (bits + limit_bits - 1) / limit_bits;
  std::vector<std::int64_t> radices;
  // Balanced: the passes' radices differ by at most a factor of two. The larger ones last: the last pass reads
  // radix-sized runs of consecutive group positions, and a larger radix there spreads a warp's butterflies over
  // more index bits that a swizzle can stagger (measured: X 32 = 4 x 8 behind a Z column is conflict-free on
  // Hopper with a two-field XOR layout, 8 x 4 is not).
  for (int i = passes - 1; i >= 0; --i) radices.push_back(std::int64_t{1} << (bits / passes + (i < bits % passes)));
  return radices;
}

// Rule: a tile that holds an SM alone takes wider passes (ArchProfile::one_block_tile_radix, Hopper 32). Its
// shared memory leaves no room for a second block, so its threads share the whole register file: 16384 elements
// (128 KB) at 32 values a thread is 512 threads of 128 registers, where ptxas fits radix-32 passes (97-118
// registers for the hopper table's 512- and 1024-point lines, none spilled). Why: with one block per SM nothing
// overlaps a tile's shared-memory round trips, and each one beyond the copy's costs 5-10% of the kernel, so a
// 1024-point line takes two passes (32 x 32) instead of three (8 x 8 x 16). Tiles that share an SM keep the
// in-register limit: they overlap their round trips with the other blocks' memory traffic, and ran slower with
// radix 32, as did spread tiles with one block a multiprocessor and the 16 KB X tiles, whose 2048 elements leave a
// radix-32 pass 64 of 256 threads. The 512-point Y lines of spread tiles that share an SM are the exception
// (widen_shared_spread_passes below). Measured: docs/performance.md, ledger "split radix".
std::int64_t pass_radix_limit(const KernelSpec& spec, const ArchProfile& profile) {
  const std::int64_t limit = register_radix_limit(profile, spec.precision);
  const std::int64_t wide = profile.one_block_tile_radix;
  // A tile of exactly part_bytes_limit fills one block; larger ones are spread over a cluster (distribute_tile.cpp).
  const bool one_block = spec.complex_bytes() * spec.tile_elements == part_bytes_limit(profile);
  // fp64 passes stay within the in-register limit: a wide pass's doubles would take twice the registers measured.
  if (spec.precision == Precision::fp64) return limit;
  if (wide <= limit || !one_block || spec.tile_elements / wide > profile.max_threads_per_block) return limit;
  return wide;
}

void split_large_radices(std::vector<TileStage>& stages, std::int64_t limit, std::int64_t pass_limit) {
  for (TileStage& stage : stages)
    if (stage.sub.radix > limit) stage.split_radices = split_radices(stage.sub.radix, pass_limit);
}

// Rule: a spread tile whose blocks share a multiprocessor (distribute_tile.cpp, 64 KB parts on hopper) takes the
// one-block radix for a Y stage that the in-register limit cuts into three radix-8 passes: a 512-point Y line runs
// as [16,32], two passes over the part instead of three, on 256 threads of 32 values (block_threads.cpp) with the
// 128 registers that two blocks of 256 leave. Why: those kernels ran 0.6-6.9% faster, where a 1024-point Y line
// ([8,8,16] into [32,32]) and 512-point Z lines ran slower, so only this stage widens (docs/performance.md, ledger
// "split radix"). Contract: the re-split leaves the part field where it was, so that the same first pass alone
// crosses the parts; otherwise the spec is kept.
void widen_shared_spread_passes(KernelSpec& spec, const KernelSpec& unsplit, const ArchProfile& profile) {
  if (spec.blocks_per_multiprocessor < 2 || spec.precision == Precision::fp64) return;
  const std::vector<std::int64_t> three_radix8{8, 8, 8};
  const auto y_in_radix8 = [&](const TileStage& stage) {
    return stage.sub.axis == Axis::y && stage.split_radices == three_radix8;
  };
  if (std::none_of(spec.stages.begin(), spec.stages.end(), y_in_radix8)) return;
  KernelSpec wide = unsplit;
  split_large_radices(wide.stages, register_radix_limit(profile, spec.precision), profile.one_block_tile_radix);
  distribute_large_tile(wide, profile);
  if (wide.blocks_per_multiprocessor == spec.blocks_per_multiprocessor && wide.tile_blocks == spec.tile_blocks &&
      wide.part_stride == spec.part_stride)
    spec = wide;
}

}  // namespace lowering
}  // namespace fft3d
