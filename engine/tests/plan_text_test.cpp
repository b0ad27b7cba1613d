#include <gtest/gtest.h>

#include "fft3d/checks.hpp"
#include "fft3d/plan_text.hpp"
#include "plan_errors.hpp"

namespace fft3d {
namespace {

const char* tesla_256 = R"yaml(size: [256, 256, 256]
arch: tesla
kernels:
  - "Y(16, 16, 16, 256, tw)"
  - "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)"
  - "X(32, 8, 8, 64, tw), Z(16, 16, 16, 256, tw)"
  - "X(32, 8, 1, 8, no-tw), Z(16, 16, 1, 16, no-tw)"
)yaml";

using testing::errors_of;

bool any_contains(const std::vector<std::string>& errors, const std::string& needle) {
  for (const std::string& e : errors)
    if (e.find(needle) != std::string::npos) return true;
  return false;
}

std::string with_kernel(int index, const std::string& replacement) {
  std::string text = tesla_256;
  const std::vector<std::string> kernels = {"\"Y(16, 16, 16, 256, tw)\"",
                                            "\"X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)\"",
                                            "\"X(32, 8, 8, 64, tw), Z(16, 16, 16, 256, tw)\"",
                                            "\"X(32, 8, 1, 8, no-tw), Z(16, 16, 1, 16, no-tw)\""};
  text.replace(text.find(kernels[index]), kernels[index].size(), replacement);
  return text;
}

TEST(PlanText, ParsesThePapersTeslaPlan) {
  const ParsedPlan parsed = parse_plan(tesla_256, "t.yaml");
  EXPECT_EQ(parsed.plan.size, (Extents{256, 256, 256}));
  EXPECT_EQ(parsed.plan.arch, "tesla");
  ASSERT_EQ(parsed.plan.kernels.size(), 4u);
  ASSERT_EQ(parsed.plan.kernels[1].subs.size(), 2u);
  EXPECT_EQ(parsed.plan.kernels[1].subs[0], (SubComputation{Axis::x, 64, 4, 64, 256, true}));
  EXPECT_EQ(parsed.plan.kernels[1].subs[1], (SubComputation{Axis::y, 16, 16, 1, 16, false}));
  // Locations: line 6 is the third kernel, its Z term starts after `  - "X(32, 8, 8, 64, tw), `.
  EXPECT_EQ(parsed.locations.sub[2][1].line, 6);
  EXPECT_EQ(parsed.locations.sub[2][1].column, 27);
  EXPECT_EQ(parsed.locations.sub[2][0].column, 6);
}

TEST(PlanText, PrintThenParseIsIdentity) {
  const Plan plan = parse_plan(tesla_256).plan;
  EXPECT_EQ(parse_plan(to_yaml(plan)).plan, plan);
  EXPECT_EQ(to_string(plan.kernels[1]), "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)");
}

TEST(PlanText, BraceFormMeansTheSamePlan) {
  const Plan plan = parse_plan(tesla_256).plan;
  const std::string braces = "size: [256, 256, 256]\narch: tesla\nplan: \"" + to_brace_string(plan.kernels) + "\"\n";
  EXPECT_EQ(parse_plan(braces).plan, plan);
  EXPECT_EQ(hash_value(parse_plan(braces).plan), hash_value(plan));
  const std::string block = "size: [256, 256, 256]\narch: tesla\nplan: |\n  {Y(16, 16, 16, 256, tw)}\n"
                            "  {X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)}\n"
                            "  {X(32, 8, 8, 64, tw), Z(16, 16, 16, 256, tw)}\n"
                            "  {X(32, 8, 1, 8, no-tw), Z(16, 16, 1, 16, no-tw)}\n";
  EXPECT_EQ(parse_plan(block).plan, plan);
}

TEST(PlanText, MapFormKernelEntry) {
  EXPECT_EQ(parse_plan(with_kernel(0, "{subs: \"Y(16, 16, 16, 256, tw)\"}")).plan, parse_plan(tesla_256).plan);
  EXPECT_TRUE(any_contains(errors_of(with_kernel(0, "{subs: \"Y(16, 16, 16, 256, tw)\", threads: 3}")),
                           "4:38: unknown kernel setting 'threads'"));
}

TEST(PlanText, HashAndEqualityTellPlansApart) {
  Plan a = parse_plan(tesla_256).plan;
  Plan b = a;
  b.kernels[3].subs[0].twiddle = true;
  EXPECT_NE(a, b);
  EXPECT_NE(hash_value(a), hash_value(b));
  EXPECT_NE(stable_hash(a), stable_hash(b));
}

TEST(PlanText, PrecisionAndBatchAreReadWrittenAndHashed) {
  const Plan plain = parse_plan(tesla_256).plan;
  const std::string text = std::string(tesla_256).replace(0, 0, "precision: fp64\nbatch: 12\n");
  const Plan plan = parse_plan(text).plan;
  EXPECT_EQ(plan.precision, Precision::fp64);
  EXPECT_EQ(plan.batch, 12);
  EXPECT_EQ(parse_plan(to_yaml(plan)).plan, plan);
  EXPECT_NE(hash_value(plan), hash_value(plain));
  EXPECT_NE(stable_hash(plan), stable_hash(plain));
  // The defaults are not written, so an fp32 plan of one volume keeps its text.
  EXPECT_EQ(to_yaml(plain).find("precision"), std::string::npos);
  EXPECT_EQ(to_yaml(plain).find("batch"), std::string::npos);
  EXPECT_TRUE(any_contains(errors_of(std::string(tesla_256).replace(0, 0, "precision: fp16\n")),
                           "1:12: precision 'fp16': expected fp32 or fp64"));
  EXPECT_TRUE(any_contains(errors_of(std::string(tesla_256).replace(0, 0, "batch: 0\n")),
                           "1:8: batch '0': expected a positive count of volumes"));
  EXPECT_TRUE(any_contains(errors_of(std::string(tesla_256).replace(0, 0, "batch: many\n")),
                           "1:8: batch 'many'"));
}

TEST(PlanChecks, SyntaxErrorsAreLocatedAndAllReported) {
  const auto errors = errors_of(with_kernel(1, "\"W(64, 4, 64, 256, tw), Y(16, 16, 1, 16)\"") );
  EXPECT_TRUE(any_contains(errors, "5:6: 'W(64, 4, 64, 256, tw)': unknown axis 'W'")) << errors.front();
  EXPECT_TRUE(any_contains(errors, "5:29: 'Y(16, 16, 1, 16)': expected 5 fields"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(1, "\"X(64, four, 64, 256, tw), Y(16, 16, 1, 16, no-tw)\"")),
                           "5:12: 'X(64, four, 64, 256, tw)': radix 'four' is not an integer"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(1, "\"X(64, 4, -64, 256, tw), Y(16, 16, 1, 16, no-tw)\"")),
                           "stride -64 must be a positive integer"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(1, "\"X(64, 4, 64, 256, twiddle), Y(16, 16, 1, 16, no-tw)\"")),
                           "unknown twiddle word 'twiddle': expected tw or no-tw"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(1, "\"X(64, 4, 64, 256, tw), Y(16, 16, 1, 99999999999999999999, no-tw)\"")),
                           "does not fit in 64 bits"));
  EXPECT_TRUE(any_contains(errors_of("size: [256, 256\narch: tesla\n"), "YAML syntax"));
  EXPECT_TRUE(any_contains(errors_of("size: [256, 256, 256]\narch: tesla\nkernel: []\n"), "3:1: unknown key 'kernel'"));
}

