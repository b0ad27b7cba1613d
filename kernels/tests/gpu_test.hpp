// The base of the GPU tests: skipped, with the reason, where no CUDA device is visible (CI), so that the CPU tests
// of the same binary still run.
#pragma once

#include <gtest/gtest.h>

#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (validate::gpu_count() == 0)
      GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped (run tools/gpu_check.sh on a GPU machine)";
  }
};

}  // namespace fft3d::testing
