#include <fstream>
#include <iostream>

#include "fft3d/planner.hpp"
#include "options.hpp"

namespace fft3d::cli {

int plan_command(const Args& args) {
  po::options_description options("plan options");
  options.add_options()
      ("size", po::value<std::string>()->required(), "NXxNYxNZ, each a power of two")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile: tesla, fermi or hopper")
      ("output,o", po::value<std::string>(), "write the plan to this file instead of stdout");
  po::variables_map vm;
  if (!parse_options("plan", "--size NXxNYxNZ [--arch A] [-o FILE]", args, options, {}, vm)) return exit_ok;

  const Plan plan =
      default_plan(parse_extents(vm["size"].as<std::string>()), vm["arch"].as<std::string>(), planner_passes());
  const std::string text = "# Written by `fft3d plan`: the default planner's plan.\n" + to_yaml(plan);
  if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    std::ofstream out(path);
    if (!(out << text)) throw UsageError(path + ": cannot write the plan file");
  } else {
    std::cout << text;
  }
  return exit_ok;
}

}  // namespace fft3d::cli
