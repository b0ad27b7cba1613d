#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "fft3d/arch_profile.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/plan_cost.hpp"
#include "fft3d/transform.hpp"
#include "explain_gpus.hpp"
#include "options.hpp"
#include "emit/cuda_source.hpp"
#include "lowering/cost_model.hpp"
#include "lowering/kernel_spec.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::cli {
namespace {

// A plan `validate` accepts can still hold a tile its profile cannot: the error says so.
LoweredPlan lowered_or_why(const Plan& plan, const std::string& plan_name) {
  try {
    return lower_plan(plan, *find_arch_profile(plan.arch), plan_name);
  } catch (const LoweringError& e) {
    throw LoweringError("the plan is legal (fft3d validate accepts it) but does not fit the " + plan.arch +
                        " profile: " + e.what());
  }
}

// The model the planner ranks by, in place and (where it differs) out of place, with its terms:
//   model    4.10 pass-equivalents in place, 3.11 out of place (what the default planner ranks candidates by)
//            kernel 0: 1 + 0.60, kernel 1: 1 + 0.50, digit-reversal pass: 1 in place, 0.01 out of place
void explain_model(const Plan& plan, const LoweredPlan& lowered) {
  const ArchProfile& profile = *find_arch_profile(plan.arch);
  const lowering::ModelTerms in_place = lowering::model_terms(plan, lowered, profile, true);
  const lowering::ModelTerms out_of_place = lowering::model_terms(plan, lowered, profile, false);
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << "model    " << in_place.total() << " pass-equivalents";
  if (out_of_place.total() != in_place.total()) text << " in place, " << out_of_place.total() << " out of place";
  text << " (what the default planner ranks candidates by)\n        ";
  for (std::size_t k = 0; k < in_place.beyond_one_pass.size(); ++k)
    text << (k == 0 ? " " : ", ") << "kernel " << k << ": 1 + " << in_place.beyond_one_pass[k];
  if (in_place.reorder > 0) {
    text << ", digit-reversal pass: " << in_place.reorder;
    if (out_of_place.reorder != in_place.reorder) text << " in place, " << out_of_place.reorder << " out of place";
  }
  if (in_place.real_pass > 0) text << ", real pass: " << in_place.real_pass;
  if (in_place.late_sort > 0)
    text << ", a later kernel's sorted stores: " << in_place.late_sort << " in place, " << out_of_place.late_sort
         << " out of place";
  std::cout << text.str() << "\n";
}

// The KernelSpecs of the CUDA lowering (tiles, launch shape, shared-memory layout, bank conflicts, coalescing),
// and with a directory each kernel's generated CUDA source as a self-contained .cu file.
void explain_lowering(const Plan& plan, const std::string& plan_name, const std::string& dump_dir) {
  const LoweredPlan lowered = lowered_or_why(plan, plan_name);
  explain_model(plan, lowered);
  std::cout << "\nlowering for the " << plan.arch << " profile\n\n" << tile::explain(lowered);
  if (dump_dir.empty()) return;
  std::filesystem::create_directories(dump_dir);
  for (const KernelSpec& spec : lowered.launched_specs()) {
    const std::string path = dump_dir + "/kernel" + std::to_string(spec.kernel_index) + "_" +
                             spec.entry_name() + ".cu";
    write_file_atomically(path, emit_cuda_source(spec));
    std::cout << "wrote " << path << "\n";
  }
}

// "real step: R2C along X, 256 reals -> 129 frequencies per row".
std::string real_step_line(const RealStep& step) {
  const std::string reals = std::to_string(step.length) + " reals";
  const std::string frequencies = std::to_string(step.length / 2 + 1) + " frequencies";
  return std::string("real step: ") + (step.kind == TransformKind::r2c ? "R2C" : "C2R") + " along " +
         axis_letter(step.axis) + ", " +
         (step.kind == TransformKind::r2c ? reals + " -> " + frequencies : frequencies + " -> " + reals) +
         " per row";
}

// A real plan's data: the real volume and the half spectrum, and the floor of any real transform of them: one read
// of the input and one write of the output.
void explain_real_bytes(const Plan& plan, const PlanCost& cost, Precision precision, double bandwidth) {
  const int real_bytes = precision == Precision::fp32 ? 4 : 8;
  const double floor_bytes = static_cast<double>(cost.real_bytes + cost.spectrum_bytes);
  std::cout << std::setprecision(1) << "reals    " << cost.real_bytes / 1e6 << " MB real volume (" << plan.size.nx
            << "*" << plan.size.ny << "*" << plan.size.nz << " reals, " << real_bytes << " bytes each)\n"
            << "spectrum " << cost.spectrum_bytes / 1e6 << " MB half spectrum (" << plan.size.nx / 2 + 1 << "*"
            << plan.size.ny << "*" << plan.size.nz << " complex values, " << 2 * real_bytes << " bytes each)\n"
            << std::setprecision(3) << "least    " << floor_bytes / (bandwidth * 1e6) << " ms for one read of the "
            << (kind_of(plan) == TransformKind::r2c ? "reals and one write of the spectrum" : "spectrum and one write "
                "of the reals") << " (" << std::setprecision(1) << floor_bytes / 1e6 << " MB) at " << bandwidth
            << " GB/s: the least any " << to_string(kind_of(plan)) << " of this size moves\n";
}

}  // namespace

