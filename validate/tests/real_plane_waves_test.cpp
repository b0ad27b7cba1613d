// The closed-form check of real transforms (validate/plane_waves.hpp): the conjugate pairs' sum is real, FFTW's R2C
// of it agrees with the half spectrum's spikes (chunk by chunk as well; odd NX too), and a moved spike, a wrong
// value or an unwritten one fails it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "validate/oracle.hpp"
#include "validate/plane_waves.hpp"

namespace fft3d::validate {
namespace {

using Spectrum = std::vector<std::complex<double>>;

std::vector<double> reals_of(const PlaneWaves& waves) {
  std::vector<double> reals(static_cast<std::size_t>(waves.size.elements()));
  plane_wave_reals(waves, 0, reals);
  return reals;
}

Spectrum r2c_of(const PlaneWaves& waves, Scaling scaling = Scaling::none) {
  const Extents& n = waves.size;
  Spectrum spectrum(static_cast<std::size_t>((n.nx / 2 + 1) * n.ny * n.nz));
  fftw_r2c_reference(n, reals_of(waves), spectrum, scaling);
  return spectrum;
}

TEST(RealPlaneWaves, TheirSumIsRealAndFftwTransformsItToTheHalfSpectrumsSpikes) {
  for (const Extents& size : {Extents{32, 16, 8}, Extents{12, 10, 6}, Extents{2, 2, 2}, Extents{15, 8, 6},
                              Extents{9, 5, 3}}) {
    SCOPED_TRACE(to_string(size));
    const int pairs = size.elements() == 8 ? 4 : 3;  // 2x2x2: every frequency is its own conjugate
    const PlaneWaves waves = random_real_plane_waves(size, pairs, 5);
    Spectrum values(static_cast<std::size_t>(size.elements()));
    plane_wave_values(waves, 0, values);
    for (const auto& v : values) ASSERT_LT(std::abs(v.imag()), 1e-12);
    for (Scaling scaling : {Scaling::none, Scaling::full}) {
      const double scale = scaling == Scaling::full ? 1.0 / static_cast<double>(size.elements()) : 1.0;
      const ErrorReport error = compare_half_spectrum(waves, scale, 0, r2c_of(waves, scaling)).report();
      EXPECT_EQ(error.non_finite, 0);
      EXPECT_LT(error.relative_l2, 1e-12) << to_string(scaling);
    }
  }
}

TEST(RealPlaneWaves, ChunksAddUpAndWrongHalfSpectraFail) {
  const PlaneWaves waves = random_real_plane_waves({16, 8, 8}, 3, 9);
  const Spectrum spectrum = r2c_of(waves);
  ChunkedError sum;
  for (std::size_t first = 0; first < spectrum.size(); first += 100) {
    const std::size_t count = std::min<std::size_t>(100, spectrum.size() - first);
    sum.add(compare_half_spectrum(waves, 1.0, static_cast<std::int64_t>(first),
                                  std::span<const std::complex<double>>(spectrum).subspan(first, count)));
  }
  EXPECT_NEAR(sum.report().relative_l2, compare_half_spectrum(waves, 1.0, 0, spectrum).report().relative_l2, 1e-15);
  EXPECT_LT(sum.report().relative_l2, 1e-12);

  Spectrum moved = spectrum;
  std::size_t spike = 0;
  for (std::size_t i = 0; i < moved.size(); ++i)
    if (std::abs(moved[i]) > std::abs(moved[spike])) spike = i;
  std::swap(moved[spike], moved[(spike + 1) % moved.size()]);
  EXPECT_GT(compare_half_spectrum(waves, 1.0, 0, moved).report().relative_l2, 0.1);
  Spectrum unwritten = spectrum;
  unwritten[3] = {std::numeric_limits<double>::quiet_NaN(), 0};
  EXPECT_EQ(compare_half_spectrum(waves, 1.0, 0, unwritten).report().non_finite, 1);
}

TEST(RealPlaneWaves, TheRoundTripsCheckComparesTheReals) {
  const PlaneWaves waves = random_real_plane_waves({16, 8, 4}, 2, 3);
  std::vector<float> reals(static_cast<std::size_t>(waves.size.elements()));
  plane_wave_reals(waves, 0, reals);
  EXPECT_EQ(compare_reals(waves, 0, std::span<const float>(reals)).report().relative_l2, 0.0);
  std::vector<float> piece(50);
  plane_wave_reals(waves, 100, piece);
  for (std::size_t i = 0; i < piece.size(); ++i) ASSERT_EQ(piece[i], reals[100 + i]);
  reals[7] += 1.0f;
  EXPECT_GT(compare_reals(waves, 0, std::span<const float>(reals)).report().relative_l2, 1e-3);
}

TEST(RealPlaneWaves, RefuseTooManyPairs) {
  EXPECT_NO_THROW(random_real_plane_waves({15, 8, 8}, 2, 1));  // an odd NX keeps X frequencies 0 .. 7
  EXPECT_THROW(random_real_plane_waves({2, 2, 2}, 5, 1), std::invalid_argument);
  EXPECT_THROW(random_real_plane_waves({16, 8, 8}, 0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace fft3d::validate
