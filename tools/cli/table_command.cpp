// `fft3d table`: the tuning tables (plan_table.hpp). Lists them, finds the plan a size takes, or with --measure N
// --sizes LIST writes the table of the GPU it runs on: each size's fastest of the planner's N best candidates and of
// the plan it takes now, timed on that GPU (measured planning), filed where plan_for_size offers it to that GPU model
// before the arch's table.
#include <filesystem>
#include <iostream>

#include "backends.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "measured_plan.hpp"
#include "options.hpp"

namespace fft3d::cli {
namespace {

// The sizes of a --sizes list, each squeezed as a run of it is planned.
std::vector<Extents> squeezed_sizes(const std::string& list, TransformKind kind) {
  std::vector<Extents> sizes = parse_size_list(list);
  for (Extents& size : sizes) size = squeezed_extents(size, kind);
  return sizes;
}

// A GPU's table takes a candidate over the first (the plan runs took before, or the planner's first choice) only
// where it wins two rounds by 3% or more.
constexpr MeasureRounds table_rounds{2, 0.03};

// A real plan measured out of place also serves runs in place, unless the arch's table holds an in-place file of its
// size and kind (find_gpu_table_plan): there it must reach natural order without the digit-reversal pass, which
// real transforms do not run.
bool serves_its_placements(const Plan& plan) {
  return kind_of(plan) == TransformKind::c2c || arch_table_has_in_place_file(plan.arch, plan.size, kind_of(plan)) ||
         lowers_in_natural_order(plan, /*in_place=*/true);
}

// Measures every size of --sizes on this GPU and files the fastest plan of each in the GPU's table folder under
// --out (created as needed); prints each file's path. A size whose table or wisdom plan no candidate beats gets no
// file (said on stderr): the table's plan keeps serving it.
int write_gpu_table(const po::variables_map& vm, const std::string& arch) {
  if (!vm.count("sizes")) throw UsageError("--measure needs --sizes: the sizes the GPU's table is to hold");
  const int count = vm["measure"].as<int>();
  if (count < 1 || count > 16) throw UsageError("--measure must be between 1 and 16 candidates");
  const bool in_place = vm["in-place"].as<bool>();
  const Precision precision = parse_precision(vm["precision"].as<std::string>());
  const TransformKind kind = parse_kind(vm["transform"].as<std::string>());
  require_measurable(kind, in_place);
  const std::vector<Extents> sizes = squeezed_sizes(vm["sizes"].as<std::string>(), kind);
  require_arch_profile(arch);
  const std::string gpu = gpu_device_name();
  if (gpu.empty())
    throw GpuUnavailable("--measure: no CUDA device (or no CUDA backend in this build): a GPU's table is measured "
                         "on it");
  const std::filesystem::path folder =
      std::filesystem::path(vm["out"].as<std::string>()) / arch / "gpus" / gpu_table_folder(gpu);
  const std::string command = "fft3d table --measure " + std::to_string(count) + (in_place ? " --in-place" : "") +
                              (kind == TransformKind::c2c ? "" : " --transform " + to_string(kind)) +
                              (precision == Precision::fp64 ? " --precision fp64" : "");
  for (const Extents& size : sizes) {
    std::cerr << "measuring " << to_string(size) << " on " << gpu << "\n";
    const MeasuredChoice choice = measured_plan(size, arch, count, in_place, kind, precision, command, table_rounds);
    if (choice.kept_incumbent) {
      std::cerr << "keeping " << choice.incumbent_source << ": no candidate beat it by "
                << 100 * table_rounds.margin << "%\n";
      continue;
    }
    if (!serves_its_placements(choice.plan)) {
      std::cerr << "not filing the fastest " << to_string(size) << " plan: in place it needs the digit-reversal "
                << "pass, and the " << arch << " table has no in-place plan of the size to serve in place instead\n";
      continue;
    }
    const std::filesystem::path path = folder / table_file_name(size, in_place, kind, precision);
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) throw UsageError("cannot create the GPU table folder " + folder.string() + ": " + error.message());
    write_file_atomically(path.string(), choice.header + to_yaml(choice.plan));
    std::cout << path.string() << "\n";
  }
  return exit_ok;
}

}  // namespace

