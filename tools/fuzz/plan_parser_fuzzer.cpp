// libFuzzer target: any text fed to the plan parser and checker either parses or throws PlanError. Anything else
// (another exception, a crash, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fft3d/checks.hpp"
#include "fft3d/plan_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const fft3d::ParsedPlan parsed = fft3d::parse_plan(text, "fuzz.yaml");
    // A plan that passes must print and parse back to itself.
    if (fft3d::parse_plan(fft3d::to_yaml(parsed.plan)).plan != parsed.plan) __builtin_trap();
  } catch (const fft3d::PlanError&) {
  }
  return 0;
}
