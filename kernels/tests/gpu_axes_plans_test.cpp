// GPU tests of plans of a subset of axes: the slab and column plans of a slab decomposition (default_axes_plan)
// through the CUDA engine against FFTW's DFT over the same axes (fp64): forward and inverse, natural and
// digit-reversed, in place and out of place, outputs poisoned with NaN first. Skipped without a GPU.
#include <gtest/gtest.h>

#include <complex>
#include <iostream>
#include <vector>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/planner.hpp"
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

}  // namespace
}  // namespace fft3d::testing
