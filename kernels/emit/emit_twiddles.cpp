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

// w_span^t in fp64.
std::complex<double> twiddle(std::int64_t t, std::int64_t span) {
  const double angle = -2.0 * std::numbers::pi * static_cast<double>(t) / static_cast<double>(span);
  return {std::cos(angle), std::sin(angle)};
}

// {w^(step * i) : i < count}.
std::vector<std::complex<double>> powers(std::int64_t span, std::int64_t step, std::int64_t count) {
  std::vector<std::complex<double>> values;
  values.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) values.push_back(twiddle(step * i, span));
  return values;
}

std::string function_name(std::int64_t span) { return "fft3d_twiddle_" + str(span); }

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
  return {{name + "_hi", powers(span, low, (span + low - 1) / low)}, {name + "_lo", powers(span, 1, low)}};
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
  out.line("// w_" + str(span) + "^e = w^(" + str(low) + " (e / " + str(low) + ")) * w^(e % " + str(low) + ")");
  out.open("__device__ __forceinline__ float2 " + function_name(span) + "(unsigned e)");
  out.line("return fft3d_mul(__ldg(&" + tables[0].name + "[e >> " + str(std::countr_zero(static_cast<std::uint64_t>(low))) +
           "]), __ldg(&" + tables[1].name + "[e & " + str(low - 1) + "u]));");
  out.close();
}

std::string twiddle_at(std::int64_t span, const std::string& index) {
  if (is_two_level(span)) return function_name(span) + "(" + index + ")";
  return "__ldg(&" + twiddle_table_name(span) + "[" + index + "])";
}

}  // namespace fft3d::emit
