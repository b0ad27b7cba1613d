// What the default planner is told a lowered hopper plan costs (passes_on_its_profile, lowering/cost_model.cpp), and
// the choices it makes with it, which match what the plans measured on an H100 (docs/performance.md, ledger).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>

#include "fft3d/arch_profile.hpp"
#include "fft3d/diagnostics.hpp"
#include "lowering/cost_model.hpp"
#include "lowering/kernel_spec.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d::testing {
namespace {

Plan hopper_plan(const std::string& size, const std::string& kernels) {
  return parse_plan("size: [" + size + "]\narch: hopper\nplan: \"" + kernels + "\"\n").plan;
}

// The two-pass 256^3 plan: its first tile (128 KB) leaves room for one block per multiprocessor (0.1); its second
// also, and stores natural order through the exchange across a cluster of 4, reading 3/4 of the tile from the other
// blocks (0.75 * 1.2). Three whole-line passes with 32 KB tiles cost three, and 0.1 for the Z kernel's short runs.
TEST(PlannerCost, ChargesTheExchangeByWhatItReadsFromOtherBlocks) {
  const Plan two_pass = hopper_plan("256, 256, 256", "{X(64, 4, 64, 256, tw), Y(1, 256, 1, 256, no-tw)} "
                                                     "{X(4, 64, 1, 64, no-tw), Z(1, 256, 1, 256, no-tw)}");
  EXPECT_NEAR(*passes_on_its_profile(two_pass), 2 + 0.1 + 0.75 * 1.2 + 0.1, 1e-12);
  const Plan three_pass = hopper_plan("256, 256, 256", "{Y(1, 256, 1, 256, no-tw)} {Z(1, 256, 1, 256, no-tw)} "
                                                       "{X(1, 256, 1, 256, no-tw)}");
  EXPECT_NEAR(*passes_on_its_profile(three_pass), 3.0 + 0.1, 1e-12);  // the Z kernel: 16 X behind whole Z lines
  // A cluster of 2 with 64 KB tiles (several blocks per multiprocessor): half the tile remote, at 0.6.
  const Plan pair = hopper_plan("128, 1024, 128", "{X(64, 2, 64, 128, tw), Y(1, 1024, 1, 1024, no-tw)} "
                                                  "{X(2, 64, 1, 64, no-tw), Z(1, 128, 1, 128, no-tw)}");
  const LoweredPlan lowered = lower_plan(pair, *find_arch_profile("hopper"));
  ASSERT_EQ(lowered.kernels[1].tiles_per_cluster(), 2);
  ASSERT_EQ(lowered.kernels[0].tile_blocks, 2);  // 32 x 1024 is 256 KB; only its first pass (X radix 2) crosses
  EXPECT_NEAR(*passes_on_its_profile(pair), 2 + (0.4 + 0.1) + 0.5 * 0.6, 1e-12);
}

// A 4-tile exchange with several blocks per multiprocessor (64 KB tiles) is overlapped by memory traffic when the
// volume is over the L2 cache (0.75 * 0.6), not when it stays in L2 between kernels (0.75 * 1.2).
TEST(PlannerCost, ChargesAnExchangeInL2LikeOneWithNothingToHideBehind) {
  const auto four_tile_exchange = [](const std::string& ny) {
    return hopper_plan("256, " + ny + ", 128", "{X(64, 4, 64, 256, tw), Y(1, " + ny + ", 1, " + ny + ", no-tw)} "
                                               "{X(4, 64, 1, 64, no-tw), Z(1, 128, 1, 128, no-tw)}");
  };
  const Plan in_l2 = four_tile_exchange("128");    // 32 MB
  const Plan over_l2 = four_tile_exchange("256");  // 64 MB
  for (const Plan* plan : {&in_l2, &over_l2}) {
    const LoweredPlan lowered = lower_plan(*plan, *find_arch_profile("hopper"));
    ASSERT_EQ(lowered.kernels[1].tiles_per_cluster(), 4);
    ASSERT_LE(lowered.kernels[1].shared_bytes, find_arch_profile("hopper")->shared_memory_per_block / 2);
  }
  EXPECT_NEAR(*passes_on_its_profile(in_l2), 2 + 0.75 * 1.2, 1e-12);
  // (The first tile of the 64 MB plan, 64 X x 256 Y, is 128 KB: one block per multiprocessor, 0.1.)
  EXPECT_NEAR(*passes_on_its_profile(over_l2), 2 + 0.1 + 0.75 * 0.6, 1e-12);
}

// The mixed-tile charge follows the tile's own digits, not the volume's: the real slabs' flat fp64 column (513 x 512
// rows of 1024 Z values, an X length of no power of two) costs what the same Z tile costs on a power-of-two volume
// of as many rows, and a tile whose staged axis has a factor 3 still takes the charge.
TEST(PlannerCost, ChargesTheMixedTileOnlyWhereTheTilesOwnDigitsAreNotBitFields) {
  const auto column = [](const std::string& size, const std::string& kernels) {
    return parse_plan("size: [" + size + "]\narch: hopper\nprecision: fp64\naxes: [Z]\nplan: \"" + kernels + "\"\n")
        .plan;
  };
  const double flat = *passes_on_its_profile(column("262656, 1, 1024", "{Z(1, 1024, 1, 1024, no-tw)}"));
  const double pow2 = *passes_on_its_profile(column("262144, 1, 1024", "{Z(1, 1024, 1, 1024, no-tw)}"));
  EXPECT_NEAR(flat, pow2, 1e-12);
  const double mixed = *passes_on_its_profile(column("262144, 1, 768", "{Z(1, 768, 1, 768, no-tw)}"));
  EXPECT_GE(mixed, 1.0 + find_arch_profile("hopper")->cost.spread_mixed_tile);  // one pass and the charge at least
}

// The costs beyond one pass were measured on an H100; the Tesla and Fermi profiles count one pass per kernel (plus
// the digit-reversal pass where natural order needs it), as the paper does.
TEST(PlannerCost, CountsWholePassesOnTheTeslaAndFermiProfiles) {
  for (const char* arch : {"tesla", "fermi"}) {
    const std::optional<std::string> path = find_table_plan(arch, {512, 512, 512});
    ASSERT_TRUE(path.has_value()) << arch;
    const Plan plan = load_plan_file(*path).plan;
    const LoweredPlan lowered = lower_plan(plan, *find_arch_profile(arch));
    EXPECT_DOUBLE_EQ(*passes_on_its_profile(plan),
                     static_cast<double>(lowered.kernels.size() + (lowered.reorder ? 1 : 0)))
        << arch;
  }
}

// The sorted layout's late form (docs/performance.md L158): the hopper table's C2R mirror runs in place in two
// passes, its last kernel's sorted stores in clusters of its 16 Z tiles. The model charges the late form in place
// (late_sorted_stores) and the tie-break out of place, so the planner keeps 1024x512x64 C2C's early-form plan in
// place, which measured 0.468 ms against 0.552 for the late-form plan it took uncharged.
TEST(PlannerCost, TheLateFormServesTheC2rMirrorsAndIsChargedInPlace) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  const std::optional<std::string> path = find_table_plan("hopper", {512, 512, 512}, true, TransformKind::c2r);
  ASSERT_TRUE(path.has_value());
  const Plan c2r = load_plan_file(*path).plan;
  const LoweredPlan lowered = lower_plan(c2r, hopper);
  EXPECT_TRUE(lowered.sorts_late_in_place);
  EXPECT_EQ(lowered.volume_passes(true, false), 2);
  EXPECT_EQ(lowered.kernels[1].sorted_store_cluster, 16);
  const lowering::ModelTerms in_place = lowering::model_terms(c2r, lowered, hopper, true);
  const lowering::ModelTerms out_of_place = lowering::model_terms(c2r, lowered, hopper, false);
  EXPECT_EQ(in_place.late_sort, hopper.cost.late_sorted_stores);
  EXPECT_NEAR(in_place.total() - out_of_place.total(), hopper.cost.late_sorted_stores - 0.01, 1e-9);
  const Plan c2c = plan_for_size({1024, 512, 64}, "hopper", true, passes_on_its_profile_in(true), TransformKind::c2c,
                                 Precision::fp32, 1, "")
                       .parsed.plan;
  EXPECT_EQ(c2c.kernels.size(), 2u);
  EXPECT_FALSE(lower_plan(c2c, hopper).sorts_late_in_place) << to_yaml(c2c);
}