int table_command(const Args& args) {
  po::options_description options("table options");
  options.add_options()
      ("arch", po::value<std::string>()->default_value(""),
       "only this profile's table (--measure: hopper if not given)")
      ("size", po::value<std::string>(), "print the path of the plan NXxNYxNZ takes from the tables (needs --arch; "
       "on a GPU with a table of its own, that table's first; a size with unit axes takes its squeezed size's plan: "
       "1x1024x1024 that of 1024x1024x1)")
      ("in-place", po::bool_switch()->default_value(false), "with --size: the plan in-place runs take; with --measure: "
       "time the candidates in place and file the in-place plans")
      ("transform", po::value<std::string>()->default_value("c2c"), "with --size: the plan of this kind (c2c, r2c, "
       "c2r); with --measure: the candidates' kind (r2c and c2r timed out of place, filed as <size>-r2c.yaml and "
       "<size>-c2r.yaml)")
      ("measure", po::value<int>(), "N (1 to 16): write this GPU's own table, each size of --sizes taking the fastest "
       "of the default planner's N best candidates timed here (one volume)")
      ("precision", po::value<std::string>()->default_value("fp32"), "with --measure: the candidates' precision, fp32 "
       "or fp64 (fp64 plans are filed as <size>-fp64.yaml; with --size: the plan of this precision)")
      ("sizes", po::value<std::string>(), "with --measure: comma-separated NXxNYxNZ list")
      ("out", po::value<std::string>()->default_value("plans"), "with --measure: the table directory to write into, "
       "as <out>/<arch>/gpus/<gpu>/<size>.yaml (plan_table_dirs names where runs look: FFT3D_PLANS_DIR, the build's "
       "or the installed plans)");
  po::variables_map vm;
  if (!parse_options("table", "[--arch A] [--size NXxNYxNZ [--in-place] [--transform K]]  |  table --measure N "
                     "--sizes LIST [--arch A] [--in-place] [--transform K] [--precision P] "
                     "[--out DIR]", args, options, {}, vm))
    return exit_ok;

  const std::string arch = vm["arch"].as<std::string>();
  if (vm.count("measure")) return write_gpu_table(vm, arch.empty() ? "hopper" : arch);
  if (vm.count("size")) {
    if (arch.empty()) throw UsageError("--size needs --arch");
    const Extents asked = parse_extents(vm["size"].as<std::string>());
    const TransformKind kind = parse_kind(vm["transform"].as<std::string>());
    const Extents size = squeezed_extents(asked, kind);  // the size whose table plan a run of `asked` takes
    const bool in_place = vm["in-place"].as<bool>();
    std::optional<std::string> path;
    const Precision precision = parse_precision(vm["precision"].as<std::string>());
    if (const std::string gpu = gpu_device_name(); !gpu.empty())
      path = find_gpu_table_plan(arch, gpu, size, in_place, kind, precision);
    if (!path) path = find_table_plan(arch, size, in_place, kind);
    if (path) {
      std::cout << *path << "\n";
      return exit_ok;
    }
    const std::string transform = kind == TransformKind::c2c ? "" : " --transform " + to_string(kind);
    std::cerr << "fft3d table: no " << arch << (kind == TransformKind::c2c ? "" : " " + to_string(kind))
              << " table plan for " << to_string(size)
              << (size == asked ? "" : " (" + to_string(asked) + " planned as " + to_string(size) + ")")
              << " (`fft3d plan --size " << to_string(size) << " --arch "
              << arch << transform << "` writes one)\n";
    return exit_failed;
  }
  for (const TableEntry& entry : table_entries(arch, std::nullopt))
    std::cout << entry.arch << "  " << to_string(entry.size) << "  " << entry.path
              << (entry.kind == TransformKind::c2c ? "" : "  (" + to_string(entry.kind) + ")")
              << (entry.in_place_only ? "  (in place)" : "") << "\n";
  for (const GpuTableFile& file : gpu_table_files(arch))
    std::cout << file.arch << "  " << std::filesystem::path(file.path).stem().string() << "  " << file.path
              << "  (the table for " << file.gpu << ")\n";
  return exit_ok;
}

}  // namespace fft3d::cli
