// The digit-reversal pass in its transposed form (natural_order.cpp, KernelSpec::reorder_tile): where X is
// reversed, each block moves a tile of consecutive frequencies by consecutive positions through shared memory.
// Its moves put every value where the gather would (each output once), its loads and stores are runs of the tile's
// sides, and plans that take it interpret to the DFT.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "lowering/tile_maps.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

// X over three kernels (radices 32, 2, 32: a middle digit) with Y over two: the pass reverses both.
constexpr const char* three_x_radices_with_y = R"yaml(size: [2048, 16, 1]
arch: hopper
kernels:
  - "X(64, 32, 64, 2048, tw), Y(4, 4, 4, 16, tw)"
  - "X(1024, 2, 32, 64, tw)"
  - "X(64, 32, 1, 32, no-tw), Y(4, 4, 1, 4, no-tw)"
)yaml";

struct Case {
  std::string name;
  Plan plan;
};

std::vector<Case> transposing_plans() {
  return {{"65536x1x1 default", default_plan({65536, 1, 1}, "hopper")},
          {"65536x4x1 default", default_plan({65536, 4, 1}, "hopper")},
          {"2048x16x1 three X radices, Y reversed", parse_plan(three_x_radices_with_y).plan}};
}

LoweredPlan lowered_on_hopper(const Case& c) { return lower_plan(c.plan, *find_arch_profile("hopper"), c.name); }

// Where the gather reads output element `to`: each reversed axis's frequency at its digit-reversed position.
std::int64_t gather_source(const KernelSpec& pass, std::int64_t to) {
  const Extents& n = pass.size;
  const std::int64_t f[3] = {to % n.nx, to / n.nx % n.ny, to / (n.nx * n.ny)};
  std::int64_t p[3];
  for (int a = 0; a < 3; ++a)
    p[a] = pass.reorder_radices[a].empty() ? f[a] : digit_reversed_position(f[a], pass.reorder_radices[a]);
  return p[0] + n.nx * (p[1] + n.ny * p[2]);
}

TEST(ReorderPass, TransposedMovesPutEveryValueWhereTheGatherWouldInRunsOfTheTileSides) {
  for (const Case& c : transposing_plans()) {
    SCOPED_TRACE(c.name);
    const LoweredPlan lowered = lowered_on_hopper(c);
    ASSERT_TRUE(lowered.reorder.has_value());
    const KernelSpec& pass = *lowered.reorder;
    ASSERT_TRUE(pass.reorder_tile.transposes());
    const ReorderTile& tile = pass.reorder_tile;
    EXPECT_EQ(tile.frequency_run, 32);
    EXPECT_EQ(tile.position_run, 32);
    std::vector<int> written(static_cast<std::size_t>(pass.size.elements()), 0);
    for (std::int64_t block = 0; block < pass.tiles; ++block)
      for (std::int64_t e = 0; e < tile.elements(); ++e) {
        const tile::ReorderMove move = tile::reorder_move(pass, block, e);
        ++written[move.to];
        ASSERT_EQ(move.from, gather_source(pass, move.to)) << "block " << block << " element " << e;
        if (e % tile.position_run > 0) {  // a load run: consecutive positions
          EXPECT_EQ(move.from, tile::reorder_move(pass, block, e - 1).from + 1);
        }
        if (e >= tile.position_run) {  // a store run: consecutive frequencies
          EXPECT_EQ(move.to, tile::reorder_move(pass, block, e - tile.position_run).to + 1);
        }
      }
    EXPECT_EQ(std::count(written.begin(), written.end(), 1), pass.size.elements());
    EXPECT_NE(tile::explain(lowered).find("transpose through shared memory: tiles of 32 consecutive frequencies x "
                                          "32 consecutive positions"),
              std::string::npos);
  }
}

TEST(ReorderPass, PlansThatTransposeInterpretToTheDft) {
  std::uint64_t seed = 5;
  for (const Case& c : transposing_plans()) {
    SCOPED_TRACE(c.name);
    const LoweredPlan lowered = lowered_on_hopper(c);
    std::vector<std::complex<double>> input(static_cast<std::size_t>(c.plan.size.elements()));
    validate::fill_random(input, seed++);
    std::vector<std::complex<double>> expected(input.size());
    validate::fftw_reference(c.plan.size, input, expected, Direction::forward);
    for (bool out_of_place : {false, true}) {
      std::vector<std::complex<double>> data = input;
      interpret(lowered, data, {}, out_of_place);
      const validate::ErrorReport error = validate::compare(data, expected);
      EXPECT_EQ(error.non_finite, 0) << (out_of_place ? "out of place" : "in place");
      EXPECT_LT(error.relative_l2, 1e-12) << (out_of_place ? "out of place" : "in place");
    }
  }
}

// Tiles under one gather block (here radices 8, 8, 8: 8 x 8 values) keep the gather.
TEST(ReorderPass, SmallTilesKeepTheGather) {
  const Plan plan = parse_plan(R"yaml(size: [512, 1, 1]
arch: hopper
kernels:
  - "X(64, 8, 64, 512, tw)"
  - "X(64, 8, 8, 64, tw)"
  - "X(64, 8, 1, 8, no-tw)"
)yaml").plan;
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"), "512 in three kernels");
  ASSERT_TRUE(lowered.reorder.has_value());
  EXPECT_FALSE(lowered.reorder->reorder_tile.transposes());
  EXPECT_EQ(lowered.reorder->tiles * lowered.reorder->threads, 512);
}

}  // namespace
}  // namespace fft3d::testing