int explain_command(const Args& args) {
  po::options_description options("explain options");
  po::positional_options_description positional;
  add_plan_source_options(options, positional);
  options.add_options()
      ("bandwidth", po::value<double>()->default_value(3000.0), "memory bandwidth in GB/s for the floor time "
                                                                 "(default: an H100's measured memcpy)")
      ("precision", po::value<std::string>(), "fp32 (8-byte complex) or fp64 (16-byte): the plan's, lowered in it "
                                              "(default: the plan file's, else fp32)")
      ("dump-cuda", po::value<std::string>()->default_value(""), "write each generated kernel to DIR as a .cu file");
  add_multi_gpu_explain_options(options);
  po::variables_map vm;
  if (!parse_options("explain", "PLAN [--bandwidth GB/s] [--dump-cuda DIR]  |  explain --gpus G --size NXxNYxNZ",
                     args, options, positional, vm))
    return exit_ok;
  if (vm.count("gpus")) return explain_on_several_gpus(vm);
  for (const char* key : {"layout", "exchange", "link-bandwidth"})
    if (vm.count(key) && !vm[key].defaulted()) throw UsageError(std::string("--") + key + ": with --gpus only");

  std::string how;
  const ParsedPlan parsed = plan_from_options(vm, how, false, requested_kind(vm));
  const Precision precision = parsed.plan.precision;
  const double bandwidth = vm["bandwidth"].as<double>();
  if (!(bandwidth > 0) || !std::isfinite(bandwidth)) throw UsageError("--bandwidth must be positive and finite");
  const Plan& plan = parsed.plan;
  const PlanCost cost = plan_cost(plan, precision == Precision::fp32 ? 8 : 16);

  std::cout << "plan     " << how << "\n";
  if (!parsed.source_note.empty()) std::cout << "source   " << parsed.source_note << "\n";
  std::cout << "size     " << to_string(plan.size) << " (" << plan.size.elements() << " points, " << to_string(precision)
            << ")\n";
  if (plan.batch > 1)
    std::cout << "batch    " << plan.batch << " volumes, packed; each kernel one launch of (blocks, volumes), the "
              << "workspace one volume's\n";
  std::cout << "arch     " << plan.arch << "\nhash     " << hash_text(stable_hash(plan)) << "\n";
  if (kind_of(plan) != TransformKind::c2c) {
    const std::string reals = to_string(plan.size) + " reals";
    const std::string spectrum = to_string(spectrum_extents(plan)) + " half spectrum";
    std::cout << "kind     " << to_string(kind_of(plan)) << ": "
              << (kind_of(plan) == TransformKind::r2c ? reals + " -> " + spectrum : spectrum + " -> " + reals)
              << "; stages over " << to_string(stage_extents(plan)) << " complex values"
              << (odd_real_rows(plan) ? " (NX odd: X rows as complex values (x, 0), every X stage in the step's kernel)\n"
                                      : " (X packed: x[2n] + i x[2n+1])\n");
  }
  std::cout << "\n";
  std::cout << std::fixed << std::setprecision(1);
  for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
    const KernelCost& kc = cost.kernels[k];
    std::cout << "kernel " << k << "  {" << to_string(plan.kernels[k]) << "}\n";
    if (plan.kernels[k].real) std::cout << "          " << real_step_line(*plan.kernels[k].real) << "\n";
    std::cout << "          reads " << kc.bytes_read / 1e6 << " MB, writes " << kc.bytes_written / 1e6 << " MB, "
              << kc.flops / 1e6 << " Mflop, floor " << std::setprecision(3)
              << (kc.bytes_read + kc.bytes_written) / (bandwidth * 1e6) << " ms\n" << std::setprecision(1);
  }
  std::cout << "\npasses   " << cost.passes << " (one read and one write of the volume each)\n"
            << "bytes    " << cost.bytes_moved / 1e6 << " MB moved\n"
            << "flops    " << cost.counted_flops / 1e6 << " Mflop counted; " << cost.paper_flops / 1e6
            << " Mflop by " << (kind_of(plan) == TransformKind::c2c ? "the paper's 5 N log2 N" : "2.5 N log2 N (real data)")
            << "\n"
            << std::setprecision(3) << "floor    " << cost.floor_seconds(bandwidth) * 1e3 << " ms at " << bandwidth
            << " GB/s (every kernel's reads and writes)\n";
  if (kind_of(plan) != TransformKind::c2c) explain_real_bytes(plan, cost, precision, bandwidth);
  explain_lowering(plan, how, vm["dump-cuda"].as<std::string>());
  return exit_ok;
}

}  // namespace fft3d::cli
