// Lowering rule narrow_x_runs.cpp: where a tile takes 64-byte X runs (a kernel without X stages whose tile then fits
// one block and otherwise would be spread over a cluster, that fills 8 blocks of 128 KB, or whose one-block tiles end
// in a near-empty wave), what the coalescing
// checker then requires, and what the planner charges. (The GPU tests run every shipped plan, the 2048^3
// one among them, against cuFFT or in closed form.)
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/planner.hpp"
#include "lowering/tile_maps.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

Plan hopper_plan(const std::string& size, const std::string& kernels) {
  return parse_plan("size: [" + size + "]\narch: hopper\nplan: \"" + kernels + "\"\n").plan;
}

const Plan& lines_2048() {
  static const Plan plan = hopper_plan("2048, 2048, 2048", "{Y(1, 2048, 1, 2048, no-tw)} {Z(1, 2048, 1, 2048, no-tw)} "
                                                           "{X(1, 2048, 1, 2048, no-tw)}");
  return plan;
}

// A 2048-point Y line behind 16 X is 256 KB, over one block's 128 KB; behind 8 X it fits: one block, both global
// passes, every access whole 64-byte runs. The Z line stays spread, over 4 parts of 64 KB (Z lines of 512 or more
// planes keep 128-byte runs), and the X kernel has X stages and keeps its whole line.
TEST(NarrowXRuns, TakenWhereTheyKeepATileInOneBlock) {
  const LoweredPlan lowered = lower_plan(lines_2048(), *find_arch_profile("hopper"));
  {
    const KernelSpec& spec = lowered.kernels[0];
    EXPECT_EQ(spec.x_run_elements, 8);
    EXPECT_EQ(spec.x_run_narrowing, XRunNarrowing::fits_one_block);
    EXPECT_EQ(spec.axes[0].tile, (std::vector<TileMode>{{8, 1}}));
    EXPECT_EQ(spec.tile_blocks, 1);
    EXPECT_EQ(spec.tile_elements, 8 * 2048);
    EXPECT_EQ(spec.tiles * spec.tile_elements, lines_2048().size.elements());
    EXPECT_TRUE(spec.load_in_first_pass);
    EXPECT_TRUE(spec.store_in_last_pass);
    const tile::CoalescingReport coalescing = tile::check_coalescing(spec);
    EXPECT_TRUE(coalescing.coalesced()) << coalescing.first_problem;
    EXPECT_GT(coalescing.requests, 0);
  }
  EXPECT_EQ(lowered.kernels[1].x_run_elements, 16);
  EXPECT_EQ(lowered.kernels[1].x_run_narrowing, XRunNarrowing::none);
  EXPECT_EQ(lowered.kernels[1].tile_blocks, 4);
  EXPECT_EQ(lowered.kernels[2].x_run_elements, 16);
  // A Z split's second tile, 8 Z planes behind a whole Y line of 256 (128 KB at 64-byte runs), narrows too, and so
  // does 256^3's, 8 Y behind whole Z lines of 256.
  for (const Extents& size : {Extents{512, 256, 256}, Extents{256, 256, 256}}) {
    const KernelSpec second =
        lower_plan(load_plan_file(*find_table_plan("hopper", size)).plan, *find_arch_profile("hopper")).kernels[1];
    EXPECT_EQ(second.x_run_elements, 8) << to_string(size);
    EXPECT_EQ(second.tile_blocks, 1) << to_string(size);
  }
}

