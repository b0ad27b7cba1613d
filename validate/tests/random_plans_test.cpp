// The random plan generator: every plan legal and within its limits, deterministic, and varied enough to reach the
// corners of the plan language (mixed kernels, whole-line radices, axes of length 1, every arch).
#include <gtest/gtest.h>

#include <set>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/lengths.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::validate {
namespace {

constexpr int plans_to_draw = 1000;

TEST(RandomLegalPlan, EveryPlanIsLegalAndWithinTheDefaultLimits) {
  std::mt19937_64 random(11);
  for (int i = 0; i < plans_to_draw; ++i) {
    const Plan plan = random_legal_plan(random);
    const std::vector<Diagnostic> errors = check_plan(plan);
    ASSERT_TRUE(errors.empty()) << "plan " << i << ":\n" << to_yaml(plan) << to_string(errors);
    EXPECT_GT(plan.size.elements(), 1);
    EXPECT_LE(plan.size.elements(), std::int64_t{1} << 18);
    for (Axis axis : all_axes) EXPECT_LE(plan.size[axis], 256);
  }
}

TEST(RandomLegalPlan, TheSameSeedGivesTheSamePlans) {
  std::mt19937_64 first(99), second(99);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(random_legal_plan(first), random_legal_plan(second));
}

TEST(RandomLegalPlan, ReachesTheCornersOfThePlanLanguage) {
  std::mt19937_64 random(12);
  std::set<std::string> arches;
  bool mixed_kernel = false, one_kernel = false, whole_line_radix = false, unit_axis = false, radix_two = false;
  std::set<std::size_t> kernel_counts;
  for (int i = 0; i < plans_to_draw; ++i) {
    const Plan plan = random_legal_plan(random);
    arches.insert(plan.arch);
    kernel_counts.insert(plan.kernels.size());
    one_kernel |= plan.kernels.size() == 1;
    for (Axis axis : all_axes) unit_axis |= plan.size[axis] == 1;
    for (const Kernel& kernel : plan.kernels) {
      for (const SubComputation& sub : kernel.subs) {
        mixed_kernel |= sub.axis != kernel.subs.front().axis;
        whole_line_radix |= sub.radix == plan.size[sub.axis] && sub.radix >= 64;
        radix_two |= sub.radix == 2;
      }
    }
  }
  EXPECT_EQ(arches, (std::set<std::string>{"tesla", "fermi", "hopper"}));
  EXPECT_TRUE(mixed_kernel);
  EXPECT_TRUE(one_kernel);
  EXPECT_TRUE(whole_line_radix);
  EXPECT_TRUE(unit_axis);
  EXPECT_TRUE(radix_two);
  EXPECT_GE(kernel_counts.size(), 8u);
}

TEST(RandomLegalPlan, HonoursTighterLimits) {
  std::mt19937_64 random(13);
  const RandomPlanLimits limits{.max_axis_length = 64, .max_elements = 1 << 10, .max_radix = 4};
  for (int i = 0; i < 200; ++i) {
    const Plan plan = random_legal_plan(random, limits);
    ASSERT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
    EXPECT_LE(plan.size.elements(), 1 << 10);
    for (const Kernel& kernel : plan.kernels)
      for (const SubComputation& sub : kernel.subs) EXPECT_LE(sub.radix, 4) << to_yaml(plan);
  }
}

TEST(RandomLegalPlan, HonoursAFixedArch) {
  std::mt19937_64 random(15);
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (int i = 0; i < 100; ++i) {
      const Plan plan = random_legal_plan(random, {.max_radix = 64, .arch = arch});
      ASSERT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
      EXPECT_EQ(plan.arch, arch);
      for (const Kernel& kernel : plan.kernels)
        for (const SubComputation& sub : kernel.subs) EXPECT_LE(sub.radix, 64) << to_yaml(plan);
    }
}

TEST(RandomLegalPlan, RejectsLimitsThatAreNotPowersOfTwoOrTooSmall) {
  std::mt19937_64 random(14);
  EXPECT_THROW(random_legal_plan(random, {.max_axis_length = 100}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.max_axis_length = 1}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.max_elements = 1}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.max_radix = 1}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.max_radix = 6}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.arch = "kepler"}), UsageError);
}

