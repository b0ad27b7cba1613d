// GPU tests of plans of a subset of axes: the slab and column plans of a slab decomposition (default_axes_plan), and
// 1D plans with the transposed store, through the CUDA engine against FFTW's DFT over the same axes (fp64): forward and inverse, natural and
// digit-reversed, in place and out of place, outputs poisoned with NaN first. Skipped without a GPU.
#include <gtest/gtest.h>

#include <complex>
#include <iostream>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "lowering/kernel_spec.hpp"
#include "gpu_test.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

constexpr std::uint64_t seed = 33;

class GpuAxesPlans : public GpuTest {};

void check_on_gpu(const Plan& plan) {
  const std::string name = to_string(plan.size) + " axes " + axes_text(plan.axes);
  GpuTransform engine(plan, name);
  const std::size_t elements = static_cast<std::size_t>(plan.size.elements());
  const auto [input, exact] = rounded_random_input(elements, seed);
  const std::size_t bytes = elements * sizeof(input[0]);
  validate::DeviceBuffer d_in(bytes), d_out(bytes);
  std::vector<std::complex<float>> got(elements);
  std::vector<std::complex<double>> reference(elements), natural;
  for (Direction direction : {Direction::forward, Direction::inverse})
    for (Order order : {Order::natural, Order::digit_reversed})
      for (bool in_place : {false, true}) {
        const Scaling scaling = direction == Direction::inverse ? Scaling::full : Scaling::none;
        validate::fftw_axes_reference(plan.size, plan.axes, exact, reference, direction, scaling);
        d_in.upload(input.data());
        d_out.poison_nan();
        if (in_place) {
          d_out.copy_from(d_in);
          engine.execute(d_out.complex32(), d_out.complex32(), {direction, order, scaling});
        } else {
          engine.execute(d_in.complex32(), d_out.complex32(), {direction, order, scaling});
        }
        d_out.download(got.data());
        natural.assign(got.begin(), got.end());
        if (order == Order::digit_reversed) validate::to_natural_order(plan, natural);
        const validate::ErrorReport error = validate::compare(natural, reference);
        const std::string what = name + " " + to_string(direction) + " " + to_string(order) +
                                 (in_place ? " in-place" : " out-of-place");
        EXPECT_TRUE(error.passes(validate::fp32_error_bound))
            << what << ": relative L2 " << error.relative_l2 << ", peak " << error.peak_error << " at "
            << error.peak_index << ", " << error.non_finite << " NaN or Inf";
        std::cout << what << ": relative L2 " << error.relative_l2 << "\n";
      }
}

TEST_F(GpuAxesPlans, SlabAndColumnPlansMatchFftwOverTheirAxes) {
  for (const auto& [n, gpus] : {std::pair<std::int64_t, std::int64_t>{128, 2}, {256, 4}}) {
    check_on_gpu(default_axes_plan({n, n, n / gpus}, "hopper", {Axis::x, Axis::y}));
    check_on_gpu(default_axes_plan({n, n / gpus, n}, "hopper", {Axis::z}));
  }
}

// 1D plans whose last kernel stores natural order out of the workspace (the transposed store, runs of 16 and of 8
// frequencies): both placements write `out` from it, digit-reversed order keeps the positions.
TEST_F(GpuAxesPlans, OneDPlansWithATransposedStoreMatchFftw) {
  for (const Extents& size : {Extents{1 << 21, 1, 1}, Extents{1 << 22, 1, 1}}) {
    const Plan plan = default_plan(size, "hopper");
    ASSERT_TRUE(lower_plan(plan, *find_arch_profile("hopper")).stores_out_of_workspace()) << to_yaml(plan);
    check_on_gpu(plan);
  }
  const Plan sixteen = parse_plan("size: [2097152, 1, 1]\narch: hopper\nkernels:\n"
                                  "  - \"X(1024, 2048, 1024, 2097152, tw)\"\n  - \"X(2048, 1024, 1, 1024, no-tw)\"\n")
                           .plan;
  ASSERT_EQ(lower_plan(sixteen, *find_arch_profile("hopper")).kernels.back().transposed_store_run, 16);
  check_on_gpu(sixteen);
}

}  // namespace
}  // namespace fft3d::testing
