// Lowering rule global_passes.cpp: which kernels load in their first pass and store in their last, and the maps
// those passes use (natural_destination, last_pass_store_offset) against the staged load and store they replace.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "lowering/tile_maps.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "fft3d/wisdom.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

KernelSpec lower_kernel_of(const std::string& text, int kernel) {
  const Plan plan = parse_plan(text, "<test>").plan;
  return lower_plan(plan, *find_arch_profile(plan.arch)).kernels.at(static_cast<std::size_t>(kernel));
}

// The hopper 1024^3 Y kernel (one split stage, 8 x 8 x 16, along Y behind 16 X columns): both passes reach global
// memory with whole segments, so the tile is never loaded or stored through shared memory.
TEST(GlobalPasses, LongYLineLoadsAndStoresInItsPasses) {
  const KernelSpec spec = lower_kernel_of("size: [1024, 1024, 1024]\narch: hopper\nplan: \"{Y(1, 1024, 1, 1024, "
                                          "no-tw)} {Z(1, 1024, 1, 1024, no-tw)} {X(1, 1024, 1, 1024, no-tw)}\"\n", 0);
  EXPECT_TRUE(spec.load_in_first_pass);
  EXPECT_TRUE(spec.store_in_last_pass);
  const tile::SharedAccesses accesses = tile::shared_accesses(spec);
  for (const std::string& phase : accesses.phases) {
    EXPECT_NE(phase, "load");
    EXPECT_EQ(phase.find("store"), std::string::npos) << phase;
  }
  EXPECT_TRUE(tile::check_coalescing(spec).coalesced()) << tile::check_coalescing(spec).first_problem;
}

// A split stage of one pass first in the kernel (8192x1024x1's planner plan before L111: X radix 32 at stride 256 in
// a 16 x 32 tile) is its own last pass, which reads the tile from shared memory: that kernel keeps its load phase.
// It had taken the first-pass load, so no code read global memory and the GPU transformed shared memory's leftovers.
TEST(GlobalPasses, ASplitStageOfOnePassFirstKeepsTheLoadPhase) {
  const KernelSpec spec = lower_kernel_of("size: [8192, 1024, 1]\narch: hopper\nplan: \"{X(256, 32, 256, 8192, tw), "
                                          "Y(32, 32, 32, 1024, tw)} {X(32, 256, 1, 256, no-tw), Y(32, 32, 1, 32, "
                                          "no-tw)}\"\n", 0);
  ASSERT_TRUE(spec.stages.front().is_split());
  EXPECT_EQ(spec.stages.front().split_radices.size(), 1u);
  EXPECT_FALSE(spec.load_in_first_pass);
  EXPECT_TRUE(spec.store_in_last_pass);
}

// Every tile kernel reads its input from global memory: a load phase or a first pass that loads (the emitted source
// indexes `in`). Hopper's shipped complex plans, random hopper plans and the plan above.
TEST(GlobalPasses, EveryTileKernelReadsItsInput) {
  std::vector<NamedPlan> plans = random_plans(40, 19, 64, "hopper");
  for (NamedPlan& named : shipped_plans())
    if (named.plan.arch == "hopper") plans.push_back(std::move(named));
  plans.push_back({"8192x1024x1 split first stage",
                   parse_plan("size: [8192, 1024, 1]\narch: hopper\nplan: \"{X(256, 32, 256, 8192, tw), "
                              "Y(32, 32, 32, 1024, tw)} {X(32, 256, 1, 256, no-tw), Y(32, 32, 1, 32, no-tw)}\"\n")
                       .plan});
  int kernels = 0;
  for (const NamedPlan& named : plans) {
    SCOPED_TRACE(named.name);
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      ++kernels;
      EXPECT_NE(emit_cuda_source(spec).find("in["), std::string::npos) << "kernel " << spec.kernel_index;
    }
  }
  EXPECT_GT(kernels, 60);
}

// A first pass along X inside the 16-element runs (radix 64 at stride 1) would split segments: that kernel keeps
// its load phase, and forcing the flag on shows the checker sees why.
TEST(GlobalPasses, FirstPassAlongXRunsKeepsTheLoadPhase) {
  const KernelSpec spec = lower_kernel_of("size: [256, 256, 256]\narch: hopper\nplan: \"{X(64, 4, 64, 256, tw), "
                                          "Y(1, 256, 1, 256, no-tw)} {X(4, 64, 1, 64, no-tw), Z(1, 256, 1, 256, "
                                          "no-tw)}\"\n", 1);
  EXPECT_FALSE(spec.load_in_first_pass);
  EXPECT_FALSE(spec.store_in_last_pass);  // natural order across the cluster stores from shared memory
  KernelSpec forced = spec;
  forced.load_in_first_pass = true;
  EXPECT_FALSE(tile::check_coalescing(forced).coalesced());
}

