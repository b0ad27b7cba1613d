// Rule: 64-byte X runs where they keep a tile in one block, halve a tile that fills a cluster and crosses it in a
// radix-8 or radix-16 pass, or spare a launch a near-empty last wave. A kernel with no X stage holds one 16-element
// (128-byte) X run behind its Y and Z lines. A profile with narrow_x_run_bytes narrows that run to 8 elements (64
// bytes) when its Z lines are shorter than 512 planes and either
// - the tile is over one block's shared memory (part_bytes_limit) and
//   - the narrowed tile fits one block: its passes then all stay in the block and reach global memory themselves,
//     instead of a tile spread over 2 blocks whose first pass writes the other block's shared memory; or
//   - the tile fills a cluster of the portable maximum (8 blocks of 128 KB on hopper) and its first pass is radix 8
//     or 16: the halved tile spreads over fewer blocks, or over smaller parts (distribute_tile.cpp); or
//   - the tile is one line of Y or Z by the X run, over such a cluster (in fp64 the opt-in one), and the halved
//     tile fits one: the kernel lowers instead of being refused (a 16384-point line, 2 MB by 16 X in fp32 and 4 MB
//     in fp64, in a 2D plan of one axis a kernel); or
// - the tile fits one block but only one a multiprocessor (over half the block's shared memory), and the launch (its
//   Nyquist tiles included) ends in a near-empty wave: the halved tiles fit two or more a multiprocessor (a
//   256x128x128 real kernel's 128 tiles and 16 Nyquist tiles of 128 KB on 132 multiprocessors are two waves, the
//   second 12 blocks).
// Contract: the blocks holding the two halves of a 128-byte line are consecutive (X tiles are walked first), and every
// access still covers whole 64-byte runs (KernelSpec::x_run_elements, which the coalescing checker reads).
// Why: a copy of 64-byte runs costs 1.03-1.08 times one of 128-byte runs, where a kernel spread over 2 blocks costs
// 1.24-1.39 times its copy twin; 32-byte runs and long Z lines gained nothing. Measured: docs/performance.md, ledger
// "narrow X runs".
#include <algorithm>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

// The one X run of `spec`'s tile cut to `narrow` elements: `factor` tiles where there was one, for `reason`.
void narrow_to(KernelSpec& spec, std::int64_t narrow, std::int64_t factor, XRunNarrowing reason) {
  AxisTile& x = spec.axes[axis_index(Axis::x)];
  x.tile = {{narrow, 1}};
  x.grid = {{x.length / narrow, narrow}};
  spec.tile_elements /= factor;
  spec.tiles *= factor;
  spec.x_run_elements = narrow;
  spec.x_run_narrowing = reason;
}

// The share of a launch's block slots (whole waves of one block a multiprocessor) its last wave must leave idle for
// narrowing to pay: narrower runs cost more per tile than a small tail's idle slots (docs/performance.md L165).
constexpr double tail_idle_share = 0.25;

// Whether `blocks` tiles of one block a multiprocessor leave over tail_idle_share of their waves' slots idle. A grid
// of one wave or less is a small grid, which narrowing does not speed up (docs/performance.md L164).
bool ends_in_a_tail(std::int64_t blocks, const ArchProfile& profile) {
  const std::int64_t multiprocessors = profile.multiprocessors;
  if (multiprocessors <= 0) return false;  // a profile that does not count them
  const std::int64_t slots = (blocks + multiprocessors - 1) / multiprocessors * multiprocessors;
  const auto idle = static_cast<double>(slots - blocks);
  return blocks > multiprocessors && idle > tail_idle_share * static_cast<double>(slots);
}

}  // namespace

void narrow_x_runs(KernelSpec& spec, const Kernel& kernel, const ArchProfile& profile, std::int64_t volumes,
                   bool nyquist_tiles) {
  // Counted in complex fp32 values for both precisions: 8 fp64 values are still one whole 128-byte segment.
  const std::int64_t narrow = profile.narrow_x_run_bytes / 8;
  const AxisTile& x = spec.axes[axis_index(Axis::x)];
  const bool one_run = x.tile == std::vector<TileMode>{{spec.x_run_elements, 1}};
  if (narrow <= 0 || narrow >= spec.x_run_elements || !one_run || x.length < spec.x_run_elements) return;
  if (spec.masks_x()) return;  // padded rows (padded_rows.cpp): their runs start off segment boundaries
  for (const SubComputation& sub : kernel.subs)
    if (sub.axis == Axis::x) return;
  if (spec.axes[axis_index(Axis::z)].extent() >= 512) return;
  const std::int64_t limit = part_bytes_limit(profile);
  const std::int64_t factor = spec.x_run_elements / narrow;  // tiles per old tile, each holding 1/factor of it
  const std::int64_t bytes = spec.complex_bytes();
  if (spec.tile_elements * bytes <= limit) {
    const bool one_a_multiprocessor = 2 * spec.tile_elements * bytes > profile.shared_memory_per_block;
    const std::int64_t volume_blocks = spec.tiles + (nyquist_tiles ? nyquist_tile_count(spec) : 0);
    const std::int64_t blocks = volume_blocks * std::min(volumes, max_volumes_per_launch);
    if (one_a_multiprocessor && ends_in_a_tail(blocks, profile))
      narrow_to(spec, narrow, factor, XRunNarrowing::spares_a_tail);
    return;
  }
  const bool fits_one_block = spec.tile_elements / factor * bytes <= limit;
  const std::int64_t first_radix = kernel.subs.front().radix;
  const std::int64_t cluster_limit = limit * profile.max_cluster_size;
  const bool fills_a_cluster = spec.tile_elements * bytes == cluster_limit && (first_radix == 8 || first_radix == 16);
  const bool one_line = spec.axes[axis_index(Axis::y)].extent() == 1 || spec.axes[axis_index(Axis::z)].extent() == 1;
  const auto fits_only_narrowed = [&](std::int64_t cluster_bytes) {
    return spec.tile_elements * bytes > cluster_bytes && spec.tile_elements / factor * bytes <= cluster_bytes;
  };
  // fp64 tiles may take the opt-in cluster (distribute_tile.cpp): a line of doubles over it is narrowed too.
  const std::int64_t opt_in_limit = limit * std::max(profile.max_cluster_size, profile.max_cluster_size_opt_in);
  const bool fits_a_cluster_only_narrowed =
      one_line && (fits_only_narrowed(cluster_limit) ||
                   (spec.precision == Precision::fp64 && fits_only_narrowed(opt_in_limit)));
  if (fits_one_block) narrow_to(spec, narrow, factor, XRunNarrowing::fits_one_block);
  else if (fills_a_cluster) narrow_to(spec, narrow, factor, XRunNarrowing::fills_a_cluster);
  else if (fits_a_cluster_only_narrowed) narrow_to(spec, narrow, factor, XRunNarrowing::fits_a_cluster);
}

}  // namespace fft3d::lowering
