// Test helper: the located errors a plan text raises, as the tests compare them.
#pragma once

#include <string>
#include <vector>

#include "fft3d/checks.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d::testing {

// Every error of a plan text, "line:col: message" (the file name left out); none where it parses and checks.
inline std::vector<std::string> errors_of(const std::string& text) {
  try {
    parse_plan(text, "t.yaml");
  } catch (const PlanError& e) {
    std::vector<std::string> out;
    for (const Diagnostic& d : e.diagnostics())
      out.push_back(std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + ": " + d.message);
    return out;
  }
  return {};
}

}  // namespace fft3d::testing
