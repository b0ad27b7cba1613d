// The paper's plans exactly as printed (engine/tests/data/wu_jaja_printed_plans.txt, copied verbatim from the seed):
// every Appendix A plan but A.2.5 is legal, and each misprint is reported by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "fft3d/plan_text.hpp"

namespace fft3d {
namespace {

const std::string fixture = std::string(FFT3D_SOURCE_DIR) + "/engine/tests/data/wu_jaja_printed_plans.txt";

struct PrintedPlan {
  std::string heading;
  std::string yaml;
};

// Turns the paper's typesetting ("- $\{X(...), Y(...)\}$", "$X(...)X(...)$") into plan YAML, one kernel a bullet.
std::vector<PrintedPlan> read_printed_plans() {
  std::ifstream in(fixture);
  std::vector<PrintedPlan> plans;
  std::vector<std::string> kernels;
  std::string line;
  const std::regex size_pattern(R"((\d+)\s*(?:×|\\times)\s*(\d+)\s*(?:×|\\times)\s*(\d+))");
  auto flush = [&] {
    if (plans.empty()) return;
    for (const std::string& k : kernels) plans.back().yaml += "  - \"" + k + "\"\n";
    kernels.clear();
  };
  while (std::getline(in, line)) {
    std::smatch size;
    if (line.starts_with("#")) {
      if (!std::regex_search(line, size, size_pattern)) continue;
      flush();
      const std::string arch = line.find("Fermi") != std::string::npos ? "fermi" : "tesla";
      plans.push_back({line, "size: [" + size[1].str() + ", " + size[2].str() + ", " + size[3].str() + "]\narch: " +
                                 arch + "\nkernels:\n"});
      continue;
    }
    std::string text = std::regex_replace(line, std::regex(R"(\$|\\\{|\\\}|^\s*-\s*)"), "");
    text = std::regex_replace(text, std::regex(R"(\)\s*([XYZ])\()"), "), $1(");
    text = std::regex_replace(text, std::regex(R"(^\s+|\s+$)"), "");
    if (text.empty()) continue;
    if (line.starts_with("-")) {
      kernels.push_back(text);
    } else if (!kernels.empty()) {
      kernels.back() += ", " + text;
    }
  }
  flush();
  return plans;
}

std::string errors_of(const PrintedPlan& plan) {
  try {
    parse_plan(plan.yaml, plan.heading);
  } catch (const PlanError& e) {
    return e.what();
  }
  return "";
}

TEST(PaperPlans, FixtureIsVerbatimFromTheSeed) {
  const std::filesystem::path seed =
      std::filesystem::path(FFT3D_SOURCE_DIR) / "../shared/seeds/000_7687ad3c7906d2fb.txt";
  if (!std::filesystem::exists(seed)) GTEST_SKIP() << "seed not beside the checkout: " << seed;
  std::ifstream seed_in(seed);
  const std::string seed_text((std::istreambuf_iterator<char>(seed_in)), {});
  std::ifstream in(fixture);
  std::string line;
  int plan_lines = 0;
  while (std::getline(in, line)) {
    if (line.find('$') == std::string::npos || line.starts_with("#")) continue;
    EXPECT_NE(seed_text.find(line), std::string::npos) << "not in the seed: " << line;
    ++plan_lines;
  }
  EXPECT_GT(plan_lines, 50);
}

TEST(PaperPlans, AppendixPlansAreLegalAndMisprintsAreNamed) {
  const std::vector<PrintedPlan> plans = read_printed_plans();
  ASSERT_EQ(plans.size(), 14u);  // §4.1, §4.3.2, A.1.1-A.1.6, A.2.1-A.2.6
  int legal = 0;
  for (const PrintedPlan& plan : plans) {
    const std::string errors = errors_of(plan);
    SCOPED_TRACE(plan.heading + "\n" + plan.yaml);
    if (plan.heading.find("## 4.1") != std::string::npos) {
      EXPECT_NE(errors.find("Y(16, 16, 1, 16, no-tw): the Y chain is already complete"), std::string::npos) << errors;
      EXPECT_NE(errors.find("did you mean Z(16, 16, 1, 16, no-tw)?"), std::string::npos) << errors;
    } else if (plan.heading.find("4.3.2") != std::string::npos) {
      EXPECT_NE(errors.find("Z(16, 16, 16, 156, tw): span 156 does not divide the Z length 256"), std::string::npos)
          << errors;
    } else if (plan.heading.find("A.2.5") != std::string::npos) {
      EXPECT_NE(errors.find("Z(32, 32, 32, 512, tw): the first Z stage must have span 1024"), std::string::npos)
          << errors;
    } else {
      EXPECT_EQ(errors, "");
      ++legal;
    }
  }
  EXPECT_EQ(legal, 11);
}

TEST(PaperPlans, ShippedTablesAreTheCorrectedAppendix) {
  // Each shipped table plan equals its printed counterpart, but for the one corrected term.
  for (const PrintedPlan& printed : read_printed_plans()) {
    const std::smatch m = [&] {
      std::smatch match;
      std::regex_search(printed.heading, match, std::regex(R"(A\.(\d)\.\d)"));
      return match;
    }();
    if (m.empty()) continue;
    const std::string arch = m[1] == "1" ? "tesla" : "fermi";
    const Plan expected = parse_plan_syntax(printed.yaml).plan;
    const std::string path = std::string(FFT3D_SOURCE_DIR) + "/plans/" + arch + "/" + to_string(expected.size) + ".yaml";
    SCOPED_TRACE(path);
    const Plan shipped = load_plan_file(path).plan;
    int differing_terms = 0;
    ASSERT_EQ(shipped.kernels.size(), expected.kernels.size());
    for (std::size_t k = 0; k < shipped.kernels.size(); ++k) {
      ASSERT_EQ(shipped.kernels[k].subs.size(), expected.kernels[k].subs.size());
      for (std::size_t s = 0; s < shipped.kernels[k].subs.size(); ++s)
        differing_terms += shipped.kernels[k].subs[s] == expected.kernels[k].subs[s] ? 0 : 1;
    }
    EXPECT_EQ(differing_terms, printed.heading.find("A.2.5") != std::string::npos ? 1 : 0);
  }
}

}  // namespace
}  // namespace fft3d
