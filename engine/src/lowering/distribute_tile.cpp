// Rule: spread a tile that one block cannot hold over a cluster. On a profile with clusters, a tile over
// part_bytes_limit (the largest power of two within one block's shared memory: 128 KB on hopper) is spread over
// several blocks of one cluster, each holding the elements whose digit (part_stride, tile_blocks) of the element
// index reads its part number: 2, 4, ... blocks and a bit field where the tile is all powers of two; otherwise the
// fewest blocks that divide the tile (3 parts of a 3 x 128-element axis, 2 of 3 x 256, ...). The digit is placed
// where the fewest butterfly passes after the first cross it (then the fewest passes), never inside the 16-element
// X runs (whole X rows where the tile's X extent is not a multiple of a run), so the loads and stores stay whole
// 128-byte segments; the passes that cross parts read and write the other blocks' shared memory
// (tile::crosses_parts). Bounded by the profile's portable cluster size, counting the tiles a cluster already holds
// for natural order; a mixed tile that no portable cluster divides into parts within the limit (3^10 values: 9
// parts) takes the opt-in size (the engine opts the kernel in to it).
//
// Tiles that fit one block stay whole: a spread kernel costs 2.1-2.4 times its copy twin, and the planner charges
// it two extra passes. A tile spread anyway, whose first pass alone crosses, takes parts of 1 /
// spread_blocks_per_multiprocessor of that size (64 KB on hopper), so that two blocks of different clusters share a
// multiprocessor and one issues while the other waits at a cluster barrier or on its loads. The portable cluster size
// still bounds the blocks; tiles that would need more are halved by narrow_x_runs.cpp instead. An fp64 tile spread
// anyway takes such parts whichever pass crosses, within the opt-in cluster: a 128 KB fp64 part holds a multiprocessor
// alone (512 threads at 100-107 registers), so its fp64 passes, at half fp32's rate, run between its loads and its
// stores with nothing to overlap them. One-block fp64 tiles stay whole: in pairs of 64 KB parts they ran slower.
// Measured: docs/performance.md, ledger L152.
//
// A tile of the whole volume (every axis whole, two or more of them longer than 1: a batch's 2D or 3D volumes, one a
// tile) is spread over the portable cluster's most blocks, in parts as small as that makes them, where those parts
// are at most 1/whole_volume_part_share of a one-block part and no more passes cross than at the fewest blocks.
// Such a kernel runs every axis's passes between its loads and stores, and small blocks of different clusters share
// a multiprocessor, one computing while another waits at a barrier (docs/performance.md L131). Where it does not
// apply, the rules above stand.
// Measured: docs/performance.md, ledger "spread tiles and parts".
#include <algorithm>
#include <tuple>

#include "lowering_rules.hpp"