TEST(PlanChecks, ArithmeticOfATerm) {
  EXPECT_TRUE(any_contains(errors_of(with_kernel(2, "\"X(32, 8, 8, 64, tw), Z(16, 16, 16, 156, tw)\"")),
                           "6:27: Z(16, 16, 16, 156, tw): span 156 does not divide the Z length 256"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(2, "\"X(32, 8, 8, 64, tw), Z(16, 16, 16, 156, tw)\"")),
                           "radix 16 * stride 16 = 256, not the span 156"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(0, "\"Y(8, 16, 16, 256, tw)\"")),
                           "count 8 is not the Y length 256 / radix 16 = 16"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(0, "\"Y(16, 16, 16, 256, no-tw)\"")), "needs its DIF twiddles"));
  EXPECT_TRUE(any_contains(errors_of(with_kernel(3, "\"X(32, 8, 1, 8, tw), Z(16, 16, 1, 16, no-tw)\"")),
                           "stride 1 has only unit twiddles"));
}

TEST(PlanChecks, DifChains) {
  // A.2.5's misprint on a 1024-long Z axis.
  const std::string a25 = "size: [256, 512, 1024]\narch: fermi\nkernels:\n"
                          "  - \"X(64, 4, 64, 256, tw), Y(32, 16, 32, 512, tw)\"\n"
                          "  - \"X(32, 8, 8, 64, tw), Y(16, 32, 1, 32, no-tw)\"\n"
                          "  - \"X(32, 8, 1, 8, no-tw), Z(32, 32, 32, 512, tw)\"\n"
                          "  - \"Z(32, 32, 1, 32, no-tw)\"\n";
  const auto errors = errors_of(a25);
  EXPECT_TRUE(any_contains(errors, "6:29: Z(32, 32, 32, 512, tw): the first Z stage must have span 1024"));
  EXPECT_TRUE(any_contains(errors, "radix 32 * stride 32 = 1024, not the span 512"));
  // A stage missing, the chain ends early.
  EXPECT_TRUE(any_contains(errors_of(with_kernel(3, "\"X(32, 8, 1, 8, no-tw)\"")),
                           "Z(16, 16, 16, 256, tw): the Z chain ends at stride 16, expected 1"));
  // Stages swapped across kernels.
  std::string swapped = with_kernel(0, "\"Y(16, 16, 1, 16, no-tw)\"");
  swapped = swapped.replace(swapped.find("Y(16, 16, 1, 16, no-tw)\"\n  - \"X(32"), 23, "Y(16, 16, 16, 256, tw)");
  EXPECT_TRUE(any_contains(errors_of(swapped), "the first Y stage must have span 256"));
  // Missing axis, axis of length 1.
  EXPECT_TRUE(any_contains(errors_of("size: [256, 256, 256]\narch: tesla\nkernels:\n  - \"Y(1, 256, 1, 256, no-tw)\"\n"),
                           "no stage on the X axis of length 256"));
  EXPECT_TRUE(any_contains(errors_of("size: [16, 1, 1]\narch: tesla\nkernels:\n  - \"X(1, 16, 1, 16, no-tw), Y(1, 1, 1, 1, no-tw)\"\n"),
                           "the Y axis has length 1; a stage on it does nothing"));
  EXPECT_TRUE(errors_of("size: [16, 1, 1]\narch: tesla\nkernels:\n  - \"X(1, 16, 1, 16, no-tw)\"\n").empty());
}