// The default plans take the forms that measured fastest (docs/performance.md, ledger "sorted layout" and "spread
// tiles and parts"): two passes stored in the sorted layout with no exchange (Y split for 256^3, 512x256x256 and
// 512x64x64, Z split for 1024x1024x16 and 1024x512x64) beat three whole-line passes and the two-pass plans with an
// exchange across a cluster (256^3: 0.250 against 0.287 and 0.313 ms).
TEST(PlannerCost, DefaultPlansFollowTheMeasuredCosts) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  for (const Extents& size : {Extents{256, 256, 256}, Extents{512, 256, 256}, Extents{512, 64, 64},
                              Extents{1024, 1024, 16}, Extents{1024, 512, 64}}) {
    SCOPED_TRACE(to_string(size));
    const Plan plan = default_plan(size, "hopper", passes_on_its_profile);
    ASSERT_EQ(plan.kernels.size(), 2u);
    const LoweredPlan lowered = lower_plan(plan, hopper);
    EXPECT_TRUE(lowered.sorted_layout_in_place);
    EXPECT_EQ(lowered.kernels[1].tiles_per_cluster(), 1);  // no exchange
  }
  // 1024x256x256: a Y split would spread its first kernel over a cluster, slower than three passes; the Z split with
  // X whole in a one-block first kernel is faster, and in place runs that kernel in clusters of its 16 Z tiles (over
  // the portable 8, opted in). Its second tile, 512 KB, is spread over 8 blocks of 64 KB and crosses only in its
  // first pass.
  {
    const Plan plan = default_plan({1024, 256, 256}, "hopper", passes_on_its_profile);
    ASSERT_EQ(plan.kernels.size(), 2u);
    const LoweredPlan lowered = lower_plan(plan, hopper);
    EXPECT_TRUE(lowered.sorted_layout_in_place);
    EXPECT_EQ(lowered.kernels[0].sorted_store_cluster, 16);
    EXPECT_EQ(lowered.kernels[0].tile_blocks, 1);
    EXPECT_EQ(8 * lowered.kernels[1].tile_elements, 512 << 10);
    EXPECT_EQ(lowered.kernels[1].tile_blocks, 8);
  }
  // A second kernel spread over 4-8 blocks that crosses only in its first pass (the Z splits) takes 0.86-0.96 of
  // three passes' time, so the planner takes two passes there.
  for (const Extents& size : {Extents{1024, 1024, 64}, Extents{256, 512, 512}}) {
    SCOPED_TRACE(to_string(size));
    const Plan plan = default_plan(size, "hopper", passes_on_its_profile);
    ASSERT_EQ(plan.kernels.size(), 2u);
    const LoweredPlan lowered = lower_plan(plan, hopper);
    EXPECT_GT(lowered.kernels[1].tile_blocks, 2);
    EXPECT_TRUE(lowered.sorted_layout_in_place);
  }
  // With the part field crossed by the first pass alone, 2^27-point sizes take Z or Y splits whose second tile
  // spreads over 8 blocks (512^3: 2.04 ms against 2.25 for three passes); but where a Z split's second tile spreads
  // Y lines over 4 blocks, it beats the Y split whose second tile spreads Z lines of 512-1024 planes over 8. (The 1 MB
  // tiles of Y lines take 64-byte X runs, narrow_x_runs.cpp, and every such tile is cut into 8 parts of 64 KB,
  // distribute_tile.cpp: "over N blocks" here is the 128 KB blocks the tile of 128-byte runs would fill.)
  const auto tile_bytes_at_128_byte_runs = [](const KernelSpec& spec) {
    return 8 * spec.tile_elements * (16 / spec.x_run_elements);
  };
  for (const Extents& size : {Extents{512, 512, 512}, Extents{1024, 512, 256}, Extents{1024, 128, 1024}}) {
    SCOPED_TRACE(to_string(size));
    const LoweredPlan lowered = lower_plan(default_plan(size, "hopper", passes_on_its_profile), hopper);
    ASSERT_EQ(lowered.kernels.size(), 2u);
    EXPECT_EQ(tile_bytes_at_128_byte_runs(lowered.kernels[1]), 1 << 20);
    EXPECT_EQ(lowered.kernels[1].tile_blocks, 8);
  }
  // The same for Y lines behind 8 Z values over 4 blocks against 16 over 8; but not for 4 Z values over 4 blocks
  // against 8 over 8 (1024x1024x64). The 8 Z values behind the Y line of 1024 take 64-byte X runs, a 512 KB tile
  // (narrow_x_runs.cpp).
  for (const Extents& size : {Extents{512, 256, 512}, Extents{256, 256, 1024}, Extents{512, 512, 256},
                              Extents{1024, 512, 128}}) {
    SCOPED_TRACE(to_string(size));
    const Plan plan = default_plan(size, "hopper", passes_on_its_profile);
    ASSERT_EQ(plan.kernels.size(), 2u);
    EXPECT_EQ(plan.kernels[0].subs.back().axis, Axis::z);  // a Z split
    EXPECT_EQ(tile_bytes_at_128_byte_runs(lower_plan(plan, hopper).kernels[1]), 512 << 10);
  }
  const Plan wide = default_plan({1024, 1024, 64}, "hopper", passes_on_its_profile);
  EXPECT_EQ(tile_bytes_at_128_byte_runs(lower_plan(wide, hopper).kernels[1]), 1 << 20);
  EXPECT_EQ(lower_plan(wide, hopper).kernels[1].x_run_elements, 8);
  EXPECT_EQ(wide.kernels[1].subs.front().radix, 8);  // Z8 x Y1024
}

