// The checks of real plans: where the real step may stand, its axis and length, an even NX, X chains over NX/2,
// each error located and worded so that the user knows what to change.
#include <gtest/gtest.h>

#include <string>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d {
namespace {

// The plan file of `size` ("[256, 256, 256]") with one kernels entry per element of `kernels`.
std::string plan_file(const std::string& size, const std::vector<std::string>& kernels) {
  std::string text = "size: " + size + "\narch: hopper\nkernels:\n";
  for (const std::string& kernel : kernels) text += "  - \"" + kernel + "\"\n";
  return text;
}

// Every located error of the plan file, one per line; empty when it is legal.
std::string errors_of(const std::string& yaml) {
  try {
    parse_plan(yaml, "real.yaml");
  } catch (const PlanError& error) {
    return to_string(error.diagnostics());
  }
  return "";
}

const std::vector<std::string> r2c_256 = {"X(1, 128, 1, 128, no-tw), R2C(X, 256), Y(8, 32, 8, 256, tw)",
                                          "Y(32, 8, 1, 8, no-tw), Z(1, 256, 1, 256, no-tw)"};
const std::vector<std::string> c2r_256 = {"Z(1, 256, 1, 256, no-tw), Y(32, 8, 32, 256, tw)",
                                          "Y(8, 32, 1, 32, no-tw), C2R(X, 256), X(1, 128, 1, 128, no-tw)"};

TEST(RealChecks, TheDocumentedR2CAndC2RPlansAreLegal) {
  EXPECT_EQ(errors_of(plan_file("[256, 256, 256]", r2c_256)), "");
  EXPECT_EQ(errors_of(plan_file("[256, 256, 256]", c2r_256)), "");
  const Plan r2c = parse_plan(plan_file("[256, 256, 256]", r2c_256)).plan;
  EXPECT_EQ(kind_of(r2c), TransformKind::r2c);
  EXPECT_EQ(kind_of(parse_plan(plan_file("[256, 256, 256]", c2r_256)).plan), TransformKind::c2r);
}

TEST(RealChecks, AStepAtTheEdgeOfAKernelIsLegal) {
  EXPECT_EQ(errors_of(plan_file("[16, 8, 4]", {"X(4, 2, 4, 8, tw), X(4, 2, 2, 4, tw), X(4, 2, 1, 2, no-tw)",
                                                "R2C(X, 16), Y(1, 8, 1, 8, no-tw), Z(1, 4, 1, 4, no-tw)"})),
            "");
  EXPECT_EQ(errors_of(plan_file("[16, 8, 4]", {"Y(1, 8, 1, 8, no-tw), Z(1, 4, 1, 4, no-tw), C2R(X, 16)",
                                                "X(1, 8, 1, 8, no-tw)"})),
            "");
}

TEST(RealChecks, NxOfTwoHasNoXStages) {
  EXPECT_EQ(errors_of(plan_file("[2, 8, 4]", {"R2C(X, 2), Y(1, 8, 1, 8, no-tw), Z(1, 4, 1, 4, no-tw)"})), "");
  EXPECT_NE(errors_of(plan_file("[2, 8, 4]", {"X(1, 1, 1, 1, no-tw), R2C(X, 2), Y(1, 8, 1, 8, no-tw)",
                                               "Z(1, 4, 1, 4, no-tw)"}))
                .find("X(1, 1, 1, 1, no-tw): the X axis has stage length (NX/2) 1; a stage on it does nothing"),
            std::string::npos);
}

TEST(RealChecks, XStagesChainOverHalfTheXLength) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"X(1, 256, 1, 256, no-tw), R2C(X, 256)",
                                                                   "Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_NE(errors.find("real.yaml:4:6: error: X(1, 256, 1, 256, no-tw): span 256 does not divide the X stage "
                        "length (NX/2) 128"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("the first X stage must have span 128 (the X stage length (NX/2)), got 256"),
            std::string::npos)
      << errors;
}

