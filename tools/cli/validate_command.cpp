#include <iostream>

#include "fft3d/transform.hpp"
#include "options.hpp"

namespace fft3d::cli {

int validate_command(const Args& args) {
  po::options_description options("validate options");
  options.add_options()("plan", po::value<std::vector<std::string>>()->required(), "plan files to check");
  po::positional_options_description positional;
  positional.add("plan", -1);
  po::variables_map vm;
  if (!parse_options("validate", "PLAN...", args, options, positional, vm)) return exit_ok;

  int failed = 0;
  for (const std::string& path : vm["plan"].as<std::vector<std::string>>()) {
    try {
      const ParsedPlan parsed = load_plan_file(path);
      const TransformKind kind = kind_of(parsed.plan);  // real plans say their kind: "256x256x256 hopper r2c"
      std::cout << path << ": ok: " << to_string(parsed.plan.size) << " " << parsed.plan.arch
                << (kind == TransformKind::c2c ? "" : " " + to_string(kind)) << ", " << parsed.plan.kernels.size()
                << " kernels\n";
    } catch (const PlanError& e) {
      std::cerr << e.what();
      ++failed;
    } catch (const UsageError& e) {
      std::cerr << e.what() << "\n";
      ++failed;
    }
  }
  return failed == 0 ? exit_ok : exit_failed;
}

}  // namespace fft3d::cli