namespace fft3d::lowering {

std::int64_t part_bytes_limit(const ArchProfile& profile) {
  std::int64_t limit = 1;
  while (2 * limit <= profile.shared_memory_per_block) limit *= 2;
  return limit;
}

namespace {

// What crossing parts costs with the part field at `shift`: the passes that go through distributed shared memory
// after the first one (first pass loading from global memory only writes the other parts, and remote writes do not
// wait), then all of them, then their radices (as larger radices hold more values in
// registers around the remote accesses), and a store that reads other parts (natural order inside the tile). A
// split last stage stores its outputs to global memory from its last pass (global_passes.cpp), so that pass crosses
// only by its reads, and no store reads the tile.
std::tuple<int, int, std::int64_t> crossing_cost(KernelSpec spec, std::int64_t stride) {
  spec.part_stride = stride;
  int passes = 0, later = 0, index = 0;
  std::int64_t radices = 0;
  const auto count = [&](bool cross, std::int64_t radix) {
    passes += cross;
    later += cross && index > 0;
    ++index;
    radices += cross ? radix : 0;
  };
  const bool split_last = spec.stages.back().is_split();
  bool last_reads_cross = false;
  for (std::size_t s = 0; s < spec.stages.size(); ++s) {
    const TileStage& stage = spec.stages[s];
    if (!stage.is_split()) {
      count(tile::stage_crosses_parts(spec, stage), stage.sub.radix);
      continue;
    }
    for (const tile::SplitPass& pass : tile::split_passes(stage)) {
      const bool last = split_last && s + 1 == spec.stages.size() && pass.last;
      last_reads_cross |= last && tile::crosses_parts(spec, pass.element_step, pass.radix);
      count(last ? last_reads_cross : tile::pass_crosses_parts(spec, stage, pass), pass.radix);
    }
  }
  if (!split_last) {
    for (const AxisTile& axis : spec.axes)
      if (!axis.reversal_radices.empty())
        count(tile::crosses_parts(spec, tile::axis_linear_stride(spec, axis.axis), axis.length), axis.length);
  }
  return {later, passes, radices};
}

constexpr std::tuple<int, int, std::int64_t> no_spread{1 << 30, 0, 0};

// Spreads a tile of powers of two over blocks of at most `part_bytes` (within `most_blocks`) and places
// the part field: any bits above the X runs (each part keeps whole runs along X), where crossing_cost is least; ties
// go to the highest field. Why: a field crossed by the first pass alone beat one crossed by a middle pass by 15%
// (512^3's {Z 16, Y 512} tile; docs/performance.md, ledger "spread tiles and parts").
// Returns the field's crossing_cost.
std::tuple<int, int, std::int64_t> spread_bit_field(KernelSpec& spec, int most_blocks, std::int64_t part_bytes) {
  const std::int64_t tile_bytes = spec.complex_bytes() * spec.tile_elements;
  while (tile_bytes / spec.tile_blocks > part_bytes && 2 * spec.cluster_blocks <= most_blocks) {
    spec.tile_blocks *= 2;
    spec.cluster_blocks *= 2;
  }
  std::tuple<int, int, std::int64_t> best = no_spread;
  if (spec.tile_blocks == 1) return best;
  const int top = tile::log2_exact(spec.tile_elements) - tile::log2_exact(spec.tile_blocks);
  for (int shift = std::min(tile::log2_exact(spec.x_run_elements), top); shift <= top; ++shift) {
    const std::int64_t stride = std::int64_t{1} << shift;
    const std::tuple<int, int, std::int64_t> cost = crossing_cost(spec, stride);
    if (cost <= best) {
      best = cost;
      spec.part_stride = stride;
    }
  }
  return best;
}

// Whether every pass that crosses the parts of `spec` splits its butterflies evenly among them (the crossing
// loops give part p the butterflies [p * per_part, (p + 1) * per_part)).
bool crossing_passes_divide(const KernelSpec& spec) {
  for (const tile::ButterflyPass& pass : tile::butterfly_pass_list(spec))
    if (pass.cross && (spec.tile_elements / pass.radix) % spec.tile_blocks != 0) return false;
  return true;
}

// The tile-linear distance every part stride is a multiple of: whole X runs, or whole X rows where the tile's X
// extent is not a multiple of a run.
std::int64_t part_stride_unit(const KernelSpec& spec) {
  const std::int64_t ex = spec.axes[0].extent();
  return ex % spec.x_run_elements == 0 ? spec.x_run_elements : ex;
}

// Spreads a tile with other digits: the fewest blocks that divide the tile and bring its parts within `part_bytes`
// (within `most_blocks` with the tiles the cluster already holds), the part digit at any stride that is a multiple of part_stride_unit and
// whose digit divides the tile, where crossing_cost is least (ties: the highest) and every crossing pass's
// butterflies divide among the parts. Returns the digit's crossing_cost (no_spread: the tile stays whole).
std::tuple<int, int, std::int64_t> spread_digit(KernelSpec& spec, int most_blocks, std::int64_t part_bytes) {
  const std::int64_t tile_bytes = spec.complex_bytes() * spec.tile_elements, unit = part_stride_unit(spec);
  if (tile_bytes <= part_bytes) return no_spread;
  for (int blocks = 2; spec.cluster_blocks * blocks <= most_blocks; ++blocks) {
    if (spec.tile_elements % blocks != 0 || tile_bytes / blocks > part_bytes) continue;
    KernelSpec spread = spec;
    spread.tile_blocks = blocks;
    spread.cluster_blocks = spec.cluster_blocks * blocks;
    std::tuple<int, int, std::int64_t> best = no_spread;
    const std::int64_t strides = spec.tile_elements / blocks;
    for (std::int64_t stride = std::min(unit, strides); stride <= strides; stride += std::min(unit, strides)) {
      if (strides % stride != 0) continue;
      spread.part_stride = stride;
      if (!crossing_passes_divide(spread)) continue;
      const std::tuple<int, int, std::int64_t> cost = crossing_cost(spread, stride);
      if (cost <= best) {
        best = cost;
        spec.tile_blocks = spread.tile_blocks;
        spec.cluster_blocks = spread.cluster_blocks;
        spec.part_stride = stride;
      }
    }
    if (best != no_spread) return best;
  }
  return no_spread;
}

// The largest cluster a mixed tile may take: the portable size, or with `opt_in` the profile's opt-in size where no
// portable cluster divides the tile into parts within the limit (3^10 values: 9 parts).
int most_cluster_blocks(const ArchProfile& profile, bool opt_in) {
  return opt_in ? std::max(profile.max_cluster_size, profile.max_cluster_size_opt_in) : profile.max_cluster_size;
}

// An fp64 tile of powers of two takes the opt-in size too where the portable one cannot hold its parts (a tile of
// doubles needs twice the blocks of the same tile in fp32, so the two-pass plans of fp32 keep two passes).
std::tuple<int, int, std::int64_t> spread_tile(KernelSpec& spec, const ArchProfile& profile, std::int64_t part_bytes,
                                               bool opt_in = false) {
  if (tile::bit_fields(spec))
    return spread_bit_field(spec, most_cluster_blocks(profile, opt_in && spec.precision == Precision::fp64),
                            part_bytes);
  std::tuple<int, int, std::int64_t> cost = spread_digit(spec, most_cluster_blocks(profile, false), part_bytes);
  if (cost == no_spread && opt_in) cost = spread_digit(spec, most_cluster_blocks(profile, true), part_bytes);
  return cost;
}

// A mixed tile that no cluster divides into parts within part_bytes_limit takes parts up to one block's whole shared
// memory, less room for its layout's padding (343^2 = 7^6 values: 7 parts of 134 KB, where 49 would pass the opt-in
// cluster size). Why: the power-of-two limit is a choice for tiles with a choice; without one, the block's own
// limit is what bounds the tile. Only where the caller allows it (lower_plan: kernels that run, not the planner's
// ranking): the model charges such spread mixed tiles 3.5 passes or more, so lowering them for every candidate
// would only cost planning time.
constexpr std::int64_t layout_padding_share = 32;  // pad layouts add at most a word every 32
std::int64_t whole_block_part_bytes(const ArchProfile& profile) {
  return profile.shared_memory_per_block - profile.shared_memory_per_block / layout_padding_share;
}

// The whole-volume rule (file comment): `spec` spread over the fewest blocks, `whole` the same tile before it.
// Returns whether it widened `spec`.
bool widen_whole_volume_spread(KernelSpec& spec, const KernelSpec& whole, const ArchProfile& profile) {
  KernelSpec widest = whole;
  const std::int64_t smallest_part = whole.complex_bytes() * whole.tile_elements / profile.max_cluster_size;
  if (smallest_part * whole_volume_part_share > part_bytes_limit(profile)) return false;
  const std::tuple<int, int, std::int64_t> cost = spread_tile(widest, profile, smallest_part);
  if (cost == no_spread || widest.tile_blocks <= spec.tile_blocks) return false;
  if (std::get<1>(cost) > std::get<1>(crossing_cost(spec, spec.part_stride))) return false;
  spec = widest;
  return true;
}

}  // namespace

bool tile_holds_whole_volume(const KernelSpec& spec) {
  const auto whole = [](const AxisTile& axis) { return axis.extent() == axis.length; };
  const auto long_axis = [](const AxisTile& axis) { return axis.length > 1; };
  return std::all_of(spec.axes.begin(), spec.axes.end(), whole) &&
         std::count_if(spec.axes.begin(), spec.axes.end(), long_axis) >= whole_volume_min_axes;
}

bool whole_volume_in_small_parts(const KernelSpec& spec, const ArchProfile& profile) {
  return spec.tile_blocks > 1 && tile_holds_whole_volume(spec) &&
         spec.complex_bytes() * spec.part_elements() * whole_volume_part_share <= part_bytes_limit(profile);
}

void distribute_large_tile(KernelSpec& spec, const ArchProfile& profile, bool whole_block_parts) {
  const std::int64_t limit = part_bytes_limit(profile);
  const KernelSpec whole = spec;
  if (spread_tile(spec, profile, limit, true) == no_spread && !tile::bit_fields(spec) && spec.complex_bytes() * spec.tile_elements > limit &&
      profile.max_cluster_size > 1 &&
      (!whole_block_parts || spread_tile(spec, profile, whole_block_part_bytes(profile), true) == no_spread))
    throw LoweringError("kernel " + std::to_string(spec.kernel_index) + " {" + to_string(spec.kernel) + "}: its tile of " +
                        std::to_string(spec.tile_elements) + (spec.precision == Precision::fp64 ? " fp64" : "") + " elements (" +
                        std::to_string(spec.complex_bytes() * spec.tile_elements) + " B) is over one block's " +
                        std::to_string(limit) +
                        " B, and no cluster of at most " +
                        std::to_string(most_cluster_blocks(profile, true)) +
                        " blocks divides it into parts within that with a part digit above the X runs");
  if (spec.tile_blocks > 1 && tile_holds_whole_volume(spec) && widen_whole_volume_spread(spec, whole, profile)) return;
  const int sharing = profile.spread_blocks_per_multiprocessor;
  if (spec.tile_blocks == 1 || sharing == 1) return;
  // Spread anyway: parts of 1/sharing of a block's limit, when the field then still crosses in the first pass
  // alone (the form measured; ptxas fits those kernels in the registers that `sharing` blocks leave a thread), or
  // for fp64 whichever pass crosses (file comment).
  KernelSpec shared = whole;
  const bool fp64 = spec.precision == Precision::fp64;
  const bool first_pass_alone = std::get<0>(spread_tile(shared, profile, limit / sharing, fp64)) == 0;
  if (!(first_pass_alone || fp64) || shared.complex_bytes() * shared.part_elements() > limit / sharing) return;
  shared.blocks_per_multiprocessor = sharing;
  spec = shared;
}

}  // namespace fft3d::lowering
