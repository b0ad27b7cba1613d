// fft3d-random-plan: writes a random legal plan (random power-of-two sizes, radix splits, interleavings of the
// axes and groupings into kernels; for --kind r2c or c2r, a real plan with its real step), for exploring
// decompositions and for end-to-end tests.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <random>

#include "fft3d/errors.hpp"
#include "fft3d/transform.hpp"
#include "validate/random_plans.hpp"

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  po::options_description options("fft3d-random-plan options");
  options.add_options()("help,h", "show this help")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("kind", po::value<std::string>()->default_value("c2c"), "c2c, r2c or c2r")
      ("output,o", po::value<std::string>(), "write the plan here instead of stdout");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "fft3d-random-plan: error: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "usage: fft3d-random-plan [--seed N] [--kind c2c|r2c|c2r] [-o FILE]\n\n" << options << "\n";
    return 0;
  }
  fft3d::TransformKind kind{};
  try {
    kind = fft3d::parse_kind(vm["kind"].as<std::string>());
  } catch (const fft3d::UsageError& e) {
    std::cerr << "fft3d-random-plan: error: " << e.what() << "\n";
    return 2;
  }
  std::mt19937_64 rng(vm["seed"].as<std::uint64_t>());
  const fft3d::Plan plan = kind == fft3d::TransformKind::c2c ? fft3d::validate::random_legal_plan(rng)
                                                             : fft3d::validate::random_legal_real_plan(rng, kind);
  const std::string text = "# fft3d-random-plan --seed " + std::to_string(vm["seed"].as<std::uint64_t>()) +
                           (kind == fft3d::TransformKind::c2c ? "" : " --kind " + fft3d::to_string(kind)) + "\n" +
                           fft3d::to_yaml(plan);
  if (!vm.count("output")) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(vm["output"].as<std::string>());
  if (!(out << text)) {
    std::cerr << "fft3d-random-plan: error: cannot write " << vm["output"].as<std::string>() << "\n";
    return 1;
  }
  return 0;
}
