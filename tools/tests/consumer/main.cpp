// Parses a plan with the installed fft3d and runs it on the CPU backend: an impulse at the origin must transform
// to all ones.
#include <fft3d/cpu_backend.hpp>
#include <fft3d/planner.hpp>
#include <fft3d/plan_text.hpp>

#include <cmath>
#include <complex>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  const fft3d::Plan plan = argc > 1 ? fft3d::load_plan_file(argv[1]).plan : fft3d::default_plan({8, 4, 2}, "fermi");
  std::vector<std::complex<double>> data(static_cast<std::size_t>(plan.size.elements()));
  data[0] = 1.0;
  fft3d::CpuBackend(plan).execute(std::span<std::complex<double>>(data), {});
  double worst = 0;
  for (const auto& v : data) worst = std::max(worst, std::abs(v - 1.0));
  std::cout << "consumer: " << fft3d::to_string(plan.size) << " impulse error " << worst << "\n";
  return worst < 1e-12 ? 0 : 1;
}
