#include "fft3d/wisdom.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include "cache_files.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/plan_table.hpp"

namespace fft3d {
namespace {

// A plan filed under `kind` (its file name says so) must be of that kind: its real step is the plan's own word.
void require_kind(const ParsedPlan& parsed, const std::string& path, const std::string& what, TransformKind kind) {
  const TransformKind holds = kind_of(parsed.plan);
  if (holds != kind)
    throw UsageError(path + ": " + what + " files this plan as " + to_string(kind) + ", but it is a " +
                     to_string(holds) + " plan" + (holds == TransformKind::c2c ? "" : " (its " +
                     to_string(*real_step_of(parsed.plan)) + " term)") + "; fix the file or remove it");
}

// A plan filed under `kind`, `size` and `arch` (its name and folder say so) must be that plan: `what` names where it
// is filed ("the wisdom"), `remedy` what the user can do about a misfiled one.
void require_filed_as(const ParsedPlan& parsed, const std::string& path, const std::string& what, TransformKind kind,
                      const Extents& size, const std::string& arch, const std::string& remedy) {
  require_kind(parsed, path, what, kind);
  if (parsed.plan.size != size || parsed.plan.arch != arch)
    throw UsageError(path + ": " + what + " for " + to_string(size) + " on " + arch + " holds a plan for " +
                     to_string(parsed.plan.size) + " on " + parsed.plan.arch + "; " + remedy);
}

}  // namespace

std::string wisdom_path(const std::string& arch, const Extents& size, bool in_place, TransformKind kind,
                        Precision precision) {
  require_arch_profile(arch);
  check_size_limits(size);
  return (cache_directory_path() / "wisdom" / arch / table_file_name(size, in_place, kind, precision)).string();
}

std::optional<std::string> find_wisdom_plan(const std::string& arch, const Extents& size, bool in_place,
                                            TransformKind kind, Precision precision) {
  const std::string path = wisdom_path(arch, size, in_place, kind, precision);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  return path;
}

std::optional<ParsedPlan> load_wisdom_plan(const std::string& arch, const Extents& size, bool in_place,
                                           TransformKind kind, Precision precision) {
  const std::optional<std::string> path = find_wisdom_plan(arch, size, in_place, kind, precision);
  if (!path) return std::nullopt;
  ParsedPlan parsed = load_plan_file(*path);
  require_filed_as(parsed, *path, "the wisdom", kind, size, arch,
                   "remove the file or measure again (fft3d plan --measure N --remember)");
  return parsed;
}

std::string remember_plan(const std::string& arch, const Extents& size, bool in_place, const std::string& plan_text,
                          TransformKind kind, Precision precision) {
  const std::string path = wisdom_path(arch, size, in_place, kind, precision);
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  if (error) throw UsageError("cannot create the wisdom directory for " + path + ": " + error.message());
  write_file_atomically(path, plan_text);
  return path;
}

namespace {

Plan in_precision(Plan plan, Precision precision) {
  plan.precision = precision;
  return plan;
}

}  // namespace

PlanPasses passes_in_batch(PlanPasses passes, std::int64_t batch) {
  return [passes = std::move(passes), batch](const Plan& plan) {
    Plan batched = plan;
    batched.batch = batch;
    return passes(batched);
  };
}

PlanPasses passes_in_precision(PlanPasses passes, Precision precision) {
  if (precision == Precision::fp32) return passes;
  return [passes = std::move(passes), precision](const Plan& plan) { return passes(in_precision(plan, precision)); };
}

namespace {

// "the default planner for hopper (fp64, weighed for a batch of 8)": how the planner's plan was chosen.
std::string planner_source(const std::string& arch, Precision precision, std::int64_t batch) {
  std::vector<std::string> notes;
  if (precision == Precision::fp64) notes.push_back("fp64");
  if (batch > 1) notes.push_back("weighed for a batch of " + std::to_string(batch));
  std::string source = "the default planner for " + arch;
  for (std::size_t i = 0; i < notes.size(); ++i) source += (i == 0 ? " (" : ", ") + notes[i];
  return notes.empty() ? source : source + ")";
}

// The table's plan (tuned for one fp32 volume) or the default planner's, whichever the planner's costs, counting the
// batch and the precision, rank first: a batch fills the GPU where one volume would not, and fp64 tiles of the
// table's plans spread over twice the blocks, which their fp32 tuning never weighed.
SizedPlan table_or_planner(SizedPlan table, const Extents& size, const std::string& arch, bool in_place,
                           const PlanPasses& weigh, TransformKind kind, Precision precision, std::int64_t batch) {
  const PlanPasses batched = passes_in_batch(weigh, batch);
  SizedPlan planned;
  planned.parsed.plan = in_precision(default_plan_of_kind(size, arch, kind, batched, in_place), precision);
  planned.source = planner_source(arch, precision, batch);
  planned.from_planner = true;
  const std::optional<double> table_cost = batched(table.parsed.plan);
  const std::optional<double> planned_cost = batched(planned.parsed.plan);
  return table_cost && (!planned_cost || *table_cost <= *planned_cost) ? std::move(table) : std::move(planned);
}

// The GPU table's plan for one volume in `precision` on `gpu` (a device name; empty: none), if it has one.
std::optional<SizedPlan> gpu_table_plan(const Extents& size, const std::string& arch, bool in_place,
                                        TransformKind kind, Precision precision, std::int64_t batch,
                                        const std::string& gpu) {
  // Measured planning times one volume: a batch is ranked as the arch's table is (below).
  if (gpu.empty() || batch != 1) return std::nullopt;
  const std::optional<std::string> path = find_gpu_table_plan(arch, gpu, size, in_place, kind, precision);
  if (!path) return std::nullopt;
  ParsedPlan parsed = load_plan_file(*path);
  require_filed_as(parsed, *path, "the table of " + gpu, kind, size, arch,
                   "remove the file or measure again (fft3d table --measure N --sizes " + to_string(size) + ")");
  if (parsed.plan.precision != precision)
    throw UsageError(*path + ": the " + arch + " table for " + gpu + " files it as " + to_string(precision) +
                     ", but it holds an " + to_string(parsed.plan.precision) + " plan");
  return SizedPlan{std::move(parsed), *path + " (the " + arch + " table for " + gpu + ")"};
}

// plan_for_size for a size squeezed_extents leaves as it is: its wisdom, else its GPU table's plan, else its table
// plan, else the planner's.
SizedPlan plan_for_squeezed_size(const Extents& size, const std::string& arch, bool in_place,
                                 const PlanPasses& passes, TransformKind kind, Precision precision,
                                 std::int64_t batch, const std::string& gpu) {
  if (std::optional<ParsedPlan> wisdom = load_wisdom_plan(arch, size, in_place, kind, precision)) {
    wisdom->plan.precision = precision;
    return {std::move(*wisdom), wisdom_path(arch, size, in_place, kind, precision) +
                                    " (wisdom: measured on this machine" + (in_place ? ", in place)" : ")")};
  }
  if (std::optional<SizedPlan> measured = gpu_table_plan(size, arch, in_place, kind, precision, batch, gpu))
    return std::move(*measured);
  const PlanPasses weigh = passes_in_precision(passes ? passes : PlanPasses(passes_on_its_profile), precision);
  if (const std::optional<std::string> path = find_table_plan(arch, size, in_place, kind)) {
    ParsedPlan parsed = load_plan_file(*path);
    require_kind(parsed, *path, "the " + arch + " table", kind);
    // The tables hold fp32 plans: in another precision the table plan serves where it lowers in that precision.
    if (precision == parsed.plan.precision || weigh(parsed.plan)) {
      parsed.plan.precision = precision;
      SizedPlan table{std::move(parsed), *path + " (the " + arch + " table" +
                                             (precision == Precision::fp64 ? ", in fp64)" : ")")};
      if (batch == 1 && precision == Precision::fp32) return table;
      return table_or_planner(std::move(table), size, arch, in_place, weigh, kind, precision, batch);
    }
  }
  // `weigh` is `passes` in fp32 (passes_on_its_profile where none is given, as for default_plan), so that a batch
  // always has a ranking to multiply.
  SizedPlan chosen;
  chosen.parsed.plan = in_precision(
      default_plan_of_kind(size, arch, kind, batch == 1 ? weigh : passes_in_batch(weigh, batch), in_place), precision);
  chosen.source = planner_source(arch, precision, batch);
  chosen.from_planner = true;
  return chosen;
}

}  // namespace

SizedPlan plan_for_size(const Extents& size, const std::string& arch, bool in_place, const PlanPasses& passes,
                        TransformKind kind, Precision precision, std::int64_t batch, const std::string& gpu) {
  require_arch_profile(arch);
  check_size_limits(size);
  const Extents squeezed = squeezed_extents(size, kind);
  SizedPlan chosen = plan_for_squeezed_size(squeezed, arch, in_place, passes, kind, precision, batch, gpu);
  if (squeezed != size)
    chosen.source += " (" + to_string(size) + " planned as " + to_string(squeezed) + ": the same memory)";
  return chosen;
}

SizedPlan plan_for_descriptor(const TransformDesc& desc, const std::string& arch, bool on_gpu,
                              const std::string& gpu) {
  require_supported(desc, on_gpu);
  const bool in_place = desc.placement == Placement::in_place;
  SizedPlan chosen = plan_for_size(desc.extents, arch, in_place,
                                   on_gpu ? passes_on_its_profile_in(in_place) : passes_on_any_backend_in(in_place),
                                   desc.kind, desc.precision, desc.batch, gpu);
  chosen.parsed.plan.batch = desc.batch;  // one volume's plan, run over the batch
  return chosen;
}

}  // namespace fft3d
