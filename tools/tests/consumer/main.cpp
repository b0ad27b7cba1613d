// Builds against the installed fft3d through its one public header and runs the CPU transform: an impulse at the
// origin must transform to all ones, from a descriptor and from a plan file.
#include <fft3d/fft3d.hpp>

#include <cmath>
#include <complex>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  const fft3d::CpuTransform fft = argc > 1 ? fft3d::CpuTransform::from_file(argv[1])
                                           : fft3d::CpuTransform(fft3d::TransformDesc{.extents = {8, 4, 2}});
  std::vector<std::complex<double>> data(static_cast<std::size_t>(fft.plan().size.elements()));
  data[0] = 1.0;
  fft.forward(data.data(), data.data());
  double worst = 0;
  for (const auto& v : data) worst = std::max(worst, std::abs(v - 1.0));
  std::cout << "consumer: " << fft3d::to_string(fft.plan().size) << " impulse error " << worst << "\n";
  try {
    fft3d::CpuTransform(fft3d::TransformDesc{.extents = {8, 8, 8}, .batch = 0});
    return 1;  // a batch of no volume: must be refused
  } catch (const fft3d::Error& e) {
    std::cout << "consumer: refused as fft3d::Error: " << e.what() << "\n";
  }
  return worst < 1e-12 ? 0 : 1;
}