// An odd NX: the X stages chain over NX itself (nothing pairs), all of them in the step's kernel.
TEST(RealChecks, AnOddXLengthChainsOverNxInTheStepsKernel) {
  EXPECT_EQ(errors_of(plan_file("[15, 16, 1]", {"X(5, 3, 5, 15, tw), X(3, 5, 1, 5, no-tw), R2C(X, 15), "
                                                "Y(1, 16, 1, 16, no-tw)"})),
            "");
  EXPECT_EQ(errors_of(plan_file("[15, 16, 1]", {"Y(1, 16, 1, 16, no-tw), C2R(X, 15), X(1, 15, 1, 15, no-tw)"})), "");
  const std::string halved = errors_of(plan_file("[15, 16, 1]", {"X(1, 7, 1, 7, no-tw), R2C(X, 15)",
                                                                 "Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_NE(halved.find("real.yaml:4:6: error: X(1, 7, 1, 7, no-tw): span 7 does not divide the X length 15"),
            std::string::npos)
      << halved;
}

TEST(RealChecks, AnOddXLengthsXStageOutsideTheStepsKernelIsLocated) {
  const std::string errors = errors_of(plan_file("[15, 16, 1]", {"X(5, 3, 5, 15, tw), R2C(X, 15)",
                                                                 "X(3, 5, 1, 5, no-tw), Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_NE(errors.find("real.yaml:5:6: error: X(3, 5, 1, 5, no-tw): an X stage in kernel 1, but R2C(X, 15) is in "
                        "kernel 0: with NX = 15 odd, every X stage runs in the step's kernel"),
            std::string::npos)
      << errors;
  EXPECT_EQ(errors.find("X(5, 3, 5, 15, tw): an X stage"), std::string::npos) << errors;
}

TEST(RealChecks, NxOfOneTakesNoXStage) {
  EXPECT_EQ(errors_of(plan_file("[1, 16, 1]", {"R2C(X, 1), Y(1, 16, 1, 16, no-tw)"})), "");
}

TEST(RealChecks, AStepOnYIsRefused) {
  const std::string errors = errors_of(plan_file("[256, 256, 256]", {"X(1, 128, 1, 128, no-tw), R2C(Y, 256)",
                                                                      "Y(1, 256, 1, 256, no-tw)",
                                                                      "Z(1, 256, 1, 256, no-tw)"}));
  EXPECT_NE(errors.find("real.yaml:4:32: error: R2C(Y, 256): a real step must be on X"), std::string::npos) << errors;
}

TEST(RealChecks, AStepLengthOtherThanNxIsRefused) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"X(1, 128, 1, 128, no-tw), R2C(X, 128)",
                                                                   "Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_NE(errors.find("R2C(X, 128): the step's length 128 is not the X length 256"), std::string::npos) << errors;
}

TEST(RealChecks, AnR2CStepBeforeAnXStageNamesTheStageAndWhereTheStepGoes) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"R2C(X, 256), X(1, 128, 1, 128, no-tw)",
                                                                   "Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_EQ(errors, "real.yaml:4:19: error: X(1, 128, 1, 128, no-tw): an X stage after R2C(X, 256): the R2C step "
                    "must follow every X stage and precede every Y and Z stage; move R2C after this stage\n");
}

TEST(RealChecks, AnR2CStepAfterAYStageIsRefused) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"Y(1, 16, 1, 16, no-tw)",
                                                                   "X(1, 128, 1, 128, no-tw), R2C(X, 256)"}));
  EXPECT_EQ(errors, "real.yaml:4:6: error: Y(1, 16, 1, 16, no-tw): a Y stage before R2C(X, 256): the R2C step "
                    "must follow every X stage and precede every Y and Z stage; move R2C before this stage\n");
}

TEST(RealChecks, AC2RStepBeforeAYStageNamesTheStageAndWhereTheStepGoes) {
  const std::string errors = errors_of(plan_file("[256, 256, 256]", {"Z(1, 256, 1, 256, no-tw), Y(32, 8, 32, 256, tw)",
                                                                      "C2R(X, 256), Y(8, 32, 1, 32, no-tw)",
                                                                      "X(1, 128, 1, 128, no-tw)"}));
  EXPECT_EQ(errors, "real.yaml:5:19: error: Y(8, 32, 1, 32, no-tw): a Y stage after C2R(X, 256): the C2R step "
                    "must follow every Y and Z stage and precede every X stage; move C2R after this stage\n");
}

TEST(RealChecks, AC2RStepAfterAnXStageIsRefused) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"Y(1, 16, 1, 16, no-tw), X(1, 128, 1, 128, no-tw)",
                                                                   "C2R(X, 256)"}));
  EXPECT_NE(errors.find("real.yaml:4:30: error: X(1, 128, 1, 128, no-tw): an X stage before C2R(X, 256)"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("move C2R before this stage"), std::string::npos) << errors;
}

TEST(RealChecks, ASecondRealStepIsRefused) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"X(1, 128, 1, 128, no-tw), R2C(X, 256)",
                                                                   "C2R(X, 256), Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_NE(errors.find("real.yaml:5:6: error: C2R(X, 256): a second real step (the first is in kernel 0): a plan "
                        "has at most one real step"),
            std::string::npos)
      << errors;
}

TEST(RealChecks, AKernelOfOnlyTheStepIsEmpty) {
  const std::string errors = errors_of(plan_file("[256, 16, 1]", {"X(1, 128, 1, 128, no-tw)", "R2C(X, 256)",
                                                                   "Y(1, 16, 1, 16, no-tw)"}));
  EXPECT_NE(errors.find("empty kernel 1: a kernel needs at least one sub-computation (put the real step in the "
                        "kernel before or after)"),
            std::string::npos)
      << errors;
}

TEST(RealChecks, APlanBuiltInCodeIsCheckedToo) {
  Plan plan = parse_plan(plan_file("[256, 256, 256]", r2c_256)).plan;
  EXPECT_NO_THROW(require_legal(plan));
  plan.kernels[0].real_position = 7;
  EXPECT_THROW(require_legal(plan), PlanError);
  plan.kernels[0].real_position = 0;
  const std::string errors = to_string(check_plan(plan));
  EXPECT_NE(errors.find("<plan kernel 0 term 0>: error: X(1, 128, 1, 128, no-tw): an X stage after R2C(X, 256)"),
            std::string::npos)
      << errors;
}

}  // namespace
}  // namespace fft3d