// A contiguous tile of short rows (343^3's X kernel: 7 whole rows of 343) loads in its first pass although its
// requests split segments (the sweep's do too), and its twiddles index the table unreduced (j * k < 343); a
// contiguous tile of rows that are whole segments (384^3's X kernel) loads there only where that is coalesced.
TEST(GlobalPasses, AContiguousTileOfShortRowsLoadsInItsFirstPass) {
  const KernelSpec odd = lower_kernel_of("size: [343, 343, 343]\narch: hopper\nplan: \"{Y(1, 343, 1, 343, no-tw)} "
                                         "{Z(1, 343, 1, 343, no-tw)} {X(1, 343, 1, 343, no-tw)}\"\n", 2);
  ASSERT_TRUE(tile::offsets_are_elements(odd));
  EXPECT_TRUE(odd.load_in_first_pass);
  EXPECT_FALSE(tile::first_pass_loads_coalesced(odd, 0));
  const std::string source = emit_cuda_source(odd);
  EXPECT_NE(source.find("fft3d_twiddles_343[j * k]"), std::string::npos);
  EXPECT_EQ(source.find("% 343u]"), std::string::npos);
  const KernelSpec even = lower_kernel_of("size: [384, 384, 384]\narch: hopper\nplan: \"{Y(1, 384, 1, 384, no-tw)} "
                                          "{Z(1, 384, 1, 384, no-tw)} {X(1, 384, 1, 384, no-tw)}\"\n", 2);
  ASSERT_TRUE(tile::offsets_are_elements(even));
  EXPECT_EQ(even.load_in_first_pass, tile::first_pass_loads_coalesced(even, 0));
}

// Every kernel of the shipped and random plans: what the rule chose is coalesced in every checked block,
// natural_destination inverts natural_source, and the last pass's stores land exactly where the staged store would
// put each value, in both orders.
TEST(GlobalPasses, LastPassStoresWhereTheStagedStoreWould) {
  std::vector<NamedPlan> plans = shipped_plans();
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (NamedPlan& named : random_plans(30, 11, 16, arch)) plans.push_back(std::move(named));
  ASSERT_FALSE(plans.empty());
  int storing = 0;
  for (const NamedPlan& named : plans) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      // The rule decides on block 0; the full check (first and last block, every phase) must agree. Short rows
      // whose first-pass loads split segments (a contiguous tile takes them): the check takes the load sweep.
      KernelSpec checked = spec;
      if (spec.row_pitch() % spec.x_run_elements != 0 && !tile::first_pass_loads_coalesced(spec, 0))
        checked.load_in_first_pass = false;
      if (checked.load_in_first_pass || checked.store_in_last_pass) {
        EXPECT_TRUE(tile::check_coalescing(checked).coalesced())
            << named.name << " kernel " << spec.kernel_index << ": " << tile::check_coalescing(checked).first_problem;
      }
      if (!spec.store_in_last_pass) continue;
      ++storing;
      for (std::int64_t block : {std::int64_t{0}, spec.tiles - 1})
        for (bool natural : {false, true})
          for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
            const std::int64_t held = natural ? tile::natural_source(spec, e) : e;  // what the staged store reads
            ASSERT_EQ(tile::natural_source(spec, tile::natural_destination(spec, e)), e) << named.name;
            ASSERT_EQ(tile::last_pass_store_offset(spec, block, held, natural),
                      tile::store_offset(spec, block, e, natural))
                << named.name << " kernel " << spec.kernel_index << " element " << e;
          }
    }
  }
  EXPECT_GT(storing, 20);
}

// The last pass writes every tile element once (its outputs are a permutation of the tile), so its stores cover the
// tile's global elements exactly once.
TEST(GlobalPasses, LastPassOutputsCoverTheTileOnce) {
  ASSERT_FALSE(shipped_plans().empty()) << "no shipped plan found: the loop below would check nothing";
  for (const NamedPlan& named : shipped_plans()) {
    for (const KernelSpec& spec : lower_plan(named.plan, *find_arch_profile(named.plan.arch)).kernels) {
      if (!spec.store_in_last_pass) continue;
      const tile::ButterflyPass last = tile::last_pass(spec);
      std::set<std::int64_t> outputs;
      for (std::int64_t b = 0; b < spec.tile_elements / last.radix; ++b)
        for (std::int64_t m = 0; m < last.radix; ++m)
          outputs.insert(tile::last_pass_output_element(
              spec, tile::butterfly_base(last.element_step, last.radix, b), m));
      EXPECT_EQ(static_cast<std::int64_t>(outputs.size()), spec.tile_elements) << named.name;
      EXPECT_EQ(*outputs.rbegin(), spec.tile_elements - 1) << named.name;
    }
  }
}

