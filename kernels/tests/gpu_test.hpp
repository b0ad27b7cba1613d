// The base of the GPU tests: skipped, with the reason, where no CUDA device is visible (CI), so that the CPU tests
// of the same binary still run.
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (validate::gpu_count() == 0)
      GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped (run tools/gpu_check.sh on a GPU machine)";
  }
};

// A random fp32 input and the same values in fp64: the oracle transforms exactly what the engine reads.
struct RoundedInput {
  std::vector<std::complex<float>> input;
  std::vector<std::complex<double>> exact;
};
inline RoundedInput rounded_random_input(std::size_t elements, std::uint64_t seed) {
  std::vector<std::complex<double>> values(elements);
  validate::fill_random(values, seed);
  RoundedInput rounded{{values.begin(), values.end()}, {}};
  rounded.exact.assign(rounded.input.begin(), rounded.input.end());
  return rounded;
}

}  // namespace fft3d::testing
