// libFuzzer target: any text fed to the plan parser and checker either parses or throws PlanError, and the same
// text as a size string (`--size`) or an option number either parses or throws UsageError. Anything else (another
// exception, a crash, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fft3d/checks.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"

namespace {

// A size that parses is either refused by the limits or has a host-memory estimate.
void fuzz_size_text(const std::string& text) {
  try {
    const fft3d::Extents size = fft3d::parse_extents(text);
    fft3d::check_size_limits(size);
    if (!(fft3d::run_host_bytes(size) > 0)) __builtin_trap();
  } catch (const fft3d::UsageError&) {
  }
  try {
    fft3d::parse_unsigned(text, "--seed");
  } catch (const fft3d::UsageError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const fft3d::ParsedPlan parsed = fft3d::parse_plan(text, "fuzz.yaml");
    // A plan that passes must print and parse back to itself.
    if (fft3d::parse_plan(fft3d::to_yaml(parsed.plan)).plan != parsed.plan) __builtin_trap();
  } catch (const fft3d::PlanError&) {
  }
  fuzz_size_text(std::string(text));
  return 0;
}
