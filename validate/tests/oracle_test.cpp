// The oracle itself: FFTW's sign and axis order, scaling, an untouched input, and the error measures.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fft3d/diagnostics.hpp"
#include "fft3d/index_maps.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;

// An impulse one step along each axis in turn: the result must be e^(-+2 pi i k/n) along that axis only, which
// pins down FFTW's sign convention and that X is the contiguous axis.
TEST(FftwReference, UsesTheForwardSignAndXContiguous) {
  const Extents size{8, 4, 2};
  for (Axis axis : all_axes) {
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      Values in(static_cast<std::size_t>(size.elements()), 0.0), out(in.size());
      const std::int64_t step = axis == Axis::x ? 1 : axis == Axis::y ? size.nx : size.nx * size.ny;
      in[static_cast<std::size_t>(step)] = 1.0;
      fftw_reference(size, in, out, direction);
      const double sign = direction == Direction::forward ? -1 : 1;
      for (std::int64_t i = 0; i < size.elements(); ++i) {
        const std::int64_t k = i / step % size[axis];
        const std::complex<double> expected = std::polar(1.0, sign * 2 * std::numbers::pi * k / size[axis]);
        ASSERT_LT(std::abs(out[static_cast<std::size_t>(i)] - expected), 1e-15)
            << axis_letter(axis) << " " << to_string(direction) << " at " << i;
      }
    }
  }
}

TEST(FftwReference, KeepsItsInputAndScalesByOneOverN) {
  const Extents size{16, 8, 4};
  Values in(static_cast<std::size_t>(size.elements())), plain(in.size()), scaled(in.size());
  fill_random(in, 3);
  const Values kept = in;
  fftw_reference(size, in, plain, Direction::inverse);
  fftw_reference(size, in, scaled, Direction::inverse, Scaling::full);
  EXPECT_EQ(in, kept);
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(scaled[i], plain[i] / 512.0);
  EXPECT_THROW(fftw_reference(size, Values(3), plain, Direction::forward), UsageError);
}

TEST(Compare, ReportsRelativeL2PeakAndNonFiniteValues) {
  const Values ref{{3, 0}, {0, 4}, {0, 0}};
  Values out = ref;
  EXPECT_EQ(compare(out, ref).relative_l2, 0.0);
  out[1] += std::complex<double>(0, 0.5);
  const ErrorReport report = compare(out, ref);
  EXPECT_DOUBLE_EQ(report.relative_l2, 0.5 / 5.0);
  EXPECT_DOUBLE_EQ(report.peak_error, 0.5);
  EXPECT_EQ(report.peak_index, 1);
  EXPECT_TRUE(report.passes(0.1));
  EXPECT_FALSE(report.passes(0.09));

  poison(std::span(out).subspan(2));
  const ErrorReport poisoned = compare(out, ref);
  EXPECT_EQ(poisoned.non_finite, 1);
  EXPECT_EQ(poisoned.peak_index, 2);
  EXPECT_FALSE(poisoned.passes(1.0));

  const std::vector<std::complex<float>> single{{3, 0}, {0, 4}, {0, 0}};
  EXPECT_EQ(compare(single, ref).relative_l2, 0.0);
  EXPECT_THROW(compare(Values(2), ref), UsageError);
}

TEST(FillRandom, IsSeededUniformInMinusOneToOneAndNotConstant) {
  Values a(10000), b(a.size()), c(a.size());
  fill_random(a, 7);
  fill_random(b, 7);
  fill_random(c, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::complex<double> sum = 0;
  for (const auto& v : a) {
    ASSERT_GE(v.real(), -1.0);
    ASSERT_LT(v.real(), 1.0);
    ASSERT_GE(v.imag(), -1.0);
    ASSERT_LT(v.imag(), 1.0);
    sum += v;
  }
  EXPECT_LT(std::abs(sum) / static_cast<double>(a.size()), 0.05);  // mean near 0 for a uniform on [-1, 1)
}

TEST(Poison, FillsEveryValueWithNan) {
  Values d(5, 1.0);
  std::vector<std::complex<float>> f(5, 1.0f);
  poison(d);
  poison(f);
  for (const auto& v : d) EXPECT_TRUE(std::isnan(v.real()) && std::isnan(v.imag()));
  for (const auto& v : f) EXPECT_TRUE(std::isnan(v.real()) && std::isnan(v.imag()));
}

// Values that name their own frequency, laid out where the DIF stages leave them, come back to index k.
TEST(ToNaturalOrder, MovesEveryFrequencyFromItsDigitReversedPosition) {
  Plan plan;
  plan.size = {8, 4, 16};
  plan.arch = "tesla";
  plan.kernels = {{{{Axis::x, 4, 2, 4, 8, true}, {Axis::z, 4, 4, 4, 16, true}}},
                  {{{Axis::x, 2, 4, 1, 4, false}, {Axis::y, 1, 4, 1, 4, false}, {Axis::z, 4, 4, 1, 4, false}}}};
  const auto px = digit_reversed_positions(radices_of(plan, Axis::x));
  const auto pz = digit_reversed_positions(radices_of(plan, Axis::z));
  const Extents& n = plan.size;
  Values data(static_cast<std::size_t>(n.elements()));
  for (std::int64_t z = 0; z < n.nz; ++z)
    for (std::int64_t y = 0; y < n.ny; ++y)
      for (std::int64_t x = 0; x < n.nx; ++x)
        data[static_cast<std::size_t>(px[x] + n.nx * (y + n.ny * pz[z]))] =
            static_cast<double>(x + n.nx * (y + n.ny * z));
  to_natural_order(plan, data);
  for (std::size_t i = 0; i < data.size(); ++i) ASSERT_EQ(data[i], static_cast<double>(i));
  EXPECT_THROW(to_natural_order(plan, std::span(data).subspan(1)), UsageError);
}

}  // namespace
}  // namespace fft3d::validate
