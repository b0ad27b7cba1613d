// Tuning tables: plans/<arch>/<NX>x<NY>x<NZ>.yaml, one plan per size and architecture.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// Where tables are looked up, first match wins: $FFT3D_PLANS_DIR, the source tree's plans/, the installed
// share/fft3d/plans.
std::vector<std::string> plan_table_dirs();

struct TableEntry {
  std::string arch;
  Extents size;
  std::string path;
};

// Every plan file of an arch's table (all arches when arch is empty), sorted by arch then element count.
std::vector<TableEntry> table_entries(const std::string& arch = "");
// The table's plan file for this arch and size, if there is one.
std::optional<std::string> find_table_plan(const std::string& arch, const Extents& size);

}  // namespace fft3d
