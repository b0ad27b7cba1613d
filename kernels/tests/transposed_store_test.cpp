// The transposed store (lowering rule transposed_store.cpp): the last kernel of a 1D plan whose X stages all but the
// first lie in it stores natural order itself out of a workspace. Its tile holds 16 (or 8) whole groups, the plan
// takes no reorder pass and a one-volume workspace, its natural-order stores are runs of 16 (8) frequencies that
// cover every output once, its shared reads are conflict-free, and the plans interpret to the DFT in both
// placements and directions; digit-reversed order stores the positions as before. A batch, a real plan, fp64, a
// volume under the profile's minimum and a group too large for one block keep the reorder pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/plan_text.hpp"
#include "lowering/tile_maps.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

ArchProfile hopper() { return *find_arch_profile("hopper"); }

// Hopper taking the transposed store at every volume, so that the interpreter runs it on small plans quickly (the
// hopper profile takes it from 2^21 values).
ArchProfile small_hopper() {
  ArchProfile profile = hopper();
  profile.transposed_store_min_elements = 1;
  return profile;
}

// N = R * G: the first kernel's radix-R stage over stride G, the last kernel's G-point groups.
Plan four_step(std::int64_t r, std::int64_t g, const std::string& second_kernel = "") {
  const std::int64_t n = r * g;
  const std::string last = second_kernel.empty()
                               ? "X(" + std::to_string(r) + ", " + std::to_string(g) + ", 1, " + std::to_string(g) +
                                     ", no-tw)"
                               : second_kernel;
  return parse_plan("size: [" + std::to_string(n) + ", 1, 1]\narch: hopper\nkernels:\n  - \"X(" +
                    std::to_string(g) + ", " + std::to_string(r) + ", " + std::to_string(g) + ", " +
                    std::to_string(n) + ", tw)\"\n  - \"" + last + "\"\n")
      .plan;
}

TEST(TransposedStore, TheLastKernelHoldsWholeGroupsAndTheRunTakesNoReorderPass) {
  const LoweredPlan lowered = lower_plan(four_step(2048, 64), small_hopper());
  const KernelSpec& last = lowered.kernels.back();
  EXPECT_FALSE(lowered.reorder.has_value());
  EXPECT_TRUE(lowered.stores_out_of_workspace());
  EXPECT_EQ(last.transposed_store_run, 16);
  EXPECT_EQ(last.tile_elements, 16 * 64);  // 16 groups of 64
  EXPECT_EQ(last.tiles, 128);
  EXPECT_EQ(last.axes[0].workspace_reversal_radices, (std::vector<std::int64_t>{2048, 64}));
  EXPECT_FALSE(last.store_in_last_pass);  // the store walks its own slots
  EXPECT_EQ(lowered.workspace_bytes(true), 131072 * 8);
  EXPECT_EQ(lowered.workspace_bytes(false), 131072 * 8);
  EXPECT_EQ(lowered.volume_passes(true, true), 2);
  // 2048-value groups take 8 a tile (128 KB); fp64 1024-value groups likewise.
  EXPECT_EQ(lower_plan(four_step(1024, 2048), hopper()).kernels.back().transposed_store_run, 8);
  EXPECT_EQ(lower_plan(four_step(2048, 1024), hopper()).kernels.back().transposed_store_run, 16);
}

TEST(TransposedStore, NaturalStoresAreRunsOfConsecutiveFrequenciesCoveringEveryOutputOnce) {
  for (const Plan& plan : {four_step(2048, 64), four_step(1024, 2048)}) {
    SCOPED_TRACE(to_string(plan.size));
    const KernelSpec last = lower_plan(plan, small_hopper()).kernels.back();
    const std::int64_t run = last.transposed_store_run;
    std::vector<int> written(static_cast<std::size_t>(plan.size.elements()), 0);
    for (std::int64_t block = 0; block < last.tiles; ++block)
      for (std::int64_t slot = 0; slot < last.tile_elements; ++slot) {
        const std::int64_t element = tile::transposed_store_element(last, slot);
        const std::int64_t to = tile::store_offset(last, block, element, true);
        ++written[static_cast<std::size_t>(to)];
        const std::int64_t position = tile::axis_position(last, block, Axis::x, element);
        ASSERT_EQ(to, frequency_at_position(position, last.axes[0].workspace_reversal_radices));
        if (slot % run > 0) {
          const std::int64_t before =
              tile::store_offset(last, block, tile::transposed_store_element(last, slot - 1), true);
          ASSERT_EQ(to, before + 1) << "block " << block << " slot " << slot;
        }
      }
    EXPECT_EQ(std::count(written.begin(), written.end(), 1), plan.size.elements());
    EXPECT_TRUE(tile::check_coalescing(last).coalesced()) << tile::check_coalescing(last).first_problem;
    for (const tile::PhaseConflict& phase : tile::check_bank_conflicts(last).phases)
      EXPECT_EQ(phase.degree, 1) << phase.phase;
  }
}

