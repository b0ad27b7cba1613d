// Lowering of plans whose lengths and radices have the factors 3, 5 and 7 (mixed-radix digits in the tile maps):
// small plans of every kernel structure, interpreted on the CPU with the lowered maps, give the DFT (FFTW), in
// both orders, in place and out of place; the bench sizes, written by hand in the power-of-two plans' structure,
// lower on hopper, their shared-memory layouts are bank-conflict-free and their global accesses are reported
// segment by segment.
#include <gtest/gtest.h>

#include <numeric>

#include "fft3d/arch_profile.hpp"
#include "fft3d/plan_text.hpp"
#include "lowering/tile_maps.hpp"
#include "test_plans.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

// The stages of an n-point axis with `radices` (DIF order), as plan text: span_1 = n, stride = span / radix.
std::vector<std::string> axis_stages(char axis, std::int64_t n, const std::vector<std::int64_t>& radices) {
  std::vector<std::string> stages;
  std::int64_t span = n;
  for (std::int64_t radix : radices) {
    const std::int64_t stride = span / radix;
    stages.push_back(std::string(1, axis) + "(" + std::to_string(n / radix) + ", " + std::to_string(radix) + ", " +
                     std::to_string(stride) + ", " + std::to_string(span) + ", " + (stride > 1 ? "tw" : "no-tw") +
                     ")");
    span = stride;
  }
  return stages;
}

// One axis's stages [first, first + count) of a kernel.
struct Part {
  char axis;
  std::size_t first, count;
};

struct MixedCase {
  std::array<std::int64_t, 3> size;
  std::vector<std::int64_t> x, y, z;  // the radices of each axis
  std::vector<std::vector<Part>> kernels;
};

NamedPlan make_plan(const MixedCase& c, const std::string& arch = "hopper") {
  std::string text = "size: [" + std::to_string(c.size[0]) + ", " + std::to_string(c.size[1]) + ", " +
                     std::to_string(c.size[2]) + "]\narch: " + arch + "\nkernels:\n";
  for (const std::vector<Part>& kernel : c.kernels) {
    std::string subs;
    for (const Part& part : kernel) {
      const int a = part.axis - 'X';
      const std::vector<std::string> stages = axis_stages(part.axis, c.size[a], a == 0 ? c.x : a == 1 ? c.y : c.z);
      for (std::size_t s = part.first; s < part.first + part.count; ++s) subs += (subs.empty() ? "" : ", ") + stages[s];
    }
    text += "  - \"" + subs + "\"\n";
  }
  const Plan plan = parse_plan(text).plan;
  return {to_string(plan.size) + " " + to_brace_string(plan.kernels), plan};
}

// Small plans of every structure the power-of-two plans use, with radices 3, 5, 7 and their products.
std::vector<NamedPlan> small_mixed_plans() {
  const std::vector<Part> x_all{{'X', 0, 2}}, y_all{{'Y', 0, 2}}, z_all{{'Z', 0, 2}};
  std::vector<MixedCase> cases = {
      // {X, Y} {Z}: every axis in one kernel, natural order in the tile.
      {{12, 10, 9}, {4, 3}, {2, 5}, {3, 3}, {{x_all[0], y_all[0]}, {z_all[0]}}},
      // {X}{Y}{Z}, one stage a kernel: the whole radix in one stage.
      {{12, 10, 9}, {12}, {10}, {9}, {{{'X', 0, 1}}, {{'Y', 0, 1}}, {{'Z', 0, 1}}}},
      // {X first stage, Y} {X rest, Z}: X split between kernels (a cluster or the reorder pass).
      {{24, 18, 15}, {3, 8}, {6, 3}, {5, 3}, {{{'X', 0, 1}, y_all[0]}, {{'X', 1, 1}, z_all[0]}}},
      // {X, Y first stage} {Y rest, Z}: Y split between kernels (the hopper tables' sorted layout).
      {{24, 18, 15}, {8, 3}, {6, 3}, {15}, {{x_all[0], {'Y', 0, 1}}, {{'Y', 1, 1}, {'Z', 0, 1}}}},
      // A 100-point X row (not a multiple of 16: whole rows) and radix 25 (split on hopper: 5 x 5).
      {{100, 6, 7}, {4, 25}, {6}, {7}, {{{'X', 0, 1}, {'Y', 0, 1}}, {{'X', 1, 1}, {'Z', 0, 1}}}},
      // Three kernels with Z split, larger: 48 x 36 x 20.
      {{48, 36, 20}, {16, 3}, {36}, {4, 5},
       {{x_all[0], {'Y', 0, 1}}, {{'Z', 0, 1}}, {{'Z', 1, 1}}}},
      // Powers of two mixed with odd factors on one axis: 96 = 32 x 3 (radix 32 split), 7 x 5 rows.
      {{96, 7, 5}, {32, 3}, {7}, {5}, {{{'X', 0, 2}, {'Y', 0, 1}}, {{'Z', 0, 1}}}},
  };
  std::vector<NamedPlan> plans;
  for (const MixedCase& c : cases) {
    plans.push_back(make_plan(c));
    plans.push_back(make_plan(c, "fermi"));
  }
  return plans;
}