// One-block tiles of one block a multiprocessor that end in a near-empty wave narrow: 256x128x128's real kernel off
// the step holds 16 X by a Z line of 128 by 8 Y (128 KB), 128 tiles and 16 Nyquist tiles on 132 multiprocessors, a
// second wave of 12; narrowed, 256 tiles and the same 16 Nyquist tiles of 64 KB, which fit three a multiprocessor.
// Not taken where the last wave leaves fewer slots idle (512x512x64's: 544 blocks, 17.6% of five waves' slots), nor
// in the complex plan of the same size (256 tiles: two waves, 8 of their 264 slots idle).
TEST(NarrowXRuns, TakenWhereOneBlockTilesEndInANearEmptyWave) {
  const ArchProfile& hopper = *find_arch_profile("hopper");
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    SCOPED_TRACE(to_string(kind));
    const Plan real = load_plan_file(*find_table_plan("hopper", {256, 128, 128}, false, kind)).plan;
    for (const KernelSpec& spec : lower_plan(real, hopper).kernels) {
      if (spec.real.nyquist_tiles == 0) continue;
      EXPECT_EQ(spec.x_run_elements, 8);
      EXPECT_EQ(spec.x_run_narrowing, XRunNarrowing::spares_a_tail);
      EXPECT_EQ(spec.launch_blocks(), 256 + 16);
      EXPECT_EQ(spec.tile_elements * 8, 64 << 10);
      const tile::CoalescingReport coalescing = tile::check_coalescing(spec);
      EXPECT_TRUE(coalescing.coalesced()) << coalescing.first_problem;
    }
    const Plan near_full = default_plan_of_kind({512, 512, 64}, "hopper", kind);
    for (const KernelSpec& spec : lower_plan(near_full, hopper).kernels)
      if (spec.real.nyquist_tiles > 0) EXPECT_EQ(spec.x_run_elements, 16) << spec.launch_blocks() << " blocks";
  }
  const Plan complex = load_plan_file(*find_table_plan("hopper", {256, 128, 128})).plan;
  for (const KernelSpec& spec : lower_plan(complex, hopper).kernels) EXPECT_EQ(spec.x_run_elements, 16);
}

// 64-byte runs are half of each 128-byte segment: checked against 128-byte segments, every request of such a tile
// leaves segments half covered. The checker holds a narrowed kernel to its own runs, and no wider.
TEST(NarrowXRuns, EveryAccessCoversWholeRunsAndOnlyHalfSegments) {
  KernelSpec spec = lower_plan(lines_2048(), *find_arch_profile("hopper")).kernels[0];
  ASSERT_EQ(spec.x_run_elements, 8);
  spec.x_run_elements = 16;
  const tile::CoalescingReport wide = tile::check_coalescing(spec);
  EXPECT_FALSE(wide.coalesced());
  EXPECT_NE(wide.first_problem.find("8 of 16 values"), std::string::npos) << wide.first_problem;
}

// Not taken: a profile without narrow runs (the spread stays), a tile that fits one block with 128-byte runs, a
// tile that 64-byte runs would still leave spread, and a kernel with X stages. (Whole Z lines: above.)
TEST(NarrowXRuns, NotTakenWhereTheyWouldNotKeepATileInOneBlockOrTheProfileSaysNo) {
  ArchProfile wide = *find_arch_profile("hopper");
  wide.narrow_x_run_bytes = 0;
  const KernelSpec spread = lower_plan(lines_2048(), wide).kernels[0];
  EXPECT_EQ(spread.x_run_elements, 16);
  EXPECT_EQ(8 * spread.tile_elements, 256 << 10);
  const Plan cube = load_plan_file(*find_table_plan("hopper", {512, 512, 512}, true)).plan;  // three passes
  for (const KernelSpec& spec : lower_plan(cube, *find_arch_profile("hopper")).kernels)
    EXPECT_EQ(spec.x_run_elements, 16);  // 16 X behind a 512-point line: 64 KB
  // 512 KB (256x512x512's {Z 8, Y 512}): 64-byte runs would still leave it spread, and it keeps 128-byte runs.
  const KernelSpec second = lower_plan(load_plan_file(*find_table_plan("hopper", {256, 512, 512})).plan,
                                       *find_arch_profile("hopper"))
                                .kernels[1];
  EXPECT_EQ(second.x_run_elements, 16);
  EXPECT_EQ(8 * second.tile_elements, 512 << 10);
  const Plan x_stage = hopper_plan("32, 1024, 128", "{X(1, 32, 1, 32, no-tw), Y(1, 1024, 1, 1024, no-tw)} "
                                                    "{Z(1, 128, 1, 128, no-tw)}");
  const KernelSpec with_x = lower_plan(x_stage, *find_arch_profile("hopper")).kernels[0];
  EXPECT_EQ(with_x.x_run_elements, 16);
  EXPECT_EQ(with_x.tile_blocks, 2);
}

