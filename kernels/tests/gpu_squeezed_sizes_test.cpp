// GPU tests of sizes with unit axes built from a descriptor (GpuTransform(TransformDesc)): each is planned as its
// squeezed size (squeezed_extents) and must equal FFTW's fp64 DFT of the size as asked, forward and inverse, in
// place and out of place, natural order, outputs poisoned with NaN first. Skipped without a GPU.
#include <gtest/gtest.h>

#include <complex>
#include <iostream>
#include <vector>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/lengths.hpp"
#include "gpu_test.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

constexpr std::uint64_t seed = 41;

class GpuSqueezedSizes : public GpuTest {};

void check_on_gpu(const Extents& size, Placement placement) {
  GpuTransform engine({.extents = size, .placement = placement});
  EXPECT_EQ(engine.plan().size, squeezed_extents(size)) << to_string(size) << ": " << engine.plan_source();
  const std::size_t elements = static_cast<std::size_t>(size.elements());
  const auto [input, exact] = rounded_random_input(elements, seed);
  const std::size_t bytes = elements * sizeof(input[0]);
  validate::DeviceBuffer d_in(bytes), d_out(bytes);
  std::vector<std::complex<float>> got(elements);
  std::vector<std::complex<double>> reference(elements), result;
  const bool in_place = placement == Placement::in_place;
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    const Scaling scaling = direction == Direction::inverse ? Scaling::full : Scaling::none;
    validate::fftw_reference(size, exact, reference, direction, scaling);  // at the size as asked
    d_in.upload(input.data());
    d_out.poison_nan();
    if (in_place) {
      d_out.copy_from(d_in);
      engine.execute(d_out.complex32(), d_out.complex32(), {direction, Order::natural, scaling});
    } else {
      engine.execute(d_in.complex32(), d_out.complex32(), {direction, Order::natural, scaling});
    }
    d_out.download(got.data());
    result.assign(got.begin(), got.end());
    const validate::ErrorReport error = validate::compare(result, reference);
    const std::string what = to_string(size) + " " + to_string(direction) + " " + to_string(placement);
    EXPECT_TRUE(error.passes(validate::fp32_error_bound))
        << what << ": relative L2 " << error.relative_l2 << ", peak " << error.peak_error << " at "
        << error.peak_index << ", " << error.non_finite << " NaN or Inf";
    std::cout << what << " (" << engine.plan_source() << "): relative L2 " << error.relative_l2 << "\n";
  }
}

// 65536 and 2^20 in 1D are four-step plans whose twiddle spans are two-level (emit_twiddles.hpp): at 65536 the
// low angle reaches 0.025 and its series takes a t^4 term, at 2^20 (0.006) it does not.
TEST_F(GpuSqueezedSizes, UnitAxisSizesMatchFftwOfTheSizeAsAsked) {
  for (const Extents& size : {Extents{1, 256, 256}, Extents{1, 1, 65536}, Extents{256, 1, 256}, Extents{1, 1 << 20, 1}})
    for (Placement placement : {Placement::out_of_place, Placement::in_place}) check_on_gpu(size, placement);
}

}  // namespace
}  // namespace fft3d::testing
