// Twiddle tables (emit_twiddles.hpp): spans within max_direct_twiddle_span are one table; larger spans are one
// table and a series, whose product w^e = hi[e / L] * exp(-i t), evaluated on the host from the values as the
// compiler reads the printed literals and computed as the emitted function and fft3d_mul do on the GPU (in fp32 and
// in fp64), stays within a few roundings of w^e.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <numbers>
#include <random>

#include "emit/emit_parts.hpp"
#include "emit/emit_twiddles.hpp"
#include "emit/source_writer.hpp"

namespace fft3d::testing {
namespace {

using emit::TwiddleTable;

// A precision's unit roundoff: a value rounded once is within u of it (relative).
constexpr double fp32_unit_roundoff = 0x1p-24;
constexpr double fp64_unit_roundoff = 0x1p-53;
// One value rounded once: each component within u of itself (relative), so within u of w^t in modulus. The low
// factor's cosine is 1 - t^2/2 + ... rounded once near 1 (within u), its sine t (1 - t^2/6 + ...) a few roundings of a
// value under 2 pi / sqrt(span) (far under u in all), the series' cut under u/16: within u (1 + 1/8) of exp(-i t).
// hi * low: the exact product within u (2 + 1/8) of w^e; the complex product's roundings (each component a difference
// of two rounded products, rounded; sum of the products' moduli at most 1) add at most u (1 + sqrt 2). Under
// (3.125 + sqrt 2) u in all, with a fused multiply-add or without.
constexpr double two_level_error_roundings = 3.125 + std::numbers::sqrt2;
constexpr double direct_error_bound = fp32_unit_roundoff;
// Exponents checked per span (random, plus the first and last of each range).
constexpr int sampled_exponents = 1 << 16;

template <class T>
struct Complex {
  T x, y;
};

// The value the compiler stores for the printed literal of `value` (in the current precision's scope).
template <class T>
T as_compiled(double value) {
  const std::string text = emit::literal(value);
  if constexpr (sizeof(T) == sizeof(float)) return std::strtof(text.c_str(), nullptr);
  else return std::strtod(text.c_str(), nullptr);
}

template <class T>
Complex<T> compiled_value(const TwiddleTable& table, std::int64_t index) {
  const std::complex<double> w = table.values.at(static_cast<std::size_t>(index));
  return {as_compiled<T>(w.real()), as_compiled<T>(w.imag())};
}

// a * b + c, in either contraction the compiler may pick.
template <class T>
T multiply_add(T a, T b, T c, bool fused) {
  return fused ? std::fma(a, b, c) : a * b + c;
}

// fft3d_mul as written (kernels/device/fft3d_complex.cuh).
template <class T>
Complex<T> multiply(Complex<T> a, Complex<T> b, bool fused) {
  if (fused) return {std::fma(a.x, b.x, -(a.y * b.y)), std::fma(a.x, b.y, a.y * b.x)};
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

// c0 + t2 * (c1 + t2 * (...)) as the emitted Horner form computes it.
template <class T>
T horner(const std::vector<double>& terms, T t2, bool fused) {
  T value = as_compiled<T>(terms.back());
  for (auto term = terms.rbegin() + 1; term != terms.rend(); ++term)
    value = multiply_add(t2, value, as_compiled<T>(*term), fused);
  return value;
}

// The emitted fft3d_twiddle_<span>(e): hi[e / L] * (cos t, -sin t) from the series.
template <class T>
Complex<T> two_level_value(const TwiddleTable& hi, const emit::LowSeries& series, std::int64_t low, std::int64_t e,
                           bool fused) {
  const T t = static_cast<T>(e % low) * as_compiled<T>(series.step);
  const T t2 = t * t;
  const Complex<T> small{horner(series.cos_terms, t2, fused), -t * horner(series.sin_terms, t2, fused)};
  return multiply(compiled_value<T>(hi, e / low), small, fused);
}

template <class T>
double error_of(Complex<T> value, std::int64_t e, std::int64_t span) {
  const long double angle = -2.0L * std::numbers::pi_v<long double> * e / span;
  return static_cast<double>(std::hypot(value.x - std::cos(angle), value.y - std::sin(angle)));
}

std::vector<std::int64_t> exponents(std::int64_t span) {
  std::mt19937_64 random(static_cast<std::uint64_t>(span));
  const std::int64_t low = span > emit::max_direct_twiddle_span ? emit::two_level_low_length(span) : span;
  std::vector<std::int64_t> e = {0, 1, low - 1, low, span / 2, span - 1};
  std::uniform_int_distribution<std::int64_t> any(0, span - 1);
  for (int i = 0; i < sampled_exponents; ++i) e.push_back(any(random));
  return e;
}

// Largest |fft3d_twiddle_<span>(e) - w^e| over the sampled exponents, in either contraction, in T's precision.
template <class T>
double two_level_error(std::int64_t span) {
  const Precision precision = sizeof(T) == sizeof(float) ? Precision::fp32 : Precision::fp64;
  const emit::PrecisionScope scope(precision);
  const std::vector<TwiddleTable> tables = emit::twiddle_tables(span);
  EXPECT_EQ(tables.size(), 1u) << span;
  const std::int64_t low = emit::two_level_low_length(span);
  EXPECT_EQ(static_cast<std::int64_t>(tables[0].values.size()), (span + low - 1) / low);
  const emit::LowSeries series = emit::low_series(span, precision);
  double worst = 0;
  for (std::int64_t e : exponents(span))
    for (bool fused : {false, true})
      worst = std::max(worst, error_of(two_level_value<T>(tables[0], series, low, e, fused), e, span));
  return worst;
}

TEST(TwiddleTables, SpansWithinTheLimitAreOneTableOfEveryPower) {
  for (std::int64_t span : std::initializer_list<std::int64_t>{2, 12, 4096, 5000, emit::max_direct_twiddle_span}) {
    const std::vector<TwiddleTable> tables = emit::twiddle_tables(span);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].name, emit::twiddle_table_name(span));
    ASSERT_EQ(static_cast<std::int64_t>(tables[0].values.size()), span);
    double worst = 0;
    for (std::int64_t e = 0; e < span; ++e)
      worst = std::max(worst, error_of(compiled_value<float>(tables[0], e), e, span));
    EXPECT_LE(worst, direct_error_bound) << span;
    EXPECT_EQ(emit::twiddle_at(span, "k"), "__ldg(&" + emit::twiddle_table_name(span) + "[k])");
  }
}

TEST(TwiddleTables, LargerSpansAreATableTimesASeriesWithinAFewRoundingsInBothPrecisions) {
  for (std::int64_t span : {emit::max_direct_twiddle_span * 2, std::int64_t{1} << 20, std::int64_t{1} << 24,
                            std::int64_t{1} << 27, std::int64_t{3 * 5 * 7} << 14}) {
    const double fp32_error = two_level_error<float>(span);
    const double fp64_error = two_level_error<double>(span);
    EXPECT_LE(fp32_error, two_level_error_roundings * fp32_unit_roundoff) << span;
    EXPECT_LE(fp64_error, two_level_error_roundings * fp64_unit_roundoff) << span;
    std::cout << "span " << span << ": largest |hi*series - w^e| " << fp32_error / fp32_unit_roundoff << " u (fp32), "
              << fp64_error / fp64_unit_roundoff << " u (fp64)\n";
    EXPECT_EQ(emit::twiddle_at(span, "k"), "fft3d_twiddle_" + std::to_string(span) + "(k)");
  }
}

// Each precision takes the terms its rounding needs: at 2^24 (t under 1.6e-3) fp32 cos to t^2 and sin to t^3, fp64
// one more term of each; a larger t takes more.
TEST(TwiddleTables, TheSeriesTakesTheTermsEachPrecisionNeeds) {
  constexpr std::int64_t span = std::int64_t{1} << 24;
  const emit::LowSeries fp32 = emit::low_series(span, Precision::fp32);
  const emit::LowSeries fp64 = emit::low_series(span, Precision::fp64);
  EXPECT_EQ(fp32.cos_terms, (std::vector<double>{1, -1.0 / 2}));
  EXPECT_EQ(fp32.sin_terms.size(), 2u);
  EXPECT_EQ(fp64.cos_terms.size(), 3u);
  EXPECT_EQ(fp64.sin_terms.size(), 3u);
  EXPECT_DOUBLE_EQ(fp64.sin_terms[2], 1.0 / 120);
  // At 65536 (L = 256, t under 0.025) fp32's cosine needs t^4/24 (1.5e-8) too.
  EXPECT_EQ(emit::low_series(65536, Precision::fp32).cos_terms.size(), 3u);
  EXPECT_EQ(emit::low_series(65536, Precision::fp32).sin_terms.size(), 2u);
}

// The source of a two-level span is its table of about sqrt(span) values and the function: a 2^27 span in well
// under a megabyte, and no second table.
TEST(TwiddleTables, ATwoLevelSpanWritesOneTableOfAboutASquareRootOfValues) {
  constexpr std::int64_t span = std::int64_t{1} << 27;
  constexpr std::size_t most_bytes = std::size_t{1} << 19;
  emit::SourceWriter out;
  emit::write_twiddles(out, span);
  const std::string text = out.text();
  EXPECT_LT(text.size(), most_bytes);
  EXPECT_NE(text.find("__device__ __forceinline__ float2 fft3d_twiddle_134217728(unsigned e)"), std::string::npos);
  EXPECT_NE(text.find("fft3d_twiddles_134217728_hi[8192]"), std::string::npos) << text.substr(0, 200);
  EXPECT_EQ(text.find("_lo["), std::string::npos);
  EXPECT_NE(text.find("const float t = (float)(e & 16383u) * "), std::string::npos);
}

}  // namespace
}  // namespace fft3d::testing
