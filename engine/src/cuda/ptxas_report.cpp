// Reading ptxas's verbose report out of the NVRTC log.
#include <regex>

#include "cuda/cuda_compiler.hpp"

namespace fft3d {
namespace {

std::int64_t first_number(const std::string& log, const std::regex& pattern, std::int64_t fallback) {
  std::smatch match;
  if (std::regex_search(log, match, pattern)) return std::stoll(match[1].str());
  return fallback;
}

}  // namespace

CompileReport parse_ptxas_log(const std::string& log) {
  CompileReport report;
  report.log = log;
  report.registers = static_cast<int>(first_number(log, std::regex(R"(Used (\d+) registers)"), -1));
  report.stack_frame_bytes = first_number(log, std::regex(R"((\d+) bytes stack frame)"), 0);
  report.spill_store_bytes = first_number(log, std::regex(R"((\d+) bytes spill stores)"), 0);
  report.spill_load_bytes = first_number(log, std::regex(R"((\d+) bytes spill loads)"), 0);
  report.static_shared_bytes = first_number(log, std::regex(R"((\d+) bytes smem)"), 0);
  return report;
}

}  // namespace fft3d