// A tile of 128-byte runs from 256 or more Z planes of a volume over the L2 cache costs 0.1 more (the Y split's
// second kernel, 16 X behind whole Z lines); the Z split of the same radices reads whole X rows and Y lines. Why:
// 64x512x512's Z split ran in 0.260 ms against 0.303 for its Y split, where with 128 Z planes the Y split won.
TEST(PlannerCost, ChargesZLinesOfShortRunsOverTheL2Cache) {
  const auto split = [](const std::string& size, char axis, char other, int n, int first, int whole) {
    const std::string a(1, axis), o(1, other), second = std::to_string(n / first);
    return hopper_plan(size, "{X(1, 64, 1, 64, no-tw), " + a + "(" + second + ", " + std::to_string(first) + ", " +
                                 second + ", " + std::to_string(n) + ", tw)} {" + a + "(" + std::to_string(first) +
                                 ", " + second + ", 1, " + second + ", no-tw), " + o + "(1, " + std::to_string(whole) +
                                 ", 1, " + std::to_string(whole) + ", no-tw)}");
  };
  const Plan y_split = split("64, 512, 512", 'Y', 'Z', 512, 256, 512);  // 128 MB
  const Plan z_split = split("64, 512, 512", 'Z', 'Y', 512, 256, 512);
  EXPECT_NEAR(*passes_on_its_profile(y_split) - *passes_on_its_profile(z_split), 0.1, 1e-12);
  const Plan y_split_in_l2 = split("64, 256, 256", 'Y', 'Z', 256, 128, 256);  // 32 MB
  const Plan z_split_in_l2 = split("64, 256, 256", 'Z', 'Y', 256, 128, 256);
  EXPECT_NEAR(*passes_on_its_profile(y_split_in_l2), *passes_on_its_profile(z_split_in_l2), 1e-12);
  const Plan chosen = default_plan({64, 512, 512}, "hopper", passes_on_its_profile);  // a Z split, radices its own
  ASSERT_EQ(chosen.kernels.size(), 2u);
  EXPECT_EQ(chosen.kernels[0].subs.back().axis, Axis::z);
  EXPECT_EQ(chosen.kernels[1].subs.back().axis, Axis::y);
  // 128 Z planes are not charged, 256 are (three whole-line passes, 128 MB and 256 MB).
  const auto three_pass = [](const std::string& nz) {
    return hopper_plan("256, 512, " + nz, "{Y(1, 512, 1, 512, no-tw)} {Z(1, " + nz + ", 1, " + nz + ", no-tw)} "
                                          "{X(1, 256, 1, 256, no-tw)}");
  };
  EXPECT_NEAR(*passes_on_its_profile(three_pass("128")), 3.0, 1e-12);
  EXPECT_NEAR(*passes_on_its_profile(three_pass("256")), 3.1, 1e-12);
}

