// Wisdom: plans measured on this machine (`fft3d plan --measure N [--in-place] --remember`), one YAML plan file per
// profile, size, kind and placement under the cache directory: <cache>/wisdom/<arch>/<NX>x<NY>x<NZ>[-r2c|-c2r]
// [-in-place].yaml (the tables' names: a c2c plan's file has no kind in its name).
// `fft3d run --size` and `fft3d bench` take a remembered plan before the tuning table and the default planner; a
// size with unit axes takes (and `fft3d plan --remember` files) the wisdom of its squeezed size (squeezed_extents).
#pragma once

#include <optional>
#include <string>

#include "fft3d/plan_ir.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

// fp64 wisdom lives apart from fp32 (the file name ends -fp64): its plans lowered with doubles' tiles.
std::string wisdom_path(const std::string& arch, const Extents& size, bool in_place,
                        TransformKind kind = TransformKind::c2c, Precision precision = Precision::fp32);
// The remembered plan's file for this profile, size, placement, kind and precision, if there is one.
std::optional<std::string> find_wisdom_plan(const std::string& arch, const Extents& size, bool in_place,
                                            TransformKind kind = TransformKind::c2c,
                                            Precision precision = Precision::fp32);
// The remembered plan, if there is one, checked against what it is filed under: PlanError (located) for a malformed
// file, UsageError naming the file for a plan of another size, profile or kind.
std::optional<ParsedPlan> load_wisdom_plan(const std::string& arch, const Extents& size, bool in_place,
                                           TransformKind kind = TransformKind::c2c,
                                           Precision precision = Precision::fp32);
// Stores `plan_text` (a plan file's YAML) as the wisdom for this profile, size, placement and kind, replacing any;
// returns its path.
std::string remember_plan(const std::string& arch, const Extents& size, bool in_place, const std::string& plan_text,
                          TransformKind kind = TransformKind::c2c, Precision precision = Precision::fp32);

// The plan a size takes (`run --size`, `bench`, GpuTransform for a descriptor): the wisdom for the profile, size,
// placement and kind if there is one, else the profile's table plan for them (find_table_plan), else the default
// planner's (default_plan_of_kind), ranked by `passes`. `source` says which: "<file> (wisdom: measured on this
// machine[, in place])", "<file> (the <arch> table)", "the default planner for <arch>". `size` is the real volume of
// a real kind. Throws UsageError for a wisdom or table file whose plan is of another kind than its name says, and
// for a real kind with an odd NX.
// A size with unit axes is planned as its squeezed size (squeezed_extents, lengths.hpp: 1x1024x1024 as
// 1024x1024x1, the same transform of the same memory): its wisdom and table plan are the squeezed size's, the plan
// returned has the squeezed size, and `source` ends " (1x1024x1024 planned as 1024x1024x1: the same memory)".
// A plan file a user gives is not squeezed (it runs as written).
struct SizedPlan {
  ParsedPlan parsed;
  std::string source;
  bool from_planner = false;  // the default planner's plan: no wisdom or table file holds the size
};
// In fp64 (`precision`): the fp64 wisdom, else the table plan where it lowers in fp64 and the planner's fp64 costs
// rank it before the default planner's plan, else that plan (the planner weighs its candidates lowered in fp64, so
// it picks only plans whose tiles hold doubles); the plan returned carries the precision. For a batch over 1
// (`batch`), the plan is still one volume's (its batch field 1), but ranked as the batch runs: the table's plan
// where the planner's costs of the whole batch rank it first, else the default planner's (a small volume's
// one-kernel plan fills the GPU once the batch multiplies its grid).
// On a GPU (`gpu`: its device name, as current_device_name gives it; empty: none) with a table of its own
// (find_gpu_table_plan), a single volume takes that table's plan of its precision after the wisdom and before the
// arch's table; `source` then says "<file> (the <arch> table for <device name>)".
SizedPlan plan_for_size(const Extents& size, const std::string& arch, bool in_place, const PlanPasses& passes,
                        TransformKind kind = TransformKind::c2c, Precision precision = Precision::fp32,
                        std::int64_t batch = 1, const std::string& gpu = {});
// `passes` of the plan as it lowers in `precision` (the candidates' own precision ignored).
PlanPasses passes_in_precision(PlanPasses passes, Precision precision);
// `passes` of the plan run over `batch` volumes (a batch's grid fills the GPU where one volume's would not).
PlanPasses passes_in_batch(PlanPasses passes, std::int64_t batch);

// The plan a transform built from `desc` runs on profile `arch`: require_supported(desc, on_gpu), then
// plan_for_size for its extents, placement and kind, ranked by passes_on_its_profile on the GPU and by
// passes_on_any_backend on the CPU (which runs every legal plan, lowered on the arch or not), with `gpu`'s table.
// The plan is one volume's, with the descriptor's batch (Plan::batch).
SizedPlan plan_for_descriptor(const TransformDesc& desc, const std::string& arch, bool on_gpu,
                              const std::string& gpu = {});

}  // namespace fft3d
