// Twiddle tables (emit_twiddles.hpp): spans within max_direct_twiddle_span are one table; larger spans are two,
// whose fp32 product w^e = hi[e / L] * lo[e % L], evaluated on the host from the values as the compiler reads the
// printed literals and multiplied as fft3d_mul does on the GPU, stays within a few fp32 roundings of w^e.
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

// fp32's unit roundoff: a value rounded once to fp32 is within u of it (relative).
constexpr double fp32_unit_roundoff = 0x1p-24;
// One value rounded once to fp32: each component within u of itself (relative), so within u of w^t in modulus.
// hi * lo in fp32: the two rounded factors put the exact product within 2u of w^e; the complex product's roundings
// (each component a difference of two rounded products, rounded; sum of the products' moduli at most 1) add at most
// u (1 + sqrt 2). Under (3 + sqrt 2) u in all, with a fused multiply-add or without.
constexpr double two_level_error_bound = (3 + std::numbers::sqrt2) * fp32_unit_roundoff;
constexpr double direct_error_bound = fp32_unit_roundoff;
// Exponents checked per span (random, plus the first and last of each table's range).
constexpr int sampled_exponents = 1 << 16;

struct Float2 {
  float x, y;
};

// The value the compiler stores for the printed literal of `value`.
float as_compiled(double value) { return std::strtof(emit::literal(value).c_str(), nullptr); }

Float2 compiled_value(const TwiddleTable& table, std::int64_t index) {
  const std::complex<double> w = table.values.at(static_cast<std::size_t>(index));
  return {as_compiled(w.real()), as_compiled(w.imag())};
}

// fft3d_mul as written (kernels/device/fft3d_complex.cuh), in either contraction the compiler may pick.
Float2 multiply(Float2 a, Float2 b, bool fused) {
  if (fused) return {std::fma(a.x, b.x, -(a.y * b.y)), std::fma(a.x, b.y, a.y * b.x)};
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

double error_of(Float2 value, std::int64_t e, std::int64_t span) {
  const long double angle = -2.0L * std::numbers::pi_v<long double> * e / span;
  return std::hypot(static_cast<double>(value.x - std::cos(angle)), static_cast<double>(value.y - std::sin(angle)));
}

std::vector<std::int64_t> exponents(std::int64_t span) {
  std::mt19937_64 random(static_cast<std::uint64_t>(span));
  std::vector<std::int64_t> e = {0, 1, span / 2, span - 1};
  std::uniform_int_distribution<std::int64_t> any(0, span - 1);
  for (int i = 0; i < sampled_exponents; ++i) e.push_back(any(random));
  return e;
}

// Largest |hi * lo - w^e| over the sampled exponents, in either contraction.
double two_level_error(std::int64_t span) {
  const std::vector<TwiddleTable> tables = emit::twiddle_tables(span);
  EXPECT_EQ(tables.size(), 2u) << span;
  const std::int64_t low = emit::two_level_low_length(span);
  EXPECT_EQ(static_cast<std::int64_t>(tables[1].values.size()), low);
  EXPECT_EQ(static_cast<std::int64_t>(tables[0].values.size()), (span + low - 1) / low);
  double worst = 0;
  for (std::int64_t e : exponents(span))
    for (bool fused : {false, true}) {
      const Float2 w = multiply(compiled_value(tables[0], e / low), compiled_value(tables[1], e % low), fused);
      worst = std::max(worst, error_of(w, e, span));
    }
  return worst;
}

TEST(TwiddleTables, SpansWithinTheLimitAreOneTableOfEveryPower) {
  for (std::int64_t span : std::initializer_list<std::int64_t>{2, 12, 4096, 5000, emit::max_direct_twiddle_span}) {
    const std::vector<TwiddleTable> tables = emit::twiddle_tables(span);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].name, emit::twiddle_table_name(span));
    ASSERT_EQ(static_cast<std::int64_t>(tables[0].values.size()), span);
    double worst = 0;
    for (std::int64_t e = 0; e < span; ++e) worst = std::max(worst, error_of(compiled_value(tables[0], e), e, span));
    EXPECT_LE(worst, direct_error_bound) << span;
    EXPECT_EQ(emit::twiddle_at(span, "k"), "__ldg(&" + emit::twiddle_table_name(span) + "[k])");
  }
}

TEST(TwiddleTables, LargerSpansAreTwoTablesWhoseProductIsWithinAFewRoundings) {
  for (std::int64_t span : {emit::max_direct_twiddle_span * 2, std::int64_t{1} << 20, std::int64_t{1} << 24,
                            std::int64_t{1} << 27, std::int64_t{3 * 5 * 7} << 14}) {
    const double error = two_level_error(span);
    EXPECT_LE(error, two_level_error_bound) << span;
    std::cout << "span " << span << ": largest |hi*lo - w^e| " << error / fp32_unit_roundoff << " u\n";
    EXPECT_EQ(emit::twiddle_at(span, "k"), "fft3d_twiddle_" + std::to_string(span) + "(k)");
  }
}

// The source of a two-level span is its two tables and the function, about 2 sqrt(span) values: a 2^27 span in
// well under a megabyte.
TEST(TwiddleTables, ATwoLevelSpanWritesAboutTwoSquareRootsOfValues) {
  constexpr std::int64_t span = std::int64_t{1} << 27;
  constexpr std::size_t most_bytes = std::size_t{1} << 20;
  emit::SourceWriter out;
  emit::write_twiddles(out, span);
  const std::string text = out.text();
  EXPECT_LT(text.size(), most_bytes);
  EXPECT_NE(text.find("__device__ __forceinline__ float2 fft3d_twiddle_134217728(unsigned e)"), std::string::npos);
  EXPECT_NE(text.find("fft3d_twiddles_134217728_hi[8192]"), std::string::npos) << text.substr(0, 200);
  EXPECT_NE(text.find("fft3d_twiddles_134217728_lo[16384]"), std::string::npos);
}

}  // namespace
}  // namespace fft3d::testing
