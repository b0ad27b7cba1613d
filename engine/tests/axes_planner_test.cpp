// default_axes_plan: the default planner for a subset of axes, the slab and column plans of a slab decomposition.
#include <gtest/gtest.h>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/planner.hpp"

namespace fft3d {
namespace {

bool has_stage_on(const Plan& plan, Axis axis) { return !stages_of(plan, axis).empty(); }

TEST(AxesPlanner, AllThreeAxesGiveTheDefaultPlan) {
  for (const char* arch : {"fermi", "hopper"})
    EXPECT_EQ(default_axes_plan({64, 32, 16}, arch, {Axis::x, Axis::y, Axis::z}), default_plan({64, 32, 16}, arch));
}

TEST(AxesPlanner, ASubsetPlanKeepsTheRealSizeAndStagesOnlyTheTransformedAxes) {
  const Extents size{64, 32, 16};
  for (const std::vector<Axis>& axes : std::vector<std::vector<Axis>>{
           {Axis::x, Axis::y}, {Axis::z}, {Axis::x}, {Axis::y, Axis::z}, {Axis::x, Axis::z}, {Axis::y}}) {
    for (const char* arch : {"tesla", "fermi", "hopper"}) {
      const Plan plan = default_axes_plan(size, arch, axes);
      SCOPED_TRACE(to_yaml(plan));
      EXPECT_EQ(plan.size, size);
      EXPECT_EQ(plan.axes, axes);
      EXPECT_EQ(plan.arch, arch);
      for (Axis axis : all_axes) EXPECT_EQ(has_stage_on(plan, axis), transforms(plan, axis));
      EXPECT_TRUE(check_plan(plan).empty());
      EXPECT_TRUE(passes_on_its_profile(plan).has_value());
    }
  }
}

// An axis the plan does not transform is a batch index: any positive length, such as a half spectrum's NX/2 + 1.
TEST(AxesPlanner, AnUntransformedAxisTakesAnyLength) {
  const Plan plan = default_axes_plan({33, 22, 16}, "hopper", {Axis::z});
  EXPECT_EQ(plan.size, (Extents{33, 22, 16}));
  EXPECT_TRUE(check_plan(plan).empty());
}

TEST(AxesPlanner, MalformedAxesAndSizesAreUsageErrorsNamingThem) {
  const auto message = [](const Extents& size, const std::vector<Axis>& axes) -> std::string {
    try {
      default_axes_plan(size, "hopper", axes);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message({64, 32, 16}, {}), "axes []: expected at least one axis, each once, in X, Y, Z order");
  EXPECT_EQ(message({64, 32, 16}, {Axis::z, Axis::x}),
            "axes [Z, X]: expected at least one axis, each once, in X, Y, Z order");
  EXPECT_EQ(message({64, 32, 16}, {Axis::x, Axis::x}),
            "axes [X, X]: expected at least one axis, each once, in X, Y, Z order");
  EXPECT_EQ(message({64, 22, 16}, {Axis::y}),
            "size 64x22x16: the Y length 22 = 2·11: 11 is not a supported factor (lengths must factor into 2, 3, 5 "
            "and 7); the nearest supported lengths are 21 and 24");
  EXPECT_EQ(message({64, 0, 16}, {Axis::x}), "size 64x0x16: the Y length 0 is not positive");
  EXPECT_EQ(message({1, 32, 16}, {Axis::x}),
            "axes [X] of size 1x32x16: size 1x1x1 has no stage to plan: every axis has length 1");
}

}  // namespace
}  // namespace fft3d
