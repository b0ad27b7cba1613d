// Plan files as hostile input: duplicate keys, oversized and endless files, folders, thousands of kernels and
// overflowing arithmetic are each refused with a located message, in time linear in the file.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "fft3d/checks.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/plan_text.hpp"
#include "plan_errors.hpp"

namespace fft3d {
namespace {

// The text's errors ("line:col: message"), one a line.
std::string errors_of(const std::string& text) {
  std::string out;
  for (const std::string& error : testing::errors_of(text)) out += error + "\n";
  return out;
}

std::string usage_error_of(const std::string& path) {
  try {
    load_plan_file(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(PlanInput, ADuplicateKeyIsAnErrorAtTheSecond) {
  const std::string errors =
      errors_of("size: [8, 8, 8]\nsize: [16, 16, 16]\narch: tesla\nkernels:\n  - \"X(1, 8, 1, 8, no-tw)\"\n");
  EXPECT_NE(errors.find("2:1: duplicate key 'size'"), std::string::npos) << errors;
  EXPECT_NE(errors_of("size: [8, 1, 1]\narch: tesla\narch: hopper\nkernels:\n  - \"X(1, 8, 1, 8, no-tw)\"\n")
                .find("3:1: duplicate key 'arch'"),
            std::string::npos);
}

TEST(PlanInput, AFieldErrorPointsAtTheFieldNotTheSpaceBeforeIt) {
  const std::string errors = errors_of("size: [8, 1, 1]\narch: tesla\nkernels:\n  - \"X(1,   zero, 1, 8, no-tw)\"\n");
  // `  - "X(1,   zero`: the field starts at column 13, after the three spaces.
  EXPECT_NE(errors.find("4:13: 'X(1,   zero, 1, 8, no-tw)': radix 'zero'"), std::string::npos) << errors;
}

TEST(PlanInput, AFolderIsNamedAsAFolder) {
  EXPECT_NE(usage_error_of(std::filesystem::temp_directory_path().string()).find("a directory, not a plan file"),
            std::string::npos);
}

TEST(PlanInput, AnEndlessOrOversizedFileIsRefusedQuickly) {
  const auto start = std::chrono::steady_clock::now();
  if (std::filesystem::exists("/dev/zero")) {
    EXPECT_NE(usage_error_of("/dev/zero").find("the largest plan file read"), std::string::npos);
  }
  const std::filesystem::path big = std::filesystem::temp_directory_path() / "fft3d-oversized-plan.yaml";
  {
    std::ofstream out(big);
    out << "size: [8, 1, 1]\narch: tesla\n# " << std::string(static_cast<std::size_t>(max_plan_file_bytes), '#');
  }
  EXPECT_NE(usage_error_of(big.string()).find(std::to_string(max_plan_file_bytes)), std::string::npos);
  std::filesystem::remove(big);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

// Twenty thousand kernels: the parse is linear in the file (a quadratic one took tens of seconds here).
TEST(PlanInput, ThousandsOfKernelsParseInLinearTime) {
  std::string text = "size: [8, 1, 1]\narch: tesla\nkernels:\n";
  for (int k = 0; k < 20000; ++k) text += "  - \"X(1, 8, 1, 8, no-tw)\"\n";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(errors_of(text).find("the X chain is already complete"), std::string::npos);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 3.0);
}

TEST(PlanInput, OverflowingTermArithmeticIsReportedNotWrapped) {
  const std::string errors = errors_of(
      "size: [8, 1, 1]\narch: tesla\nkernels:\n  - \"X(1, 4611686018427387904, 4, 8, tw)\"\n");
  EXPECT_NE(errors.find("does not fit in 64 bits"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("= 0"), std::string::npos) << errors;
  const std::string chain = errors_of(
      "size: [8, 1, 1]\narch: tesla\nkernels:\n  - \"X(1, 4611686018427387904, 2, 8, tw), X(1, 4, 2, 2, tw)\"\n");
  EXPECT_NE(chain.find("multiply to more than fits in 64 bits"), std::string::npos) << chain;
}

TEST(PlanInput, PlansBuiltInCodeWithZeroFieldsAreReportedNotDividedBy) {
  Plan plan{{8, 1, 1}, "tesla", {{{{Axis::x, 1, 0, 0, 8, false}}}}};
  const std::vector<Diagnostic> errors = check_plan(plan);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(to_string(errors).find("must be positive"), std::string::npos) << to_string(errors);
}

}  // namespace
}  // namespace fft3d
