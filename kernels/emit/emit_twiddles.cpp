#include "emit_twiddles.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "emit_parts.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

bool is_two_level(std::int64_t span) { return span > max_direct_twiddle_span; }

// A component of a twiddle under this is the long-double rounding of an exact zero (a quarter turn's): the smallest
// nonzero component, sin(2 pi / span), is over 1e-9 for every span under 2^32.
constexpr long double exact_zero_limit = 1e-15L;

long double snapped(long double value) { return std::abs(value) < exact_zero_limit ? 0.0L : value; }

// w_span^t rounded once to fp64: the angle in long double (x86's 64-bit significand) from t mod span, so that the
// fp64 tables hold the nearest doubles and not cos and sin of a rounded angle (up to 2 pi u off near 2 pi), and
// quarter turns exact zeros.
std::complex<double> twiddle(std::int64_t t, std::int64_t span) {
  const long double turn = static_cast<long double>(t % span) / static_cast<long double>(span);
  const long double angle = -2.0L * std::numbers::pi_v<long double> * turn;
  return {static_cast<double>(snapped(std::cos(angle))), static_cast<double>(snapped(std::sin(angle)))};
}

// {w^(step * i) : i < count}.
std::vector<std::complex<double>> powers(std::int64_t span, std::int64_t step, std::int64_t count) {
  std::vector<std::complex<double>> values;
  values.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) values.push_back(twiddle(step * i, span));
  return values;
}

std::string function_name(std::int64_t span) { return "fft3d_twiddle_" + str(span); }

// A term whose magnitude is under this fraction of the unit roundoff changes no result by more than it.
constexpr double negligible_roundoff_fraction = 1.0 / 16;

double unit_roundoff(Precision precision) { return precision == Precision::fp64 ? 0x1p-53 : 0x1p-24; }

// Taylor's coefficients (-1)^k / (2k + first)! while the term at largest_t is not negligible: first = 0 for
// cos t, first = 1 for sin t / t.
std::vector<double> series_terms(int first, double largest_t, double negligible) {
  std::vector<double> terms;
  double coefficient = 1;
  for (int n = first; std::abs(coefficient) * std::pow(largest_t, n - first) >= negligible; n += 2) {
    terms.push_back(coefficient);
    coefficient = -coefficient / ((n + 1) * (n + 2));
  }
  return terms;
}

// c0 + t2 * (c1 + t2 * (c2 + ...)) in the current precision's literals.
std::string horner(const std::vector<double>& terms) {
  std::string text = literal(terms.back());
  for (auto term = terms.rbegin() + 1; term != terms.rend(); ++term) text = literal(*term) + " + t2 * (" + text + ")";
  return text;
}

}  // namespace

std::string twiddle_table_name(std::int64_t span) { return "fft3d_twiddles_" + str(span); }

std::int64_t two_level_low_length(std::int64_t span) {
  const auto root = static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(span))));
  return static_cast<std::int64_t>(std::bit_ceil(root));
}

std::vector<TwiddleTable> twiddle_tables(std::int64_t span) {
  const std::string name = twiddle_table_name(span);
  if (!is_two_level(span)) return {{name, powers(span, 1, span)}};
  const std::int64_t low = two_level_low_length(span);
  return {{name + "_hi", powers(span, low, (span + low - 1) / low)}};
}

LowSeries low_series(std::int64_t span, Precision precision) {
  LowSeries series;
  series.step = 2.0 * std::numbers::pi / static_cast<double>(span);
  const double largest_t = series.step * static_cast<double>(two_level_low_length(span) - 1);
  const double negligible = negligible_roundoff_fraction * unit_roundoff(precision);
  series.cos_terms = series_terms(0, largest_t, negligible);
  series.sin_terms = series_terms(1, largest_t, negligible);
  return series;
}

void write_twiddle_table(SourceWriter& out, const TwiddleTable& table) {
  const auto count = static_cast<std::int64_t>(table.values.size());
  out.open("__device__ const float2 " + table.name + "[" + str(count) + "] =");
  for (std::int64_t t = 0; t < count; t += 4) {
    std::string row;
    for (std::int64_t u = t; u < std::min(t + 4, count); ++u) {
      const std::complex<double> w = table.values[static_cast<std::size_t>(u)];
      row += "{" + literal(w.real()) + ", " + literal(w.imag()) + "}, ";
    }
    out.line(row);
  }
  out.close(";");
}

void write_twiddles(SourceWriter& out, std::int64_t span) {
  const std::vector<TwiddleTable> tables = twiddle_tables(span);
  for (const TwiddleTable& table : tables) write_twiddle_table(out, table);
  if (!is_two_level(span)) return;
  const std::int64_t low = two_level_low_length(span);
  const LowSeries series = low_series(span, current_precision());
  out.line("// w_" + str(span) + "^e = w^(" + str(low) + " (e / " + str(low) + ")) * exp(-i t), t = 2 pi (e % " + str(low) +
           ") / " + str(span) + ": cos and sin of the small angle t as series to this precision's rounding");
  out.open("__device__ __forceinline__ float2 " + function_name(span) + "(unsigned e)");
  out.line("const float t = (float)(e & " + str(low - 1) + "u) * " + literal(series.step) + ";");
  out.line("const float t2 = t * t;");
  out.line("const float2 low = make_float2(" + horner(series.cos_terms) + ", -t * (" + horner(series.sin_terms) + "));");
  out.line("return fft3d_mul(__ldg(&" + tables[0].name + "[e >> " + str(std::countr_zero(static_cast<std::uint64_t>(low))) +
           "]), low);");
  out.close();
}

std::string twiddle_at(std::int64_t span, const std::string& index) {
  if (is_two_level(span)) return function_name(span) + "(" + index + ")";
  return "__ldg(&" + twiddle_table_name(span) + "[" + index + "])";
}

}  // namespace fft3d::emit