// A tile of 1 MB (8 blocks of 128 KB) narrows to 512 KB and spreads over 8 parts of 64 KB, two blocks a
// multiprocessor (distribute_tile.cpp): 128x1024x1024's {Z 8, Y 1024} (crossed in radix 8) and 512^3's
// {Z 16, Y 512} (crossed in radix 16). Their accesses are whole 64-byte runs, only the first pass
// crosses (the part field on Z's top 3 bits, above 8 X and the Y line), and the same shapes on small volumes,
// interpreted, are the DFT.
TEST(NarrowXRuns, TakenWhereTheyHalveATileThatFillsEightBlocks) {
  for (const Extents& size : {Extents{128, 1024, 1024}, Extents{512, 512, 512}}) {
    SCOPED_TRACE(to_string(size));
    const KernelSpec second =
        lower_plan(load_plan_file(*find_table_plan("hopper", size)).plan, *find_arch_profile("hopper")).kernels[1];
    EXPECT_EQ(second.x_run_elements, 8);
    EXPECT_EQ(second.x_run_narrowing, XRunNarrowing::fills_a_cluster);
    EXPECT_EQ(8 * second.tile_elements, 512 << 10);
    EXPECT_EQ(second.tile_blocks, 8);
    EXPECT_EQ(second.cluster_blocks, 8);
    EXPECT_EQ(second.blocks_per_multiprocessor, 2);
    EXPECT_EQ(second.part_shift(), 13);  // Z's top 3 bits: above 8 X and Y 1024, or 8 X, Y 512 and Z 16's low bit
    EXPECT_TRUE(second.load_in_first_pass);
    const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(second);
    ASSERT_GE(passes.size(), 2u);
    EXPECT_TRUE(passes.front().cross);
    for (std::size_t p = 1; p < passes.size(); ++p) EXPECT_FALSE(passes[p].cross) << "pass " << p;
    const tile::CoalescingReport coalescing = tile::check_coalescing(second);
    EXPECT_TRUE(coalescing.coalesced()) << coalescing.first_problem;
    EXPECT_TRUE(tile::check_cluster_stores(second).closed()) << tile::check_cluster_stores(second).first_problem;
  }

  for (const std::string& shape : {std::string("16, 1024, 8|Z(1, 8, 1, 8, no-tw), Y(1, 1024, 1, 1024, no-tw)"),
                                   std::string("16, 512, 16|Z(1, 16, 1, 16, no-tw), Y(1, 512, 1, 512, no-tw)")}) {
    const std::string size = shape.substr(0, shape.find('|')), second = shape.substr(shape.find('|') + 1);
    SCOPED_TRACE(size);
    const Plan small = hopper_plan(size, "{X(1, 16, 1, 16, no-tw)} {" + second + "}");
    const LoweredPlan lowered = lower_plan(small, *find_arch_profile("hopper"));
    ASSERT_EQ(lowered.kernels[1].x_run_elements, 8);
    ASSERT_EQ(lowered.kernels[1].tile_blocks, 8);
    std::vector<std::complex<double>> input(static_cast<std::size_t>(small.size.elements())), expected(input.size());
    validate::fill_random(input, 27);
    validate::fftw_reference(small.size, input, expected, Direction::forward);
    for (bool out_of_place : {false, true}) {
      std::vector<std::complex<double>> data = input;
      interpret(lowered, data, {}, out_of_place);
      const validate::ErrorReport error = validate::compare(data, expected);
      EXPECT_EQ(error.non_finite, 0);
      EXPECT_LT(error.relative_l2, 1e-12) << (out_of_place ? "out of place" : "in place");
    }
  }
}

