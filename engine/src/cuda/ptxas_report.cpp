// Reading ptxas's verbose report out of the NVRTC log, by linear scans (a regex recurses per character and
// overflows the stack on a long run of digits).
#include <optional>
#include <string_view>

#include "cuda/cuda_compiler.hpp"

namespace fft3d {
namespace {

constexpr std::size_t max_number_digits = 18;  // any count ptxas reports; longer runs are not a number of ours

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The digits text[begin, end) as a number, if there are 1 to max_number_digits of them.
std::optional<std::int64_t> number(std::string_view text, std::size_t begin, std::size_t end) {
  if (begin == end || end - begin > max_number_digits) return std::nullopt;
  std::int64_t value = 0;
  for (std::size_t i = begin; i < end; ++i) value = value * 10 + (text[i] - '0');
  return value;
}

// The number right before the first `suffix` that follows 1 to max_number_digits digits ("123 bytes smem" for
// " bytes smem").
std::int64_t number_before(std::string_view log, std::string_view suffix, std::int64_t fallback) {
  for (std::size_t at = log.find(suffix); at != std::string_view::npos; at = log.find(suffix, at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && is_digit(log[begin - 1])) --begin;
    if (const std::optional<std::int64_t> value = number(log, begin, at)) return *value;
  }
  return fallback;
}

// The number between the first `prefix` and `suffix` with 1 to max_number_digits digits between them ("Used 40
// registers").
std::int64_t number_between(std::string_view log, std::string_view prefix, std::string_view suffix,
                            std::int64_t fallback) {
  for (std::size_t at = log.find(prefix); at != std::string_view::npos; at = log.find(prefix, at + 1)) {
    const std::size_t begin = at + prefix.size();
    std::size_t end = begin;
    while (end < log.size() && is_digit(log[end])) ++end;
    if (log.substr(end, suffix.size()) != suffix) continue;
    if (const std::optional<std::int64_t> value = number(log, begin, end)) return *value;
  }
  return fallback;
}

}  // namespace

CompileReport parse_ptxas_log(const std::string& log) {
  CompileReport report;
  report.log = log;
  report.registers = static_cast<int>(number_between(log, "Used ", " registers", -1));
  report.stack_frame_bytes = number_before(log, " bytes stack frame", 0);
  report.spill_store_bytes = number_before(log, " bytes spill stores", 0);
  report.spill_load_bytes = number_before(log, " bytes spill loads", 0);
  report.static_shared_bytes = number_before(log, " bytes smem", 0);
  return report;
}

}  // namespace fft3d