// The first pass's loads of `block`: each butterfly's offset plus block 0's offset of its step k, as emitted.
void expect_loads_split_exactly(const KernelSpec& spec, std::int64_t block, bool sorted, const std::string& name) {
  const tile::ButterflyPass first = tile::first_pass(spec);
  for (std::int64_t b = 0; b < spec.tile_elements / first.radix; ++b) {
    const std::int64_t base = tile::butterfly_base(first.element_step, first.radix, b);
    for (std::int64_t k = 0; k < first.radix; ++k)
      ASSERT_EQ(tile::load_offset(spec, block, base + k * first.element_step, sorted),
                tile::load_offset(spec, block, base, sorted) +
                    tile::load_offset(spec, 0, k * first.element_step, sorted))
          << name << " kernel " << spec.kernel_index << " block " << block << " base " << base;
  }
}

// The last pass's stores of `block` in both orders: each butterfly's first output's offset plus block 0's offset
// of output m's distance from it, as emitted.
void expect_stores_split_exactly(const KernelSpec& spec, std::int64_t block, bool sorted, const std::string& name) {
  const tile::ButterflyPass last = tile::last_pass(spec);
  for (bool natural : {false, true})
    for (std::int64_t b = 0; b < spec.tile_elements / last.radix; ++b) {
      const std::int64_t base = tile::butterfly_base(last.element_step, last.radix, b);
      const std::int64_t p0 = tile::last_pass_output_element(spec, base, 0);
      for (std::int64_t m = 0; m < last.radix; ++m) {
        const std::int64_t p = tile::last_pass_output_element(spec, base, m);
        ASSERT_EQ(tile::last_pass_store_offset(spec, block, p, natural, sorted),
                  tile::last_pass_store_offset(spec, block, p0, natural, sorted) +
                      tile::last_pass_store_offset(spec, 0, p - p0, natural, sorted))
            << name << " kernel " << spec.kernel_index << " block " << block << " base " << base;
      }
    }
}

// Mixed-radix kernels, complex and real, reach global memory from their passes where the emitter's split offsets
// (a butterfly's first offset plus a constant per k) are exact. The rule checks that along the pass's axis only;
// here every butterfly of every part is checked in the first, a middle and the last block, so the per-axis
// reduction is tested too.
TEST(GlobalPasses, MixedKernelsSplitTheirOffsetsExactly) {
  std::vector<NamedPlan> plans = mixed_radix_plans();
  for (NamedPlan& named : mixed_bench_plans()) plans.push_back(std::move(named));
  for (const Extents& size : {Extents{96, 96, 96}, Extents{384, 384, 256}, Extents{120, 36, 20}})
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
      for (bool in_place : {false, true})
        plans.push_back({to_string(size) + " " + to_string(kind) + (in_place ? " in place" : ""),
                         default_plan_of_kind(size, "hopper", kind, {}, in_place)});
  int loading = 0, storing = 0;
  for (const NamedPlan& named : plans) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      if (spec.role != KernelRole::tile || tile::bit_fields(spec)) continue;
      const bool has_sorted = std::any_of(spec.axes.begin(), spec.axes.end(),
                                          [](const AxisTile& axis) { return !axis.sorted_radices.empty(); });
      for (std::int64_t block : {std::int64_t{0}, spec.tiles / 2, spec.tiles - 1})
        for (bool sorted : has_sorted ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
          if (spec.load_in_first_pass) expect_loads_split_exactly(spec, block, sorted, named.name);
          if (spec.store_in_last_pass) expect_stores_split_exactly(spec, block, sorted, named.name);
        }
      loading += spec.load_in_first_pass;
      storing += spec.store_in_last_pass;
    }
  }
  EXPECT_GT(loading, 10);
  EXPECT_GT(storing, 10);
}

