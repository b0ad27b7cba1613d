// Lowering rule narrow_x_runs.cpp: where a tile takes 64-byte X runs (a kernel without X stages whose tile then fits
// one block and otherwise would be spread over a cluster, or fills 8 blocks and crosses them in radix 8), what the
// coalescing checker then requires, and what the planner charges. (The GPU tests run every shipped plan, the 2048^3
// one among them, against cuFFT or in closed form.)
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/cuda_tile_maps.hpp"
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
// passes, every access whole 64-byte runs. The Z line stays spread over 2 blocks (Z lines of 512 or more planes keep
// 128-byte runs), and the X kernel has X stages and keeps its whole line.
TEST(NarrowXRuns, TakenWhereTheyKeepATileInOneBlock) {
  const LoweredPlan lowered = lower_plan(lines_2048(), *find_arch_profile("hopper"));
  {
    const KernelSpec& spec = lowered.kernels[0];
    EXPECT_EQ(spec.x_run_elements, 8);
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
  EXPECT_EQ(lowered.kernels[1].tile_blocks, 2);
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
  EXPECT_EQ(spread.tile_blocks, 2);
  const Plan cube = load_plan_file(*find_table_plan("hopper", {512, 512, 512}, true)).plan;  // three passes
  for (const KernelSpec& spec : lower_plan(cube, *find_arch_profile("hopper")).kernels)
    EXPECT_EQ(spec.x_run_elements, 16);  // 16 X behind a 512-point line: 64 KB
  // 1 MB crossed in radix 16 (512^3's {Z 16, Y 512}) and 512 KB (256x512x512's {Z 8, Y 512}): 64-byte runs would
  // still leave them spread, and they stay as they are.
  for (const Extents& size : {Extents{512, 512, 512}, Extents{256, 512, 512}}) {
    const KernelSpec second =
        lower_plan(load_plan_file(*find_table_plan("hopper", size)).plan, *find_arch_profile("hopper")).kernels[1];
    EXPECT_EQ(second.x_run_elements, 16) << to_string(size);
    EXPECT_EQ(second.tile_blocks, size.nx == 512 ? 8 : 4) << to_string(size);
  }
  const Plan x_stage = hopper_plan("32, 1024, 128", "{X(1, 32, 1, 32, no-tw), Y(1, 1024, 1, 1024, no-tw)} "
                                                    "{Z(1, 128, 1, 128, no-tw)}");
  const KernelSpec with_x = lower_plan(x_stage, *find_arch_profile("hopper")).kernels[0];
  EXPECT_EQ(with_x.x_run_elements, 16);
  EXPECT_EQ(with_x.tile_blocks, 2);
}

// A tile of 1 MB (8 blocks of 128 KB) whose crossing first pass is radix 8 narrows and spreads over 4 blocks:
// 128x1024x1024's {Z 8, Y 1024} (version 27). Its accesses are whole 64-byte runs, only the first pass crosses (the
// part field on Z's top 2 bits, above 8 X and 1024 Y), and the same shape on a small volume, interpreted, is the DFT.
TEST(NarrowXRuns, TakenWhereTheyHalveAnEightBlockTileCrossedInRadix8) {
  const KernelSpec second = lower_plan(load_plan_file(*find_table_plan("hopper", {128, 1024, 1024})).plan,
                                       *find_arch_profile("hopper"))
                                .kernels[1];
  EXPECT_EQ(second.x_run_elements, 8);
  EXPECT_EQ(second.tile_elements, 8 * 8 * 1024);
  EXPECT_EQ(second.tile_blocks, 4);
  EXPECT_EQ(second.cluster_blocks, 4);
  EXPECT_EQ(second.part_shift, 3 + 10 + 1);
  EXPECT_TRUE(second.load_in_first_pass);
  const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(second);
  ASSERT_GE(passes.size(), 2u);
  EXPECT_TRUE(passes.front().cross);
  for (std::size_t p = 1; p < passes.size(); ++p) EXPECT_FALSE(passes[p].cross) << "pass " << p;
  const tile::CoalescingReport coalescing = tile::check_coalescing(second);
  EXPECT_TRUE(coalescing.coalesced()) << coalescing.first_problem;
  EXPECT_TRUE(tile::check_cluster_stores(second).closed()) << tile::check_cluster_stores(second).first_problem;

  const Plan small = hopper_plan("16, 1024, 8", "{X(1, 16, 1, 16, no-tw)} {Z(1, 8, 1, 8, no-tw), Y(1, 1024, 1, 1024, "
                                                "no-tw)}");
  const LoweredPlan lowered = lower_plan(small, *find_arch_profile("hopper"));
  ASSERT_EQ(lowered.kernels[1].x_run_elements, 8);
  ASSERT_EQ(lowered.kernels[1].tile_blocks, 4);
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

// The planner charges a narrowed kernel what a one-block kernel costs (0.1) and 0.1 for its 64-byte runs, where
// spread over 2 blocks it cost 0.4 more; the Z kernel, still spread, costs 0.4 + 0.1 and 0.2 for its short runs from
// 2048 Z planes spread over a cluster (lowering/lower_plan.cpp).
TEST(NarrowXRuns, PlannerChargesANarrowedKernelAsOneBlockAndItsRuns) {
  EXPECT_NEAR(*passes_on_its_profile(lines_2048()), 3 + (0.1 + 0.1) + (0.4 + 0.1 + 0.2), 1e-12);
}

}  // namespace
}  // namespace fft3d::testing
