// Tuning tables: plans/<arch>/<NX>x<NY>x<NZ>.yaml, one plan per size and architecture, for both placements; beside
// it an optional <NX>x<NY>x<NZ>-in-place.yaml that in-place runs take instead, where the fastest plan differs by
// placement (a two-pass split whose sorted stores cost more in place than a third pass; docs/performance.md, ledger
// "buffer placement").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// Where tables are looked up, first match wins: $FFT3D_PLANS_DIR; share/fft3d/plans beside the running executable
// (a build tree, which links the source tree's plans/ there) or beside its bin/ folder (a relocated install); the
// installed share/fft3d/plans. No source-tree path is compiled into the library.
std::vector<std::string> plan_table_dirs();

struct TableEntry {
  std::string arch;
  Extents size;
  std::string path;
  bool in_place_only = false;  // an <size>-in-place.yaml file
};

// Every plan file of an arch's table (all arches when arch is empty), sorted by arch, element count, then the plan
// for both placements before the in-place one. Throws UsageError for an arch that names no profile (it would name a
// folder).
std::vector<TableEntry> table_entries(const std::string& arch = "");
// The table's plan file for this arch, size and placement, if there is one: in place, the in-place file where there
// is one, else the plan for both placements.
std::optional<std::string> find_table_plan(const std::string& arch, const Extents& size, bool in_place = false);

}  // namespace fft3d
