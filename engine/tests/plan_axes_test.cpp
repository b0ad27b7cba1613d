// Plans that transform a subset of their axes: the axes key, its printing, and the located errors of its checks.
#include <gtest/gtest.h>

#include "fft3d/checks.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "plan_errors.hpp"

namespace fft3d {
namespace {

// A 2D transform over X and Y of a 16 x 8 x 4 volume: Z is a batch index.
const std::string xy_kernels =
    "kernels:\n  - \"X(4, 4, 4, 16, tw), Y(1, 8, 1, 8, no-tw)\"\n  - \"X(4, 4, 1, 4, no-tw)\"\n";

std::string plan_text(const std::string& axes_line, const std::string& kernels = xy_kernels) {
  return "size: [16, 8, 4]\narch: tesla\n" + axes_line + kernels;
}

using testing::errors_of;

std::vector<std::string> errors_of(const Plan& plan) {
  std::vector<std::string> out;
  for (const Diagnostic& d : check_plan(plan)) out.push_back(d.message);
  return out;
}

TEST(PlanAxes, APlanTransformsEveryAxisUnlessItSaysOtherwise) {
  const Plan plan;
  EXPECT_EQ(plan.axes, (std::vector<Axis>{Axis::x, Axis::y, Axis::z}));
  EXPECT_TRUE(transforms_all_axes(plan));
  const std::string all = "size: [16, 8, 4]\narch: tesla\nkernels:\n"
                          "  - \"X(4, 4, 4, 16, tw), Y(1, 8, 1, 8, no-tw)\"\n"
                          "  - \"X(4, 4, 1, 4, no-tw), Z(1, 4, 1, 4, no-tw)\"\n";
  const Plan parsed = parse_plan(all).plan;
  EXPECT_TRUE(transforms_all_axes(parsed));
  // The text (hence stable_hash and every kernel cache key) of a plan of all axes has no axes line.
  EXPECT_EQ(to_yaml(parsed), all);
  EXPECT_EQ(parse_plan(plan_text("axes: [X, Y, Z]\n", "kernels:\n  - \"X(4, 4, 4, 16, tw), Y(1, 8, 1, 8, no-tw)\"\n"
                                                      "  - \"X(4, 4, 1, 4, no-tw), Z(1, 4, 1, 4, no-tw)\"\n"))
                .plan,
            parsed);
}

// The printer writes an axes line only for a subset, so every shipped plan prints (and hashes, and keys its
// kernels' cache entries) exactly as it did before the key existed.
TEST(PlanAxes, EveryShippedPlanTransformsAllAxesAndPrintsNoAxesLine) {
  const std::vector<TableEntry> entries = table_entries("", std::nullopt);
  ASSERT_FALSE(entries.empty());
  for (const TableEntry& entry : entries) {
    const Plan plan = load_plan_file(entry.path).plan;
    EXPECT_TRUE(transforms_all_axes(plan)) << entry.path;
    EXPECT_EQ(to_yaml(plan).find("axes"), std::string::npos) << entry.path;
  }
}

TEST(PlanAxes, ParsesPrintsAndRoundTripsASubsetOfAxes) {
  const std::string text = plan_text("axes: [X, Y]\n");
  const Plan plan = parse_plan(text).plan;
  EXPECT_EQ(plan.axes, (std::vector<Axis>{Axis::x, Axis::y}));
  EXPECT_EQ(to_yaml(plan), text);
  EXPECT_EQ(parse_plan(to_yaml(plan)).plan, plan);
  // Any order of letters means the same plan; the printer writes X, Y, Z order.
  EXPECT_EQ(parse_plan(plan_text("axes: [Y, X]\n")).plan, plan);
  Plan all = plan;
  all.axes = {Axis::x, Axis::y, Axis::z};
  EXPECT_NE(stable_hash(all), stable_hash(plan));
  EXPECT_NE(hash_value(all), hash_value(plan));
}

TEST(PlanAxes, TransformedElementsIsTheProductOfTheTransformedLengths) {
  Plan plan = parse_plan(plan_text("axes: [X, Y]\n")).plan;
  EXPECT_TRUE(transforms(plan, Axis::x));
  EXPECT_TRUE(transforms(plan, Axis::y));
  EXPECT_FALSE(transforms(plan, Axis::z));
  EXPECT_EQ(transformed_elements(plan), 16 * 8);
  const std::string z_kernels = "kernels:\n  - \"Z(2, 2, 2, 4, tw)\"\n  - \"Z(2, 2, 1, 2, no-tw)\"\n";
  const Plan column = parse_plan(plan_text("axes: [Z]\n", z_kernels)).plan;
  EXPECT_EQ(transformed_elements(column), 4);
  // A real plan's X counts its real length NX, not the NX/2 complex values its X stages transform.
  const Plan real = parse_plan(plan_text("axes: [X, Y]\n", "kernels:\n  - \"X(1, 8, 1, 8, no-tw), R2C(X, 16), "
                                                           "Y(1, 8, 1, 8, no-tw)\"\n"))
                        .plan;
  EXPECT_EQ(transformed_elements(real), 16 * 8);
}

TEST(PlanAxes, MalformedAxesListsAreLocatedErrors) {
  EXPECT_EQ(errors_of(plan_text("axes: []\n")),
            (std::vector<std::string>{"3:7: empty axes list: a plan transforms at least one axis (axes must be a "
                                      "list of the transformed axes, such as [X, Y])"}));
  EXPECT_EQ(errors_of(plan_text("axes: [X, Y, X]\n")),
            (std::vector<std::string>{"3:14: axis X is listed twice in axes: give each axis once"}));
  EXPECT_EQ(errors_of(plan_text("axes: [X, W]\n")),
            (std::vector<std::string>{"3:11: unknown axis 'W' in axes: expected X, Y or Z"}));
  EXPECT_EQ(errors_of(plan_text("axes: [x, Y]\n")),
            (std::vector<std::string>{"3:8: unknown axis 'x' in axes: expected X, Y or Z"}));
  EXPECT_EQ(errors_of(plan_text("axes: X\n")),
            (std::vector<std::string>{"3:7: axes must be a list of the transformed axes, such as [X, Y]"}));
  EXPECT_EQ(errors_of(plan_text("axes: [X, Y]\naxes: [X, Y]\n")),
            (std::vector<std::string>{"4:1: duplicate key 'axes': give it once"}));
}

TEST(PlanAxes, AStageOnAnUntransformedAxisNamesTheAxisAndThePlansAxes) {
  const std::string text = plan_text("axes: [X, Y]\n", "kernels:\n  - \"X(4, 4, 4, 16, tw), Y(1, 8, 1, 8, no-tw)\"\n"
                                                       "  - \"X(4, 4, 1, 4, no-tw), Z(1, 4, 1, 4, no-tw)\"\n");
  EXPECT_EQ(errors_of(text), (std::vector<std::string>{"6:28: Z(1, 4, 1, 4, no-tw): a stage on the Z axis, which the "
                                                       "plan does not transform (axes: [X, Y])"}));
}

TEST(PlanAxes, ChainsAreCheckedOnlyOnTransformedAxes) {
  // No Z stage is needed when Z is not transformed; a missing transformed axis is still an error.
  EXPECT_EQ(errors_of(plan_text("axes: [X, Y]\n")), std::vector<std::string>{});
  EXPECT_EQ(errors_of(plan_text("axes: [X, Y, Z]\n")),
            (std::vector<std::string>{
                "5:3: no stage on the Z axis of length 4: its radices must multiply to 4"}));
  // An incomplete chain of a transformed axis is reported as for a plan of all axes.
  EXPECT_EQ(errors_of(plan_text("axes: [X, Y]\n", "kernels:\n  - \"X(4, 4, 4, 16, tw), Y(1, 8, 1, 8, no-tw)\"\n")),
            (std::vector<std::string>{"5:6: X(4, 4, 4, 16, tw): the X chain ends at stride 4, expected 1: its radices "
                                      "multiply to 4, not the X length 16"}));
}

TEST(PlanAxes, ARealStepNeedsXAmongTheAxes) {
  const std::vector<std::string> errors =
      errors_of(plan_text("axes: [Y]\n", "kernels:\n  - \"R2C(X, 16), Y(1, 8, 1, 8, no-tw)\"\n"));
  EXPECT_EQ(errors, (std::vector<std::string>{
                        "5:6: R2C(X, 16): a real step needs X among the transformed axes (axes: [Y])"}));
}

TEST(PlanAxes, APlanBuiltInCodeNeedsAxesOnceEachInOrder) {
  Plan plan = parse_plan(plan_text("axes: [X, Y]\n")).plan;
  plan.axes = {};
  EXPECT_EQ(errors_of(plan), (std::vector<std::string>{"empty axes list: a plan transforms at least one axis"}));
  plan.axes = {Axis::y, Axis::x};
  EXPECT_EQ(errors_of(plan), (std::vector<std::string>{"axes [Y, X] must name each axis once, in X, Y, Z order"}));
  plan.axes = {Axis::x, Axis::x, Axis::y};
  EXPECT_EQ(errors_of(plan), (std::vector<std::string>{"axes [X, X, Y] must name each axis once, in X, Y, Z order"}));
}

}  // namespace
}  // namespace fft3d
