// Rule: global memory reached from the butterfly passes. A tile kernel's load phase writes the tile to shared memory
// only for the first pass to read it back, and its store phase reads back what the last pass wrote: two sweeps of
// the tile through shared memory and two barriers each. The first pass can read its inputs from global memory and
// the last pass can write its outputs there (natural order by natural_destination), as long as those accesses stay
// whole 128-byte segments: a butterfly's inputs are element_step apart, so a pass whose step is at least one
// 16-element X run keeps the 32 threads of a warp on whole runs. Conditions:
// - at least two passes, so a barrier separates the last global load from the first global store (in place);
// - the load: a first pass that the emitter lets load, an in-register stage's or a split stage's inner pass (a split
//   stage of one pass is its own last pass, which reads the tile from shared memory);
// - the load: no strided natural-order store across a cluster (its arrive follows a load phase);
// - the store: no natural order across a cluster (the exchange and strided forms store from shared memory after
//   cluster barriers); in a tile spread over a cluster's blocks, a split last stage (see below).
// Why: the one-block 128 KB tiles of the hopper table spend their time over the copy twin in shared-memory sweeps
// that no other block overlaps; spread tiles gain the same. Measured: docs/performance.md, ledger "global passes".
// Except: a tile whose elements lie in memory order over rows that are not a multiple of the segment (343, 243, 100,
// 280, 1000) loads in its first pass whatever segments its requests touch. Why: the block reads its whole
// contiguous tile either way, so partial requests cost L1 wavefronts but no DRAM sectors beyond the tile's, while
// the sweep writes and reads the tile through shared memory, which bounds those kernels (docs/performance.md L187).
#include "lowering_rules.hpp"

namespace fft3d::tile {

ButterflyPass first_pass(const KernelSpec& spec) { return butterfly_pass_list(spec).front(); }
ButterflyPass last_pass(const KernelSpec& spec) { return butterfly_pass_list(spec).back(); }

int butterfly_passes(const KernelSpec& spec) {
  int passes = 0;
  for (const TileStage& stage : spec.stages)
    passes += stage.is_split() ? static_cast<int>(stage.split_radices.size()) : 1;
  return passes;
}

std::vector<ButterflyPass> butterfly_pass_list(const KernelSpec& spec) {
  std::vector<ButterflyPass> passes;
  for (const TileStage& stage : spec.stages) {
    if (!stage.is_split()) {
      passes.push_back({stage.sub.radix, stage.element_step, stage_crosses_parts(spec, stage)});
      continue;
    }
    for (const SplitPass& pass : split_passes(stage))
      passes.push_back({pass.radix, pass.element_step, pass_crosses_parts(spec, stage, pass)});
  }
  return passes;
}

std::int64_t last_pass_output_element(const KernelSpec& spec, std::int64_t base, std::int64_t m) {
  const TileStage& stage = spec.stages.back();
  if (stage.is_split()) return split_output_element(stage, base, m);
  return base + m * stage.element_step;
}

std::int64_t last_pass_store_offset(const KernelSpec& spec, std::int64_t block, std::int64_t p, bool natural,
                                    bool sorted) {
  return store_offset(spec, block, natural ? natural_destination(spec, p) : p, natural, sorted);
}

}  // namespace fft3d::tile

namespace fft3d::lowering {
namespace {
// A tile addressed as tile_base + e (tile::offsets_are_elements) over rows that are not a multiple of the segment.
bool contiguous_tile_of_short_rows(const KernelSpec& spec) {
  return tile::offsets_are_elements(spec) && spec.row_pitch() % spec.x_run_elements != 0;
}
}  // namespace

void reach_global_from_passes(KernelSpec& spec, OffsetCheck check) {
  spec.load_in_first_pass = spec.store_in_last_pass = false;
  if (spec.role != KernelRole::tile || tile::butterfly_passes(spec) < 2) return;
  // The passes' global offsets add the tile offsets of a butterfly's base and of its input steps (emit_tile_kernel),
  // which holds for bit-field digits, and for other digits where the exhaustive check finds no carry. (A real
  // kernel splits its offsets into X and row parts; a pass steps along one axis, so only one part moves, and the
  // check of the whole offset checks that part.)
  const bool bits = tile::bit_fields(spec);
  // A tile spread over a cluster: each block loads the inputs of its share of the first pass's butterflies (when
  // that pass crosses parts, its writes reach the other blocks' shared memory), and stores from a split last pass
  // only, whose cluster barrier between its reads and its writes keeps every block's loads ahead of every store.
  const bool spread_store = spec.tile_blocks == 1 || spec.stages.back().is_split();
  // Block 0 stands for all: the others' accesses are its own moved by their origin, a whole number of 16-element
  // X runs (and of rows), which keeps every segment whole or split alike. (check_coalescing, which `explain` and
  // the tests run, checks the last block too.) The check is what lowering spends most of its time on.
  const bool cluster_store = spec.tiles_per_cluster() > 1;
  const TileStage& first = spec.stages.front();
  const bool first_pass_loads = !first.is_split() || first.split_radices.size() > 1;
  const bool load = first_pass_loads && (!cluster_store || tile::exchanges_across_cluster(spec)) &&
                    (contiguous_tile_of_short_rows(spec) || tile::first_pass_loads_coalesced(spec, 0)) &&
                    (bits || tile::first_pass_offsets_add(spec, check));
  KernelSpec storing = spec;  // the last pass's butterflies as they run when it writes global memory
  storing.store_in_last_pass = true;
  // A transposed store walks the tile in its own slot order (KernelSpec::transposed_store_run): a store sweep.
  const bool store = spread_store && !cluster_store && spec.transposed_store_run == 0 &&
                     tile::last_pass_stores_coalesced(storing, 0) &&
                     (bits || tile::last_pass_offsets_add(storing, check));
  spec.load_in_first_pass = load;
  spec.store_in_last_pass = store;
}

}  // namespace fft3d::lowering