// A one-line tile over the portable cluster: 16384^2's {Y 16384} behind 16 X is 2 MB, over 8 blocks of 128 KB; behind
// 8 X it fits them, and explain says so (the reason each narrowing records, XRunNarrowing).
TEST(NarrowXRuns, TakenWhereALineFitsItsClusterOnlyNarrowed) {
  const Plan plan = hopper_plan("16384, 16384, 1", "{Y(1, 16384, 1, 16384, no-tw)} {X(1, 16384, 1, 16384, no-tw)}");
  const KernelSpec line = lower_plan(plan, *find_arch_profile("hopper")).kernels[0];
  EXPECT_EQ(line.x_run_elements, 8);
  EXPECT_EQ(line.x_run_narrowing, XRunNarrowing::fits_a_cluster);
  EXPECT_EQ(line.tile_blocks, 8);
  EXPECT_NE(to_string(line).find("X runs of 64 bytes: the line's tile fits a cluster only narrowed"), std::string::npos)
      << to_string(line);
}

// In fp64 the same line is 4 MB behind 16 X, over even the opt-in cluster of 16 blocks of 128 KB that fp64 tiles take;
// behind 8 X it fits that cluster, so 16384^2's R2C in fp64 (the whole-axes plan the planner takes there) lowers.
TEST(NarrowXRuns, TakenWhereAnFp64LineFitsTheOptInClusterOnlyNarrowed) {
  Plan plan = hopper_plan("16384, 16384, 1", "{Y(1, 16384, 1, 16384, no-tw)} {X(1, 16384, 1, 16384, no-tw)}");
  plan.precision = Precision::fp64;
  const KernelSpec line = lower_plan(plan, *find_arch_profile("hopper")).kernels[0];
  EXPECT_EQ(line.x_run_elements, 8);
  EXPECT_EQ(line.x_run_narrowing, XRunNarrowing::fits_a_cluster);
  EXPECT_EQ(line.tile_blocks, 16);
  // A line that fits the portable cluster narrowed still takes it: 8192^2's {Y 8192} in fp64, 2 MB behind 16 X.
  Plan shorter = hopper_plan("8192, 8192, 1", "{Y(1, 8192, 1, 8192, no-tw)} {X(1, 8192, 1, 8192, no-tw)}");
  shorter.precision = Precision::fp64;
  const KernelSpec portable = lower_plan(shorter, *find_arch_profile("hopper")).kernels[0];
  EXPECT_EQ(portable.x_run_elements, 8);
  EXPECT_EQ(portable.x_run_narrowing, XRunNarrowing::fits_a_cluster);
  Plan real_fp64 = real_whole_axes_plan({16384, 16384, 1}, "hopper", TransformKind::r2c);
  real_fp64.precision = Precision::fp64;
  EXPECT_NO_THROW(lower_plan(real_fp64, *find_arch_profile("hopper"))) << to_yaml(real_fp64);
}

// The planner charges a narrowed kernel what a one-block kernel costs (0.1) and 0.1 for its 64-byte runs, where
// spread over 2 blocks it cost 0.4 more; the Z kernel, still spread (over 4 parts of 64 KB, two blocks a
// multiprocessor, so no one-block charge), costs 0.4 and 0.2 for its short runs from 2048 Z planes spread over a
// cluster (lowering/cost_model.cpp).
TEST(NarrowXRuns, PlannerChargesANarrowedKernelAsOneBlockAndItsRuns) {
  EXPECT_NEAR(*passes_on_its_profile(lines_2048()), 3 + (0.1 + 0.1) + (0.4 + 0.2), 1e-12);
}

}  // namespace
}  // namespace fft3d::testing