// A kernel of 16 blocks on a GPU of 132 multiprocessors doubled 1024x16x16's time against 128 blocks
// (docs/performance.md, ledger "small-volume grids"). The charge keeps every kernel of such small volumes' plans at
// 64 blocks or more; a 64-block kernel is hardly charged (plans with one mostly ran faster than the alternatives).
TEST(PlannerCost, SmallVolumesKeepHalfTheGpuBusy) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  for (const Extents& size : {Extents{1024, 16, 16}, Extents{128, 64, 16}, Extents{16, 1024, 16}}) {
    SCOPED_TRACE(to_string(size));
    const LoweredPlan lowered = lower_plan(default_plan(size, "hopper", passes_on_its_profile), hopper);
    for (const KernelSpec& spec : lowered.kernels) EXPECT_GE(spec.launch_blocks(), 64);  // without the charge: 16
  }
}

// Measured planning's candidates: distinct, cheapest first by the same costs, and led by the default plan.
TEST(PlannerCost, RankedPlansAreDistinctCheapestFirstAndLedByTheDefault) {
  for (const Extents& size : {Extents{256, 256, 256}, Extents{1024, 1024, 16}, Extents{128, 256, 512}}) {
    SCOPED_TRACE(to_string(size));
    const std::vector<RankedPlan> ranked = ranked_plans(size, "hopper", passes_on_its_profile, 4);
    ASSERT_EQ(ranked.size(), 4u);
    EXPECT_EQ(ranked.front().plan, default_plan(size, "hopper", passes_on_its_profile));
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      EXPECT_DOUBLE_EQ(ranked[i].passes, *passes_on_its_profile(ranked[i].plan));
      if (i > 0) {
        EXPECT_LE(ranked[i - 1].passes, ranked[i].passes);
      }
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(ranked[i].plan, ranked[j].plan);
    }
  }
  EXPECT_THROW(ranked_plans({256, 256, 256}, "hopper", passes_on_its_profile, 0), UsageError);
}

