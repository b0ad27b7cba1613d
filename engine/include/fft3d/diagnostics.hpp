// Located errors: "plans/x.yaml:6:7: error: Z(16, 16, 16, 156, tw): span 156 does not divide the Z length 256".
#pragma once

#include <string>
#include <vector>

#include "fft3d/errors.hpp"

namespace fft3d {

struct SourceLocation {
  std::string file;  // "<string>" when the text did not come from a file
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown

  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

struct Diagnostic {
  SourceLocation where;
  std::string message;  // what is wrong and what was expected; starts with the offending term where there is one
};

// "file:line:col: error: message".
std::string to_string(const Diagnostic& diagnostic);
std::string to_string(const std::vector<Diagnostic>& diagnostics);  // one per line

// Thrown by the library for a plan that does not parse or does not pass its checks; holds every error found.
class PlanError : public Error {
 public:
  explicit PlanError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};


}  // namespace fft3d
