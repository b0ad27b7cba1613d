// fft3d-random-plan: writes a random legal plan (random power-of-two sizes, radix splits, interleavings of the
// axes and groupings into kernels), for exploring decompositions and for end-to-end tests.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <random>

#include "validate/random_plans.hpp"

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  po::options_description options("fft3d-random-plan options");
  options.add_options()("help,h", "show this help")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
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
    std::cout << "usage: fft3d-random-plan [--seed N] [-o FILE]\n\n" << options << "\n";
    return 0;
  }
  std::mt19937_64 rng(vm["seed"].as<std::uint64_t>());
  const std::string text = "# fft3d-random-plan --seed " + std::to_string(vm["seed"].as<std::uint64_t>()) + "\n" +
                           fft3d::to_yaml(fft3d::validate::random_legal_plan(rng));
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