// Planning ends on a long mixed axis: 3 * 5 * 7 * 2^14 in 1D, fp64, weighs the planner's cap of candidates (its
// two-kernel plans take the mixed spread tile's charge), so a candidate must not cost a walk of the whole
// 1.7M-point axis (docs/performance.md#l174). The bound is far above the seconds it takes; past it the test
// reports and exits rather than hang the suite.
TEST(PlannerCost, ALongMixed1DAxisInFp64PlansWithoutACrawl) {
  constexpr auto bound = std::chrono::seconds(300);
  const Extents size{1720320, 1, 1};
  std::future<Plan> planning = std::async(std::launch::async, [&size] {
    return default_plan(size, "hopper", passes_in_precision(passes_on_its_profile, Precision::fp64));
  });
  if (planning.wait_for(bound) != std::future_status::ready) {
    std::fprintf(stderr, "planning %s in fp64 did not end within %lld s\n", to_string(size).c_str(),
                 static_cast<long long>(bound.count()));
    std::_Exit(EXIT_FAILURE);  // the planning thread cannot be stopped; leaving it would hang the suite
  }
  Plan plan = planning.get();
  plan.precision = Precision::fp64;
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"));  // every tile checked, as a run lowers
  EXPECT_GE(lowered.kernels.size(), 2u);
  EXPECT_EQ(plan.size, size);
}

}  // namespace
}  // namespace fft3d::testing