TEST(RandomLegalRealPlan, EveryPlanIsLegalOfItsKindAndWithinItsLimits) {
  std::mt19937_64 random(16);
  const RandomPlanLimits limits{.max_axis_length = 64, .max_elements = 1 << 14, .max_radix = 8};
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    for (int i = 0; i < plans_to_draw / 2; ++i) {
      const Plan plan = random_legal_real_plan(random, kind, limits);
      const std::vector<Diagnostic> errors = check_plan(plan);
      ASSERT_TRUE(errors.empty()) << "plan " << i << ":\n" << to_yaml(plan) << to_string(errors);
      EXPECT_EQ(kind_of(plan), kind);
      EXPECT_GE(plan.size.nx, 2);
      EXPECT_LE(plan.size.elements(), 1 << 14);
      for (Axis axis : all_axes) EXPECT_LE(plan.size[axis], 64);
      for (const Kernel& kernel : plan.kernels)
        for (const SubComputation& sub : kernel.subs) EXPECT_LE(sub.radix, 8) << to_yaml(plan);
    }
}

TEST(RandomLegalRealPlan, PlacesTheStepEverywhereItMayStand) {
  std::mt19937_64 random(17);
  bool nx_two = false, at_start = false, at_end = false, inside = false, step_in_first_of_several = false;
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    for (int i = 0; i < plans_to_draw / 2; ++i) {
      const Plan plan = random_legal_real_plan(random, kind);
      nx_two |= plan.size.nx == 2;
      for (const Kernel& kernel : plan.kernels) {
        if (!kernel.real) continue;
        at_start |= kernel.real_position == 0;
        at_end |= kernel.real_position == kernel.subs.size();
        inside |= kernel.real_position > 0 && kernel.real_position < kernel.subs.size();
      }
      step_in_first_of_several |= plan.kernels.size() > 1 && plan.kernels.front().real.has_value();
    }
  EXPECT_TRUE(nx_two);
  EXPECT_TRUE(at_start);
  EXPECT_TRUE(at_end);
  EXPECT_TRUE(inside);
  EXPECT_TRUE(step_in_first_of_several);
}

TEST(RandomLegalRealPlan, TheSameSeedGivesTheSamePlansAndC2CIsRefused) {
  std::mt19937_64 first(98), second(98);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(random_legal_real_plan(first, TransformKind::c2r), random_legal_real_plan(second, TransformKind::c2r));
  EXPECT_THROW(random_legal_real_plan(first, TransformKind::c2c), UsageError);
  EXPECT_THROW(random_legal_real_plan(first, TransformKind::r2c, {.max_elements = 2}), UsageError);
}

constexpr RandomPlanLimits mixed_limits{.factors = supported_factors};
constexpr std::array<std::int64_t, 3> two_three_seven{2, 3, 7};
constexpr std::array<std::int64_t, 2> two_five{2, 5};
constexpr std::array<std::int64_t, 2> three_five{3, 5};
constexpr std::array<std::int64_t, 2> two_eleven{2, 11};

bool has_only_supported_factors(std::int64_t n) {
  for (std::int64_t p : supported_factors)
    while (n % p == 0) n /= p;
  return n == 1;
}

TEST(RandomLegalMixedPlan, EveryPlanIsLegalWithinTheLimitsAndReachesEveryFactorAndMixedRadices) {
  std::mt19937_64 random(21);
  std::set<std::int64_t> odd_radices;
  bool composite_mixed_radix = false, odd_axis = false, whole_line_radix = false, power_of_two_axis = false;
  for (int i = 0; i < plans_to_draw; ++i) {
    const Plan plan = random_legal_plan(random, mixed_limits);
    const std::vector<Diagnostic> errors = check_plan(plan);
    ASSERT_TRUE(errors.empty()) << "plan " << i << ":\n" << to_yaml(plan) << to_string(errors);
    EXPECT_GT(plan.size.elements(), 1);
    EXPECT_LE(plan.size.elements(), std::int64_t{1} << 18);
    for (Axis axis : all_axes) {
      EXPECT_LE(plan.size[axis], 256);
      EXPECT_TRUE(has_only_supported_factors(plan.size[axis])) << plan.size[axis];
      odd_axis |= plan.size[axis] % 2 == 1 && plan.size[axis] > 1;
      power_of_two_axis |= plan.size[axis] >= 8 && (plan.size[axis] & (plan.size[axis] - 1)) == 0;
    }
    for (const Kernel& kernel : plan.kernels)
      for (const SubComputation& sub : kernel.subs) {
        if (sub.radix % 2 == 1) odd_radices.insert(sub.radix);
        composite_mixed_radix |= sub.radix % 2 == 0 && (sub.radix & (sub.radix - 1)) != 0;
        whole_line_radix |= sub.radix == plan.size[sub.axis] && sub.radix % 2 == 1 && sub.radix > 7;
      }
  }
  for (std::int64_t p : {3, 5, 7, 9, 15, 21, 25, 27, 35, 49}) EXPECT_TRUE(odd_radices.contains(p)) << p;
  EXPECT_TRUE(composite_mixed_radix);
  EXPECT_TRUE(odd_axis);
  EXPECT_TRUE(whole_line_radix);
  EXPECT_TRUE(power_of_two_axis);
}