TEST(MixedRadix, SmallPlansOfEveryStructureInterpretToTheDft) {
  int checked = 0;
  for (const NamedPlan& named : small_mixed_plans()) {
    SCOPED_TRACE(named.name + " on " + named.plan.arch);
    LoweredPlan lowered;
    ASSERT_NO_THROW(lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name));
    std::vector<std::complex<double>> input(static_cast<std::size_t>(named.plan.size.elements()));
    validate::fill_random(input, 29);
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      std::vector<std::complex<double>> expected(input.size());
      validate::fftw_reference(named.plan.size, input, expected, direction);
      for (Order order : {Order::natural, Order::digit_reversed})
        for (bool out_of_place : {false, true}) {
          std::vector<std::complex<double>> data = input;
          interpret(lowered, data, {.direction = direction, .order = order}, out_of_place);
          if (order == Order::digit_reversed) validate::to_natural_order(named.plan, data);
          const validate::ErrorReport error = validate::compare(data, expected);
          const std::string mode =
              to_string(direction) + " " + to_string(order) + (out_of_place ? " out of place" : " in place");
          EXPECT_EQ(error.non_finite, 0) << mode;
          EXPECT_LT(error.relative_l2, 1e-12) << mode << ": peak " << error.peak_error << " at " << error.peak_index;
          ++checked;
        }
    }
  }
  EXPECT_GT(checked, 0);
}

// Every tile of a mixed plan covers the volume exactly once: the global offsets of all tiles' elements are a
// permutation of the volume.
TEST(MixedRadix, TilesCoverTheVolumeOnce) {
  for (const NamedPlan& named : small_mixed_plans()) {
    SCOPED_TRACE(named.name);
    const LoweredPlan lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name);
    for (const KernelSpec& spec : lowered.kernels) {
      std::vector<int> seen(static_cast<std::size_t>(spec.size.elements()));
      for (std::int64_t block = 0; block < spec.tiles; ++block)
        for (std::int64_t e = 0; e < spec.tile_elements; ++e) ++seen[tile::global_offset(spec, block, e)];
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), spec.size.elements()) << "kernel " << spec.kernel_index;
    }
  }
}

// The benchmark sizes in the hopper tables' structure: the first kernel takes whole X rows and the first stage(s)
// of Y, the next the rest of Y and Z (a third kernel where a 128 KB block cannot hold the second's tile, as the
// power-of-two tables spread such tiles over a cluster, which mixed tiles do not do yet).
std::vector<NamedPlan> bench_mixed_plans() {
  const std::vector<Part> x{{'X', 0, 1}}, y{{'Y', 0, 1}}, z{{'Z', 0, 1}};
  const auto cube = [](std::int64_t n) { return std::array<std::int64_t, 3>{n, n, n}; };
  const std::vector<std::vector<Part>> two{{x[0], y[0]}, {z[0]}};
  const std::vector<std::vector<Part>> y_split{{x[0], {'Y', 0, 1}}, {{'Y', 1, 1}, {'Z', 0, 1}}};
  const std::vector<std::vector<Part>> three{{x[0], {'Y', 0, 1}}, {{'Y', 1, 1}, {'Z', 0, 1}}, {{'Z', 1, 1}}};
  const std::vector<MixedCase> cases = {
      {cube(96), {96}, {96}, {96}, two},
      {cube(100), {100}, {100}, {100}, two},
      {cube(100), {4, 25}, {100}, {100}, {{{'X', 0, 1}, y[0]}, {{'X', 1, 1}, z[0]}}},
      {cube(120), {120}, {120}, {120}, two},
      {cube(192), {192}, {24, 8}, {192}, y_split},
      {cube(240), {240}, {30, 8}, {240}, y_split},
      {cube(243), {243}, {27, 9}, {27, 9}, three},
      {cube(384), {384}, {24, 16}, {24, 16}, three},
      {cube(480), {480}, {30, 16}, {30, 16}, three},
      {cube(768), {768}, {12, 64}, {12, 64}, three},
  };
  std::vector<NamedPlan> plans;
  for (const MixedCase& c : cases) plans.push_back(make_plan(c));
  return plans;
}

// The layouts the search finds for mixed tiles (XOR swizzles, shift paddings, e + (e / P) * Q) leave at most
// 2-way conflicts: one layout serves every pass, and the runs of a split mixed radix (e.g. 12 inputs 96 apart)
// and its last pass (stride 12) want different ones. Global accesses are whole segments wherever the X rows are
// multiples of 16 values; elsewhere the checker names why a segment is partial.
TEST(MixedRadix, BenchSizesLowerWithAtMostTwoWayConflictsAndWholeSegmentsWhereRowsAllow) {
  for (const NamedPlan& named : bench_mixed_plans()) {
    SCOPED_TRACE(named.name);
    LoweredPlan lowered;
    ASSERT_NO_THROW(lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name));
    for (const KernelSpec& spec : lowered.kernels) {
      const tile::BankReport report = tile::check_bank_conflicts(spec);
      std::string phases;
      for (const tile::PhaseConflict& p : report.phases) phases += " [" + p.phase + ": " + std::to_string(p.degree) + "]";
      EXPECT_LE(report.worst_excluding_natural_store(), 2)
          << "kernel " << spec.kernel_index << " " << to_string(spec.shared) << phases;
      const tile::CoalescingReport coalescing = tile::check_coalescing(spec);
      EXPECT_GT(coalescing.requests, 0);
      if (spec.size.nx % spec.x_run_elements == 0)
        EXPECT_TRUE(coalescing.coalesced()) << "kernel " << spec.kernel_index << ": " << coalescing.first_problem;
      else if (!coalescing.coalesced())
        EXPECT_TRUE(coalescing.first_problem.find("(X rows of") != std::string::npos ||
                    coalescing.first_problem.find("(the tile's contiguous X runs") != std::string::npos)
            << coalescing.first_problem;
      std::cout << named.name << " kernel " << spec.kernel_index << ": " << to_string(spec.shared) << ", "
                << coalescing.partial_segments << " partial segments in " << coalescing.requests << " requests"
                << (coalescing.coalesced() ? "" : ": " + coalescing.first_problem) << "\n";
    }
  }
}

}  // namespace
}  // namespace fft3d::testing
