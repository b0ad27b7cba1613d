#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "fft3d/arch_profile.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/plan_cost.hpp"
#include "fft3d/transform.hpp"
#include "options.hpp"
#include "emit/cuda_source.hpp"
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

// The KernelSpecs of the CUDA lowering (tiles, launch shape, shared-memory layout, bank conflicts, coalescing),
// and with a directory each kernel's generated CUDA source as a self-contained .cu file.
void explain_lowering(const Plan& plan, const std::string& plan_name, const std::string& dump_dir) {
  const LoweredPlan lowered = lowered_or_why(plan, plan_name);
  if (const std::optional<double> passes = passes_on_its_profile(plan))
    std::cout << "model    " << std::setprecision(2) << *passes << " pass-equivalents (what the default planner ranks "
              << "candidates by)\n";
  std::cout << "\nlowering for the " << plan.arch << " profile\n\n" << tile::explain(lowered);
  if (dump_dir.empty()) return;
  std::filesystem::create_directories(dump_dir);
  std::vector<const KernelSpec*> specs;
  for (const KernelSpec& spec : lowered.kernels) specs.push_back(&spec);
  if (lowered.reorder) specs.push_back(&*lowered.reorder);
  for (const KernelSpec* spec : specs) {
    const std::string path = dump_dir + "/kernel" + std::to_string(spec->kernel_index) + "_" +
                             spec->entry_name() + ".cu";
    write_file_atomically(path, emit_cuda_source(*spec));
    std::cout << "wrote " << path << "\n";
  }
}

}  // namespace

int explain_command(const Args& args) {
  po::options_description options("explain options");
  po::positional_options_description positional;
  add_plan_source_options(options, positional);
  options.add_options()
      ("bandwidth", po::value<double>()->default_value(3000.0), "memory bandwidth in GB/s for the floor time "
                                                                 "(default: an H100's measured memcpy)")
      ("precision", po::value<std::string>()->default_value("fp32"), "fp32 (8-byte complex) or fp64 (16-byte)")
      ("dump-cuda", po::value<std::string>()->default_value(""), "write each generated kernel to DIR as a .cu file");
  po::variables_map vm;
  if (!parse_options("explain", "PLAN [--bandwidth GB/s] [--dump-cuda DIR]", args, options, positional, vm))
    return exit_ok;

  std::string how;
  const ParsedPlan parsed = plan_from_options(vm, how);
  const Precision precision = parse_precision(vm["precision"].as<std::string>());
  const double bandwidth = vm["bandwidth"].as<double>();
  if (!(bandwidth > 0) || !std::isfinite(bandwidth)) throw UsageError("--bandwidth must be positive and finite");
  const Plan& plan = parsed.plan;
  const PlanCost cost = plan_cost(plan, precision == Precision::fp32 ? 8 : 16);

  std::cout << "plan     " << how << "\n";
  if (!parsed.source_note.empty()) std::cout << "source   " << parsed.source_note << "\n";
  std::cout << "size     " << to_string(plan.size) << " (" << plan.size.elements() << " points, " << to_string(precision)
            << ")\narch     " << plan.arch << "\nhash     " << hash_text(stable_hash(plan)) << "\n\n";
  std::cout << std::fixed << std::setprecision(1);
  for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
    const KernelCost& kc = cost.kernels[k];
    std::cout << "kernel " << k << "  {" << to_string(plan.kernels[k]) << "}\n"
              << "          reads " << kc.bytes_read / 1e6 << " MB, writes " << kc.bytes_written / 1e6 << " MB, "
              << kc.flops / 1e6 << " Mflop, floor " << std::setprecision(3)
              << (kc.bytes_read + kc.bytes_written) / (bandwidth * 1e6) << " ms\n" << std::setprecision(1);
  }
  std::cout << "\npasses   " << cost.passes << " (one read and one write of the volume each)\n"
            << "bytes    " << cost.bytes_moved / 1e6 << " MB moved\n"
            << "flops    " << cost.counted_flops / 1e6 << " Mflop counted; " << cost.paper_flops / 1e6
            << " Mflop by the paper's 5 N log2 N\n"
            << std::setprecision(3) << "floor    " << cost.floor_seconds(bandwidth) * 1e3 << " ms at " << bandwidth
            << " GB/s\n";
  explain_lowering(plan, how, vm["dump-cuda"].as<std::string>());
  return exit_ok;
}

}  // namespace fft3d::cli