TEST(PlanChecks, WrongAxisLetterGetsAHint) {
  // §4.1 writes the Z kernel's second stage as Y(16, 16, 1, 16, no-tw).
  const auto errors = errors_of(with_kernel(3, "\"X(32, 8, 1, 8, no-tw), Y(16, 16, 1, 16, no-tw)\""));
  EXPECT_TRUE(any_contains(errors, "7:29: Y(16, 16, 1, 16, no-tw): the Y chain is already complete"));
  EXPECT_TRUE(any_contains(errors, "did you mean Z(16, 16, 1, 16, no-tw)?"));
}

TEST(PlanChecks, PlanLevelErrors) {
  EXPECT_TRUE(any_contains(errors_of(with_kernel(0, "\"\"")), "4:5: empty kernel 0"));
  EXPECT_TRUE(any_contains(errors_of("size: [256, 256, 256]\narch: kepler\nkernels: []\n"), "2:7: unknown arch 'kepler'"));
  EXPECT_TRUE(any_contains(errors_of("size: [256, 256, 256]\narch: tesla\nkernels: []\n"), "a plan needs at least one kernel"));
  EXPECT_TRUE(any_contains(errors_of("size: [1001, 256, 256]\narch: tesla\nkernels: []\n"),
                           "X length 1001 = 7·11·13: 11 is not a supported factor"));
  EXPECT_TRUE(any_contains(errors_of("size: [0, 256, 256]\narch: tesla\nkernels: []\n"), "X length 0 must be positive"));
  EXPECT_TRUE(any_contains(errors_of("size: [1048576, 1048576, 1048576]\narch: hopper\nkernels: []\n"),
                           "more elements than any buffer can hold"));
  EXPECT_TRUE(any_contains(errors_of("size: [256, 256]\narch: tesla\nkernels: []\n"), "size must be a list of three"));
  EXPECT_TRUE(any_contains(errors_of("arch: tesla\nkernels: []\n"), "missing size"));
  EXPECT_TRUE(any_contains(errors_of("- 1\n- 2\n"), "a plan file is a YAML map"));
}

}  // namespace
}  // namespace fft3d