TEST(TransposedStore, PlansInterpretToTheDftInBothPlacementsDirectionsAndOrders) {
  std::uint64_t seed = 11;
  // Two-digit groups (the second kernel splits its 64 into 8 x 8 over two stages) reverse inside the group too.
  for (const Plan& plan : {four_step(64, 64), four_step(64, 64, "X(512, 8, 8, 64, tw), X(512, 8, 1, 8, no-tw)")}) {
    const LoweredPlan lowered = lower_plan(plan, small_hopper());
    ASSERT_TRUE(lowered.stores_out_of_workspace()) << to_yaml(plan);
    std::vector<std::complex<double>> input(static_cast<std::size_t>(plan.size.elements()));
    validate::fill_random(input, seed++);
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      std::vector<std::complex<double>> expected(input.size());
      validate::fftw_reference(plan.size, input, expected, direction);
      for (bool out_of_place : {false, true}) {
        SCOPED_TRACE(to_yaml(plan) + (direction == Direction::forward ? "forward" : "inverse") +
                     (out_of_place ? ", out of place" : ", in place"));
        std::vector<std::complex<double>> data = input;
        interpret(lowered, data, {.direction = direction}, out_of_place);
        const validate::ErrorReport error = validate::compare(data, expected);
        EXPECT_EQ(error.non_finite, 0);
        EXPECT_LT(error.relative_l2, 1e-12);
        // Digit-reversed order: the positions the stages leave, no workspace.
        std::vector<std::complex<double>> reversed = input;
        interpret(lowered, reversed, {.direction = direction, .order = Order::digit_reversed}, out_of_place);
        for (std::int64_t p = 0; p < plan.size.elements(); ++p)
          ASSERT_LT(std::abs(reversed[static_cast<std::size_t>(p)] -
                             expected[static_cast<std::size_t>(frequency_at_position(p, radices_of(plan, Axis::x)))]),
                    1e-9)
              << "position " << p;
      }
    }
  }
}

TEST(TransposedStore, ABatchARealPlanFp64SmallVolumesAndGroupsOverOneBlockKeepTheReorderPass) {
  Plan batch = four_step(2048, 64);
  batch.batch = 4;
  EXPECT_TRUE(lower_plan(batch, small_hopper()).reorders(true));
  // 16384-value groups: 8 of them are 1 MB, over one block's part.
  EXPECT_FALSE(lower_plan(four_step(1024, 16384), hopper()).stores_out_of_workspace());
  // Under the hopper profile's 2^21 values (measured slower there), and in fp64 (measured no faster).
  EXPECT_FALSE(lower_plan(four_step(512, 2048), hopper()).stores_out_of_workspace());
  Plan fp64 = four_step(2048, 1024);
  fp64.precision = Precision::fp64;
  EXPECT_FALSE(lower_plan(fp64, hopper()).stores_out_of_workspace());
  const Plan real = parse_plan("size: [8192, 1, 1]\narch: hopper\nkernels:\n  - \"X(64, 64, 64, 4096, tw)\"\n"
                               "  - \"X(64, 64, 1, 64, no-tw), R2C(X, 8192)\"\n")
                        .plan;
  EXPECT_TRUE(lower_plan(four_step(64, 64), small_hopper()).stores_out_of_workspace());  // its complex stages would
  EXPECT_FALSE(lower_plan(real, small_hopper()).stores_out_of_workspace());
}

}  // namespace
}  // namespace fft3d::testing
