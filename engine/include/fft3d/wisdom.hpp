// Wisdom: plans measured on this machine (`fft3d plan --measure N [--in-place] --remember`), one YAML plan file per
// profile, size and placement under the cache directory: <cache>/wisdom/<arch>/<NX>x<NY>x<NZ>[-in-place].yaml.
// `fft3d run --size` and `fft3d bench` take a remembered plan before the tuning table and the default planner.
#pragma once

#include <optional>
#include <string>

#include "fft3d/plan_ir.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

std::string wisdom_path(const std::string& arch, const Extents& size, bool in_place);
// The remembered plan's file for this profile, size and placement, if there is one.
std::optional<std::string> find_wisdom_plan(const std::string& arch, const Extents& size, bool in_place);
// The remembered plan, if there is one, checked against what it is filed under: PlanError (located) for a malformed
// file, UsageError naming the file for a plan of another size or profile.
std::optional<ParsedPlan> load_wisdom_plan(const std::string& arch, const Extents& size, bool in_place);
// Stores `plan_text` (a plan file's YAML) as the wisdom for this profile, size and placement, replacing any; returns
// its path.
std::string remember_plan(const std::string& arch, const Extents& size, bool in_place, const std::string& plan_text);

// The plan a size takes (`run --size`, `bench`, GpuTransform for a descriptor): the wisdom for the profile, size and placement
// if there is one, else the profile's table plan for the placement (find_table_plan), else the default planner's,
// ranked by `passes`. `source` says which: "<file> (wisdom: measured on this machine[, in place])", "<file> (the
// <arch> table)", "the default planner for <arch>".
struct SizedPlan {
  ParsedPlan parsed;
  std::string source;
};
SizedPlan plan_for_size(const Extents& size, const std::string& arch, bool in_place, const PlanPasses& passes);

// The plan a transform built from `desc` runs on profile `arch`: require_supported(desc, on_gpu), then
// plan_for_size for its extents and placement, ranked by passes_on_its_profile.
SizedPlan plan_for_descriptor(const TransformDesc& desc, const std::string& arch, bool on_gpu);

}  // namespace fft3d
