// Plan files (YAML) and the paper's notation, to PlanIR with the source location of every term.
//
//   size: [256, 256, 256]                     # NX NY NZ, X contiguous
//   arch: tesla
//   axes: [X, Y]                              # optional: the transformed axes (default all three)
//   precision: fp64                           # optional: fp32 (default) or fp64
//   batch: 8                                  # optional: volumes per run (default 1)
//   kernels:                                  # one entry per kernel
//     - "Y(16, 16, 16, 256, tw)"
//     - "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)"
//     - {subs: "X(32, 8, 8, 64, tw), Z(16, 16, 16, 256, tw)"}   # map form, room for per-kernel settings
//   # or, instead of kernels:, the brace form:  plan: "{Y(...)} {X(...), Y(...)} ..."
//   source: "Wu & JaJa, Appendix A.1.1"        # optional, free text
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d {

// Where each part of a plan was written, parallel to Plan::kernels[k].subs[s].
struct PlanLocations {
  SourceLocation size;
  SourceLocation arch;
  SourceLocation axes;  // the axes list; the kernels' location when the file has none
  SourceLocation precision;  // the precision's value; the file's start when it has none
  SourceLocation batch;      // the batch's value; the file's start when it has none
  SourceLocation kernels;
  std::vector<SourceLocation> kernel;            // one per kernel
  std::vector<std::vector<SourceLocation>> sub;  // one per sub-computation
  std::vector<SourceLocation> real;              // one per kernel: its real step's term (the kernel's own without one)
};

struct ParsedPlan {
  Plan plan;
  PlanLocations locations;
  std::string source_note;  // the file's `source:` text, if any
};

// Parses one kernel's text ("X(64, 4, 64, 256, tw), Y(...)") starting at `where`; errors are appended.
// The returned locations are parallel to the returned kernel's subs.
struct ParsedKernel {
  Kernel kernel;
  SourceLocation where;                   // the kernel's own text
  std::vector<SourceLocation> locations;  // one per sub-computation
  SourceLocation real_where;              // the real step's term, when the kernel has one
};
ParsedKernel parse_kernel_text(std::string_view text, const SourceLocation& where,
                               std::vector<Diagnostic>& errors);
// Parses the brace form "{...} {...}" into kernels.
std::vector<ParsedKernel> parse_brace_text(std::string_view text, const SourceLocation& where,
                                           std::vector<Diagnostic>& errors);

// Syntax only: throws PlanError listing every syntax error of the text. `file` names the text in messages.
ParsedPlan parse_plan_syntax(std::string_view yaml_text, const std::string& file = "<string>");

// Syntax and every check of checks.hpp; throws PlanError with all errors found.
ParsedPlan parse_plan(std::string_view yaml_text, const std::string& file = "<string>");
ParsedPlan load_plan_file(const std::string& path);

}  // namespace fft3d
