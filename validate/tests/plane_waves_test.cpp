// The closed-form check of validate/plane_waves.hpp: FFTW agrees with the closed form, chunks add up to the whole,
// and a wrong transform, a moved spike or an unwritten value fails it.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "validate/oracle.hpp"
#include "validate/plane_waves.hpp"

namespace fft3d::validate {
namespace {

using Floats = std::vector<std::complex<float>>;

Floats input_of(const PlaneWaves& waves) {
  Floats values(static_cast<std::size_t>(waves.size.elements()));
  plane_wave_values(waves, 0, values);
  return values;
}

// FFTW's transform (fp64, of the fp32-rounded input) rounded to fp32: what a correct fp32 transform could give.
Floats fftw_of(const Floats& input, const Extents& size, Direction direction, Scaling scaling) {
  std::vector<std::complex<double>> in(input.begin(), input.end()), out(in.size());
  fftw_reference(size, in, out, direction, scaling);
  Floats rounded(out.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    rounded[i] = {static_cast<float>(out[i].real()), static_cast<float>(out[i].imag())};
  return rounded;
}

TEST(PlaneWaves, FftwTransformsThemToTheClosedFormSpikes) {
  const Extents size{32, 16, 8};
  const PlaneWaves waves = random_plane_waves(size, 4, 7);
  ASSERT_EQ(waves.waves.size(), 4u);
  const Floats input = input_of(waves);
  for (Direction direction : {Direction::forward, Direction::inverse})
    for (Scaling scaling : {Scaling::none, Scaling::full}) {
      const double scale = scaling == Scaling::full ? 1.0 / static_cast<double>(size.elements()) : 1.0;
      const ErrorReport error =
          compare_spectrum(waves, direction, scale, 0, fftw_of(input, size, direction, scaling)).report();
      EXPECT_EQ(error.non_finite, 0);
      EXPECT_LT(error.relative_l2, 2e-7) << to_string(direction) << " " << to_string(scaling);
    }
}

TEST(PlaneWaves, ChunksAddUpToTheWholeVolume) {
  const Extents size{16, 8, 8};
  const PlaneWaves waves = random_plane_waves(size, 3, 11);
  const Floats input = input_of(waves);
  Floats piece(100);
  plane_wave_values(waves, 300, piece);
  for (std::size_t i = 0; i < piece.size(); ++i) ASSERT_EQ(piece[i], input[300 + i]);
  const Floats spectrum = fftw_of(input, size, Direction::forward, Scaling::none);
  ChunkedError sum;
  for (std::size_t first = 0; first < spectrum.size(); first += 250) {
    const std::size_t count = std::min<std::size_t>(250, spectrum.size() - first);
    sum.add(compare_spectrum(waves, Direction::forward, 1.0, static_cast<std::int64_t>(first),
                             std::span(spectrum).subspan(first, count)));
  }
  const ErrorReport whole = compare_spectrum(waves, Direction::forward, 1.0, 0, spectrum).report();
  EXPECT_NEAR(sum.report().relative_l2, whole.relative_l2, 1e-12);
  EXPECT_EQ(sum.report().peak_index, whole.peak_index);
  // The input is its own round trip, but for a float rounding: the two evaluations of a wave may be compiled apart
  // (position-independent code inlines differently) and round an fp64 sum to the neighbouring float.
  constexpr double one_float_rounding = 6e-8;
  EXPECT_LT(compare_waves(waves, 0, input).report().relative_l2, one_float_rounding);
}

// In fp64 the values round once to double, and FFTW's fp64 transform of them meets the closed form within fp64's
// error, as does the input its own round trip.
TEST(PlaneWaves, Fp64ValuesAndSpectraMeetTheClosedFormInFp64) {
  const Extents size{32, 16, 8};
  const PlaneWaves waves = random_plane_waves(size, 4, 7);
  std::vector<std::complex<double>> input(static_cast<std::size_t>(size.elements())), spectrum(input.size());
  plane_wave_values(waves, 0, std::span(input));
  fftw_reference(size, input, spectrum, Direction::forward, Scaling::none);
  EXPECT_LT(compare_spectrum(waves, Direction::forward, 1.0, 0, std::span<const std::complex<double>>(spectrum))
                .report()
                .relative_l2,
            1e-13);
  EXPECT_LT(compare_waves(waves, 0, std::span<const std::complex<double>>(input)).report().relative_l2, 1e-15);
}

// The check can fail: the input itself (no transform), the spectrum shifted by one element, one value left NaN,
// and the wrong direction's spectrum all miss the bound by far.
TEST(PlaneWaves, WrongResultsFail) {
  const Extents size{16, 16, 4};
  const PlaneWaves waves = random_plane_waves(size, 2, 5);
  const Floats input = input_of(waves);
  const Floats spectrum = fftw_of(input, size, Direction::forward, Scaling::none);
  EXPECT_GT(compare_spectrum(waves, Direction::forward, 1.0, 0, input).report().relative_l2, 0.5);
  Floats shifted(spectrum.size());
  for (std::size_t i = 0; i < spectrum.size(); ++i) shifted[(i + 1) % spectrum.size()] = spectrum[i];
  EXPECT_GT(compare_spectrum(waves, Direction::forward, 1.0, 0, shifted).report().relative_l2, 0.5);
  EXPECT_GT(compare_spectrum(waves, Direction::inverse, 1.0, 0, spectrum).report().relative_l2, 0.5);
  Floats unwritten = spectrum;
  unwritten[77] = {std::nanf(""), 0.0f};
  const ErrorReport poisoned = compare_spectrum(waves, Direction::forward, 1.0, 0, unwritten).report();
  EXPECT_EQ(poisoned.non_finite, 1);
  EXPECT_FALSE(poisoned.passes(2e-6));
  Floats perturbed = input;
  perturbed[5] *= 1.01f;
  EXPECT_GT(compare_waves(waves, 0, perturbed).report().peak_error, 1e-3);
}

}  // namespace
}  // namespace fft3d::validate
