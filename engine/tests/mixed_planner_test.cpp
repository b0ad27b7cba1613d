// The default planner on lengths with factors 2, 3, 5 and 7: the radix splits (radix_splits.hpp), order as the bit
// splits did for powers of two, and every plan it makes is legal with radices that multiply to each length.
// Candidates are ranked by kernel count here (no lowering), except where the test is about the lowering's answer.
#include <gtest/gtest.h>

#include <functional>

#include "fft3d/checks.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "radix_splits.hpp"

namespace fft3d {
namespace {

using Radices = std::vector<std::int64_t>;

const PlanPasses kernel_count = [](const Plan& plan) { return std::optional<double>(plan.kernels.size()); };

std::int64_t product(const Radices& radices) {
  std::int64_t p = 1;
  for (const std::int64_t r : radices) p *= r;
  return p;
}

Radices radices_of(const Plan& plan, Axis axis) {
  Radices radices;
  for (const SubComputation& stage : stages_of(plan, axis)) radices.push_back(stage.radix);
  return radices;
}

// The power-of-two splits as the planner made them from bit counts: every composition of `bits` into `stages`
// parts of at most max_bits, ordered by max/min, then larger radices first.
std::vector<Radices> bit_splits(int bits, int stages, int max_bits) {
  std::vector<Radices> splits;
  Radices parts;
  const std::function<void(int)> fill = [&](int left) {
    if (static_cast<int>(parts.size()) == stages) {
      if (left == 0) splits.push_back(parts);
      return;
    }
    for (int p = 1; p <= std::min(max_bits, left); ++p) {
      parts.push_back(std::int64_t{1} << p);
      fill(left - p);
      parts.pop_back();
    }
  };
  fill(bits);
  const auto imbalance = [](const Radices& r) {
    return *std::max_element(r.begin(), r.end()) / *std::min_element(r.begin(), r.end());
  };
  std::stable_sort(splits.begin(), splits.end(),
                   [&](const Radices& a, const Radices& b) { return std::pair(imbalance(a), b) < std::pair(imbalance(b), a); });
  return splits;
}

TEST(RadixSplits, PowersOfTwoSplitAsTheirBitsDid) {
  for (int bits = 1; bits <= 12; ++bits)
    for (int max_bits = 1; max_bits <= 11; ++max_bits) {
      const std::int64_t n = std::int64_t{1} << bits, max_radix = std::int64_t{1} << max_bits;
      EXPECT_EQ(planning::stages_needed(n, max_radix), (bits + max_bits - 1) / max_bits);
      for (int stages = 1; stages <= bits; ++stages) {
        EXPECT_EQ(planning::radix_splits(n, stages, max_radix), bit_splits(bits, stages, max_bits)) << n;
        EXPECT_EQ(planning::x_radix_splits(n, stages, max_radix), bit_splits(bits, stages, max_bits)) << n;
      }
    }
}

TEST(RadixSplits, MixedLengthsSplitIntoTheFewestBalancedRadices) {
  EXPECT_EQ(planning::stages_needed(384, 16), 3);
  EXPECT_EQ(planning::stages_needed(100, 16), 2);
  EXPECT_EQ(planning::stages_needed(243, 8), 5);  // 9 is over 8
  EXPECT_EQ(planning::stages_needed(49, 4), std::nullopt);  // 7 is over 4
  EXPECT_EQ(planning::stages_needed(1, 2), 0);
  EXPECT_EQ(planning::radix_splits(384, 3, 16).front(), (Radices{8, 8, 6}));
  EXPECT_EQ(planning::radix_splits(100, 2, 16).front(), (Radices{10, 10}));
  EXPECT_EQ(balanced_radices(120, 2), (Radices{12, 10}));
  EXPECT_EQ(balanced_radices(243, 5), (Radices{3, 3, 3, 3, 3}));
  EXPECT_TRUE(planning::radix_splits(49, 3, 49).empty());  // 49 has two prime factors
  for (const Radices& split : planning::radix_splits(3840, 4, 16)) {
    EXPECT_EQ(product(split), 3840);
    for (const std::int64_t r : split) EXPECT_LE(r, 16);
  }
}

// For X the non-power-of-two radices come first, so the last stages hold the 16-element chunks as bit fields.
TEST(RadixSplits, XSplitsKeepTheChunksInTheirLastStages) {
  EXPECT_EQ(planning::x_radix_splits(96, 3, 8).front(), (Radices{6, 4, 4}));
  EXPECT_EQ(planning::x_radix_splits(384, 3, 8).front(), (Radices{6, 8, 8}));
  EXPECT_EQ(planning::x_radix_splits(100, 3, 8).front(), (Radices{5, 5, 4}));  // its 4 is all the chunk it has
  EXPECT_EQ(planning::x_radix_splits(243, 3, 16).front(), (Radices{9, 9, 3}));  // no chunk to keep
  EXPECT_TRUE(planning::keeps_x_chunks(96, {3, 2, 16}));
  EXPECT_FALSE(planning::keeps_x_chunks(96, {16, 2, 3}));
  EXPECT_TRUE(planning::keeps_x_chunks(96, {3, 4, 8}));
  EXPECT_EQ(planning::trailing_power_of_two({5, 4, 8}), 32);
}

// Every supported length up to 1024 on each axis, on every arch: a legal plan whose radices multiply to it.
TEST(MixedPlanner, EverySupportedLengthOnEveryAxisGetsALegalPlan) {
  int plans = 0;
  for (const ArchProfile& profile : arch_profiles())
    for (std::int64_t n = 2; n <= 1024; ++n) {
      if (!is_supported_length(n)) continue;
      for (const Axis axis : all_axes) {
        const auto length = [&](Axis a, std::int64_t other) { return a == axis ? n : other; };
        const Extents size{length(Axis::x, 6), length(Axis::y, 4), length(Axis::z, 10)};
        const Plan plan = default_plan(size, profile.name, kernel_count);
        ASSERT_NO_THROW(require_legal(plan)) << to_yaml(plan);
        for (const Axis a : all_axes) EXPECT_EQ(product(radices_of(plan, a)), size[a]) << to_yaml(plan);
        ++plans;
      }
    }
  EXPECT_GT(plans, 1000);
}

TEST(MixedPlanner, TheBenchmarkSizesGetLegalPlans) {
  const std::vector<Extents> sizes = {{96, 96, 96},    {100, 100, 100}, {120, 120, 120}, {192, 192, 192},
                                      {240, 240, 240}, {243, 243, 243}, {343, 343, 343}, {384, 384, 384},
                                      {480, 480, 480}, {640, 640, 640}, {768, 768, 768}, {1000, 1000, 1000},
                                      {384, 384, 256}, {96, 100, 120}};
  for (const ArchProfile& profile : arch_profiles())
    for (const Extents& size : sizes) {
      const Plan plan = default_plan(size, profile.name, kernel_count);
      EXPECT_NO_THROW(require_legal(plan)) << to_yaml(plan);
      for (const Axis a : all_axes) EXPECT_EQ(product(radices_of(plan, a)), size[a]) << to_yaml(plan);
    }
}

// The lowering's own ranking: a plan that lowers, or (while the lowering refuses every candidate) a UsageError that
// names the size. Never another exception.
TEST(MixedPlanner, RankedByTheLoweringAMixedSizeLowersOrIsRefusedByName) {
  for (const std::string arch : {"hopper", "tesla", "fermi"})
    for (const Extents& size : {Extents{384, 384, 384}, Extents{100, 100, 100}, Extents{243, 243, 243}}) {
      try {
        const Plan plan = default_plan(size, arch);
        EXPECT_TRUE(passes_on_its_profile(plan).has_value()) << to_yaml(plan);
      } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find(to_string(size)), std::string::npos) << e.what();
      }
    }
}

