#include <iomanip>
#include <iostream>

#include "fft3d/plan_cost.hpp"
#include "options.hpp"

namespace fft3d::cli {

int explain_command(const Args& args) {
  po::options_description options("explain options");
  options.add_options()
      ("plan", po::value<std::string>(), "plan file")
      ("size", po::value<std::string>(), "instead of a file: the table or default plan for NXxNYxNZ")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile for --size")
      ("bandwidth", po::value<double>()->default_value(3000.0), "memory bandwidth in GB/s for the floor time "
                                                                 "(default: an H100's measured memcpy)")
      ("precision", po::value<std::string>()->default_value("fp32"), "fp32 (8-byte complex) or fp64 (16-byte)");
  po::positional_options_description positional;
  positional.add("plan", 1);
  po::variables_map vm;
  if (!parse_options("explain", "PLAN [--bandwidth GB/s]", args, options, positional, vm)) return exit_ok;

  const auto optional_string = [&](const char* key) {
    return vm.count(key) ? std::optional<std::string>(vm[key].as<std::string>()) : std::nullopt;
  };
  std::string how;
  const ParsedPlan parsed = plan_from(optional_string("plan"), optional_string("size"), vm["arch"].as<std::string>(), how);
  const std::string precision = vm["precision"].as<std::string>();
  if (precision != "fp32" && precision != "fp64") throw UsageError("--precision must be fp32 or fp64");
  const double bandwidth = vm["bandwidth"].as<double>();
  if (!(bandwidth > 0)) throw UsageError("--bandwidth must be positive");
  const Plan& plan = parsed.plan;
  const PlanCost cost = plan_cost(plan, precision == "fp32" ? 8 : 16);

  std::cout << "plan     " << how << "\n";
  if (!parsed.source_note.empty()) std::cout << "source   " << parsed.source_note << "\n";
  std::cout << "size     " << to_string(plan.size) << " (" << plan.size.elements() << " points, " << precision
            << ")\narch     " << plan.arch << "\nhash     " << std::hex << stable_hash(plan) << std::dec << "\n\n";
  std::cout << std::fixed << std::setprecision(1);
  for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
    const KernelCost& kc = cost.kernels[k];
    std::cout << "kernel " << k + 1 << "  {" << to_string(plan.kernels[k]) << "}\n"
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
  return exit_ok;
}

}  // namespace fft3d::cli