// The planner ranks candidates with the offsets checked in the end tiles of the pass's axis only (OffsetCheck,
// lowering/cost_model.cpp). On the mixed plans and four mixed sizes' ranked candidates (fp32 and fp64, 1D to 3D),
// that answers as every tile does, for the first pass's loads and the last pass's stores.
TEST(GlobalPasses, TheEndTilesAnswerAsEveryTileDoes) {
  std::vector<NamedPlan> plans = mixed_radix_plans();
  for (NamedPlan& named : mixed_bench_plans()) plans.push_back(std::move(named));
  for (const Extents& size : {Extents{245760, 1, 1}, Extents{1680, 1680, 1}, Extents{120, 36, 20}, Extents{96, 96, 96}})
    for (Precision precision : {Precision::fp32, Precision::fp64})
      for (RankedPlan& ranked :
           ranked_plans(size, "hopper", passes_in_precision(passes_on_its_profile, precision), 6)) {
        ranked.plan.precision = precision;
        plans.push_back({to_string(size) + " " + to_string(precision), std::move(ranked.plan)});
      }
  int skipping = 0;
  for (const NamedPlan& named : plans) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (KernelSpec spec : lowered->kernels) {
      if (spec.role != KernelRole::tile || tile::bit_fields(spec)) continue;
      SCOPED_TRACE(named.name + " kernel " + std::to_string(spec.kernel_index));
      EXPECT_EQ(tile::first_pass_offsets_add(spec, OffsetCheck::end_tiles), tile::first_pass_offsets_add(spec));
      spec.store_in_last_pass = true;  // as the rule asks
      EXPECT_EQ(tile::last_pass_offsets_add(spec, OffsetCheck::end_tiles), tile::last_pass_offsets_add(spec));
      for (Axis axis : {spec.stages.front().sub.axis, spec.stages.back().sub.axis})
        skipping += spec.axes[axis_index(axis)].tiles() > 2 * tile::tiles_checked_at_each_end;
    }
  }
  EXPECT_GT(skipping, 20);  // kernels whose middle tiles the end-tile check skips
}

// What first_pass_offsets_add and last_pass_offsets_add answer for, walked over every tile and every butterfly of
// the pass without their shortcuts (one tile where the maps take the pass axis's positions as they are): each input
// k (output m) at the butterfly's first offset plus its offset in block 0.
bool loads_add_in_every_tile(const KernelSpec& spec, bool sorted) {
  const tile::ButterflyPass pass = tile::first_pass(spec);
  for (std::int64_t block = 0; block < spec.tiles; ++block)
    for (std::int64_t b = 0; b < spec.tile_elements / pass.radix; ++b) {
      const std::int64_t base = tile::butterfly_base(pass.element_step, pass.radix, b);
      const std::int64_t head = tile::load_offset(spec, block, base, sorted);
      for (std::int64_t k = 0; k < pass.radix; ++k)
        if (tile::load_offset(spec, block, base + k * pass.element_step, sorted) !=
            head + tile::load_offset(spec, 0, k * pass.element_step, sorted))
          return false;
    }
  return true;
}

bool stores_add_in_every_tile(const KernelSpec& spec, bool natural, bool sorted) {
  const tile::ButterflyPass pass = tile::last_pass(spec);
  for (std::int64_t block = 0; block < spec.tiles; ++block)
    for (std::int64_t b = 0; b < spec.tile_elements / pass.radix; ++b) {
      const std::int64_t base = tile::butterfly_base(pass.element_step, pass.radix, b);
      const std::int64_t first = tile::last_pass_output_element(spec, base, 0);
      const std::int64_t head = tile::last_pass_store_offset(spec, block, first, natural, sorted);
      for (std::int64_t m = 0; m < pass.radix; ++m) {
        const std::int64_t p = tile::last_pass_output_element(spec, base, m);
        if (tile::last_pass_store_offset(spec, block, p, natural, sorted) !=
            head + tile::last_pass_store_offset(spec, 0, p - first, natural, sorted))
          return false;
      }
    }
  return true;
}

