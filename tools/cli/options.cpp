#include "options.hpp"
#include "backends.hpp"

#include <iostream>
#include <sstream>
#include <vector>

#include "fft3d/lengths.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d::cli {

bool parse_options(const std::string& command, const std::string& synopsis, const Args& args,
                   po::options_description& options, const po::positional_options_description& positional,
                   po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: fft3d " << command << " " << synopsis << "\n\n" << options << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

std::optional<std::string> optional_string(const po::variables_map& vm, const char* key) {
  return vm.count(key) ? std::optional<std::string>(vm[key].as<std::string>()) : std::nullopt;
}

std::vector<Extents> parse_size_list(const std::string& text) {
  std::vector<Extents> sizes;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) sizes.push_back(parse_extents(item));
  if (sizes.empty()) throw UsageError("--sizes: expected NXxNYxNZ[,NXxNYxNZ...]");
  return sizes;
}

ParsedPlan plan_from(const std::optional<std::string>& file, const std::optional<std::string>& size,
                     const std::string& arch, std::string& how, bool in_place, TransformKind kind,
                     const PlanPasses& passes, std::optional<Precision> precision, std::int64_t batch,
                     const std::string& gpu) {
  if (file && size) throw UsageError("give a plan file or --size, not both");
  if (file) {
    how = *file;
    ParsedPlan parsed = load_plan_file(*file);
    if (precision) parsed.plan.precision = *precision;
    return parsed;
  }
  if (!size) throw UsageError("give a plan file or --size NXxNYxNZ");
  SizedPlan chosen = plan_for_size(parse_extents(*size), arch, in_place, passes, kind,
                                   precision.value_or(Precision::fp32), batch, gpu);
  how = std::move(chosen.source);
  return std::move(chosen.parsed);
}

void add_plan_source_options(po::options_description& options, po::positional_options_description& positional) {
  options.add_options()
      ("plan", po::value<std::string>(), "plan file")
      ("size", po::value<std::string>(), "instead of a file: the table or default plan for NXxNYxNZ")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile for --size")
      ("transform", po::value<std::string>()->default_value("c2c"),
       "c2c, r2c (real to complex; with run --inverse: c2r) or c2r (complex to real): the kind of plan --size takes; "
       "a plan file says its own kind")
      ("batch", po::value<std::int64_t>(), "volumes one run transforms, packed one after another (the plan's batch; "
       "default: the plan file's, else 1)");
  positional.add("plan", 1);
}

TransformKind requested_kind(const po::variables_map& vm, bool inverse) {
  const TransformKind kind = parse_kind(vm["transform"].as<std::string>());
  return kind == TransformKind::r2c && inverse ? TransformKind::c2r : kind;
}

namespace {

// Whether some GPU's table of `arch` files the plan a run of this size, placement, kind and precision would take
// (find_gpu_table_plan under each GPU folder, a folder being its device name's gpu_table_folder): only then is this
// device's name worth asking for, since asking creates a CUDA context (about 0.1 s).
bool some_gpu_table_holds(const std::string& arch, const Extents& size, bool in_place, TransformKind kind,
                          Precision precision) {
  std::string asked;  // files come sorted by path, so a GPU's files are consecutive
  for (const GpuTableFile& file : gpu_table_files(arch)) {
    if (file.gpu == asked) continue;
    asked = file.gpu;
    if (find_gpu_table_plan(arch, file.gpu, size, in_place, kind, precision)) return true;
  }
  return false;
}

}  // namespace

ParsedPlan plan_from_options(const po::variables_map& vm, std::string& how, bool in_place, TransformKind kind) {
  // The cpu backend runs every legal plan, so a size none of whose candidates lowers on the arch still gets one.
  const bool on_cpu = vm.count("backend") && vm["backend"].as<std::string>() == "cpu";
  // --precision (run, plan, explain, bench) sets the plan's: a file's is overridden, a size's plan lowers in it.
  const bool given = vm.count("precision") && !vm["precision"].defaulted();
  const std::optional<std::string> precision = given ? optional_string(vm, "precision") : std::nullopt;
  const std::int64_t batch = vm.count("batch") ? vm["batch"].as<std::int64_t>() : 1;
  if (batch < 1) throw UsageError("--batch " + std::to_string(batch) + ": a run takes 1 or more volumes");
  const std::string arch = vm["arch"].as<std::string>();
  // GPU tables serve one volume of a size (plan_for_size), squeezed as they file it.
  const bool gpu_table =
      !on_cpu && !vm.count("plan") && vm.count("size") && batch == 1 &&
      some_gpu_table_holds(arch, squeezed_extents(parse_extents(vm["size"].as<std::string>()), kind), in_place, kind,
                           precision ? parse_precision(*precision) : Precision::fp32);
  ParsedPlan parsed = plan_from(optional_string(vm, "plan"), optional_string(vm, "size"), arch, how, in_place, kind,
                                on_cpu ? passes_on_any_backend_in(in_place) : passes_on_its_profile_in(in_place),
                                precision ? std::optional(parse_precision(*precision)) : std::nullopt, batch,
                                gpu_table ? gpu_device_name() : std::string());
  if (vm.count("batch")) parsed.plan.batch = batch;
  const TransformKind holds = kind_of(parsed.plan);
  if (!vm["transform"].defaulted() && holds != kind)
    throw UsageError(how + " is a " + to_string(holds) + " plan" +
                     (holds == TransformKind::c2c ? "" : " (its " + to_string(*real_step_of(parsed.plan)) + " term)") +
                     ", not the " + to_string(kind) + " transform asked for; a plan file says its own kind");
  return parsed;
}

SlabExchange parse_exchange(const std::string& name) {
  if (name == "auto") return SlabExchange::automatic;
  if (name == "copy-engines") return SlabExchange::copy_engines;
  if (name == "peer-stores") return SlabExchange::peer_stores;
  if (name == "nccl") return SlabExchange::nccl;
  throw UsageError("--exchange must be auto, copy-engines, peer-stores or nccl");
}

SlabLayout parse_layout(const std::string& name) {
  if (name == "natural") return SlabLayout::natural;
  if (name == "y_slabs") return SlabLayout::y_slabs;
  throw UsageError("--layout must be natural or y_slabs");
}

}  // namespace fft3d::cli