TEST(RandomLegalMixedPlan, HonoursTheRadixLimitAndTheSameSeedGivesTheSamePlans) {
  std::mt19937_64 random(22);
  const RandomPlanLimits limits{
      .max_axis_length = 64, .max_elements = 1 << 12, .max_radix = 8, .factors = two_three_seven};
  for (int i = 0; i < 200; ++i) {
    const Plan plan = random_legal_plan(random, limits);
    ASSERT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
    EXPECT_LE(plan.size.elements(), 1 << 12);
    for (Axis axis : all_axes) EXPECT_NE(plan.size[axis] % 5, 0) << to_yaml(plan);
    for (const Kernel& kernel : plan.kernels)
      for (const SubComputation& sub : kernel.subs) EXPECT_LE(sub.radix, 8) << to_yaml(plan);
  }
  std::mt19937_64 first(97), second(97);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(random_legal_plan(first, mixed_limits), random_legal_plan(second, mixed_limits));
}

TEST(RandomLegalMixedPlan, RejectsUnsupportedFactorsAndRadixLimitsBelowAFactor) {
  std::mt19937_64 random(23);
  EXPECT_THROW(random_legal_plan(random, {.factors = {}}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.factors = two_eleven}), UsageError);
  EXPECT_THROW(random_legal_plan(random, {.max_radix = 4, .factors = two_five}), UsageError);
  EXPECT_THROW(random_legal_real_plan(random, TransformKind::r2c, {.factors = three_five}), UsageError);
}

TEST(RandomLegalMixedRealPlan, EveryPlanIsLegalOfItsKindWithAnEvenNx) {
  std::mt19937_64 random(24);
  const RandomPlanLimits limits{.max_axis_length = 128, .max_elements = 1 << 16, .factors = supported_factors};
  bool odd_half = false;
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    for (int i = 0; i < plans_to_draw / 2; ++i) {
      const Plan plan = random_legal_real_plan(random, kind, limits);
      const std::vector<Diagnostic> errors = check_plan(plan);
      ASSERT_TRUE(errors.empty()) << "plan " << i << ":\n" << to_yaml(plan) << to_string(errors);
      EXPECT_EQ(kind_of(plan), kind);
      EXPECT_EQ(plan.size.nx % 2, 0);
      EXPECT_LE(plan.size.elements(), 1 << 16);
      odd_half |= plan.size.nx / 2 % 2 == 1 && plan.size.nx > 2;
    }
  EXPECT_TRUE(odd_half);
}

TEST(AllRadixSplits, CountsEveryOrderedFactorization) {
  EXPECT_EQ(all_radix_splits(1).size(), 1u);
  EXPECT_EQ(all_radix_splits(64).size(), 32u);
  // Ordered factorizations: H(12) = 8 (12, 2.6, 6.2, 3.4, 4.3, 2.2.3, 2.3.2, 3.2.2), H(30) = 13.
  EXPECT_EQ(all_radix_splits(12).size(), 8u);
  EXPECT_EQ(all_radix_splits(30).size(), 13u);
  for (const std::vector<std::int64_t>& split : all_radix_splits(360)) {
    std::int64_t product = 1;
    for (std::int64_t radix : split) product *= radix;
    EXPECT_EQ(product, 360);
  }
}

}  // namespace
}  // namespace fft3d::validate
