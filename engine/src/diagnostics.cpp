#include "fft3d/diagnostics.hpp"

namespace fft3d {

std::string to_string(const Diagnostic& diagnostic) {
  const SourceLocation& at = diagnostic.where;
  std::string text = at.file.empty() ? "<plan>" : at.file;
  if (at.line > 0) text += ':' + std::to_string(at.line) + ':' + std::to_string(at.column);
  return text + ": error: " + diagnostic.message;
}

std::string to_string(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) text += to_string(d) + '\n';
  return text;
}

PlanError::PlanError(std::vector<Diagnostic> diagnostics)
    : Error(to_string(diagnostics)), diagnostics_(std::move(diagnostics)) {}

}  // namespace fft3d