// The offset checks answer as the walk over every tile does, on small mixed plans and ranked candidates (1D to 3D,
// both precisions), whether or not the maps move the pass axis's positions.
TEST(GlobalPasses, TheOffsetChecksAnswerAsEveryTileDoes) {
  std::vector<NamedPlan> plans = mixed_radix_plans();
  for (const Extents& size : {Extents{245760, 1, 1}, Extents{120, 36, 20}, Extents{60, 48, 40}})
    for (Precision precision : {Precision::fp32, Precision::fp64})
      for (RankedPlan& ranked :
           ranked_plans(size, "hopper", passes_in_precision(passes_on_its_profile, precision), 6)) {
        ranked.plan.precision = precision;
        plans.push_back({to_string(size) + " " + to_string(precision), std::move(ranked.plan)});
      }
  int mapping = 0, taken_as_they_are = 0;
  for (const NamedPlan& named : plans) {
    if (named.plan.size.elements() > 300000) continue;  // the walk is every element times the radix
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (KernelSpec spec : lowered->kernels) {
      if (spec.role != KernelRole::tile || tile::bit_fields(spec)) continue;
      SCOPED_TRACE(named.name + " kernel " + std::to_string(spec.kernel_index));
      spec.store_in_last_pass = true;  // as the rule asks
      const bool has_sorted = std::any_of(spec.axes.begin(), spec.axes.end(),
                                          [](const AxisTile& axis) { return !axis.sorted_radices.empty(); });
      bool loads = true, stores = true;
      for (bool sorted : has_sorted ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
        loads = loads && loads_add_in_every_tile(spec, sorted);
        for (bool natural : {false, true}) stores = stores && stores_add_in_every_tile(spec, natural, sorted);
      }
      EXPECT_EQ(tile::first_pass_offsets_add(spec), loads);
      EXPECT_EQ(tile::last_pass_offsets_add(spec), stores);
      const Axis last = spec.stages.back().sub.axis;
      (tile::store_maps_positions(spec, last, true, has_sorted) ? mapping : taken_as_they_are) += 1;
    }
  }
  EXPECT_GT(mapping, 5);             // every tile walked: natural order across a cluster, sorted layouts
  EXPECT_GT(taken_as_they_are, 20);  // the first tile answers
}

// The answers the rule asks for (first_pass_loads_coalesced, last_pass_stores_coalesced stop at the first partial
// segment) are the full reports' answers, on every shipped and mixed plan's kernels, as the rule asks them (the
// stores with store_in_last_pass set).
TEST(GlobalPasses, CoalescedAnswersMatchTheFullReports) {
  std::vector<NamedPlan> plans = shipped_plans();
  for (NamedPlan& named : mixed_radix_plans()) plans.push_back(std::move(named));
  for (NamedPlan& named : mixed_bench_plans()) plans.push_back(std::move(named));
  int partial = 0, whole = 0;
  for (const NamedPlan& named : plans) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (KernelSpec spec : lowered->kernels) {
      spec.store_in_last_pass = true;
      for (std::int64_t block : {std::int64_t{0}, spec.tiles - 1}) {
        const bool loads = tile::check_first_pass_loads(spec, block).coalesced();
        const bool stores = tile::check_last_pass_stores(spec, block).coalesced();
        EXPECT_EQ(tile::first_pass_loads_coalesced(spec, block), loads) << named.name << " " << spec.kernel_index;
        EXPECT_EQ(tile::last_pass_stores_coalesced(spec, block), stores) << named.name << " " << spec.kernel_index;
        (loads && stores ? whole : partial) += 1;
      }
    }
  }
  EXPECT_GT(partial, 10);
  EXPECT_GT(whole, 10);
}

// A load sweep whose elements do not divide among the threads (343³ R2C's step kernel on paired rows: 1372
// elements over 128 threads) loads the thread's elements into registers before it stores any to shared memory, so
// several loads are in flight per thread; every global load of the sweep comes before its first shared-memory store.
TEST(GlobalPasses, AnUnevenLoadSweepIssuesItsLoadsBeforeItsSharedStores) {
  KernelSpec spec = lower_kernel_of("size: [343, 343, 343]\narch: hopper\nkernels:\n"
                                    "  - \"X(1, 343, 1, 343, no-tw), R2C(X, 343)\"\n"
                                    "  - \"Y(1, 343, 1, 343, no-tw)\"\n  - \"Z(1, 343, 1, 343, no-tw)\"\n", 0);
  // The rule has its first pass load (a contiguous tile of short rows, global_passes.cpp): the sweep as emitted
  // without it.
  ASSERT_TRUE(spec.load_in_first_pass);
  spec.load_in_first_pass = false;
  ASSERT_NE(spec.tile_elements % spec.threads, 0);
  const std::string source = emit_cuda_source(spec);
  const std::size_t sweep = source.find("float2 staged[");
  ASSERT_NE(sweep, std::string::npos);
  const std::size_t end = source.find("__syncthreads();", sweep);
  const std::size_t last_load = source.rfind("staged[i] = ", end);  // the sweep's global loads
  const std::size_t first_store = source.find("re[a] =", sweep);
  ASSERT_GT(last_load, sweep);
  EXPECT_LT(last_load, first_store);
  EXPECT_LT(first_store, end);
}

}  // namespace
}  // namespace fft3d::testing