TEST(MixedPlanner, ACandidateWhoseLoweringFailsIsSkipped) {
  const Extents size{96, 100, 120};
  const PlanPasses refuses_x_riding = [](const Plan& plan) -> std::optional<double> {
    for (const Kernel& kernel : plan.kernels)
      if (kernel.subs.size() > 1) throw LoweringError("a kernel of two axes");
    return static_cast<double>(plan.kernels.size());
  };
  const Plan plan = default_plan(size, "hopper", refuses_x_riding);
  for (const Kernel& kernel : plan.kernels) EXPECT_EQ(kernel.subs.size(), 1u) << to_yaml(plan);
  // When no candidate lowers, a UsageError names the size.
  const PlanPasses refuses_all = [](const Plan&) -> std::optional<double> { throw LoweringError("no tile fits"); };
  try {
    default_plan(size, "tesla", refuses_all);
    ADD_FAILURE() << "no candidate lowers, yet a plan came back";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("96x100x120"), std::string::npos) << e.what();
  }
  // Any other exception is a bug, and passes through.
  const PlanPasses throws_logic_error = [](const Plan&) -> std::optional<double> { throw std::logic_error("bug"); };
  EXPECT_THROW(default_plan(size, "tesla", throws_logic_error), std::logic_error);
}

// The CPU's ranking: a plan wherever one is legal, the lowered one where it lowers.
TEST(MixedPlanner, TheCpuRankingPlansEveryMixedSize) {
  for (const Extents& size : {Extents{96, 100, 120}, Extents{384, 384, 384}, Extents{243, 243, 243},
                              Extents{12, 10, 9}}) {
    const Plan plan = default_plan(size, "hopper", passes_on_any_backend);
    EXPECT_NO_THROW(require_legal(plan)) << to_yaml(plan);
  }
  const Plan axes = default_axes_plan({96, 100, 120}, "hopper", {Axis::x, Axis::z}, passes_on_any_backend);
  EXPECT_NO_THROW(require_legal(axes)) << to_yaml(axes);
  EXPECT_EQ(axes.axes, (std::vector<Axis>{Axis::x, Axis::z}));
  EXPECT_EQ(default_plan({128, 64, 32}, "hopper", passes_on_any_backend), default_plan({128, 64, 32}, "hopper"));
}

TEST(MixedPlanner, RealPlansOfMixedSizesAreLegal) {
  for (const TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    for (const Extents& size : {Extents{200, 36, 20}, Extents{192, 100, 1}, Extents{12, 10, 9}}) {
      const Plan plan = default_plan_of_kind(size, "hopper", kind, passes_on_any_backend);
      EXPECT_NO_THROW(require_legal(plan)) << to_yaml(plan);
      EXPECT_EQ(kind_of(plan), kind);
    }
}

TEST(MixedPlanner, AnUnsupportedFactorIsRefusedBeforePlanning) {
  try {
    default_plan({1001, 64, 64}, "hopper", kernel_count);
    ADD_FAILURE() << "1001 = 7*11*13 was planned";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("11"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fft3d
