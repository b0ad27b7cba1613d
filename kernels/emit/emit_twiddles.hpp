// Twiddle tables of a kernel: w_span^t = exp(-2 pi i t / span), computed in fp64 and rounded once to fp32 by the
// compiler reading the printed literals: the most accurate fp32 twiddle, and a load instead of a sincos keeps
// radix-32 stages within the register file. A span up to max_direct_twiddle_span is one table of `span` values; a
// larger one is w^e = hi[e / L] * exp(-i t), t = 2 pi (e % L) / span, with L = two_level_low_length(span): one
// table of about sqrt(span) values (a 2^22-point span written out is over 100 MB of text, which NVRTC cannot
// compile in useful time) and a short series for the small angle t, exact to the precision's rounding. Why the
// series and not a second table: a second scattered load a value held the 1D four-step kernels on their loads
// (docs/performance.md, ledger "four-step twiddle series").
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "source_writer.hpp"

namespace fft3d::emit {

// The largest span written as one table: above every span of the shipped and golden kernels (their text stays byte
// for byte what it was), and small enough that a table is at most a few hundred kB of source.
inline constexpr std::int64_t max_direct_twiddle_span = std::int64_t{1} << 14;

// L of a two-level span: the power of two at or above sqrt(span), so that e / L and e % L are a shift and a mask
// and the two tables hold about 2 sqrt(span) values together.
std::int64_t two_level_low_length(std::int64_t span);

// One __device__ table: its name and its values in fp64 (printed as fp32 literals).
struct TwiddleTable {
  std::string name;
  std::vector<std::complex<double>> values;
};

// The tables of a span: {fft3d_twiddles_<span>} with w^t, t < span; or, over max_direct_twiddle_span,
// {fft3d_twiddles_<span>_hi with w^(L q), q < ceil(span / L)}.
std::vector<TwiddleTable> twiddle_tables(std::int64_t span);

// The low factor of a two-level span, exp(-i t) with t = step * r, r < L: cos t = sum_k cos_terms[k] t^(2k) and
// sin t = t * sum_k sin_terms[k] t^(2k), Taylor's coefficients (1, -1/2, 1/24, ...; 1, -1/6, 1/120, ...) up to the
// last whose term at the largest t is above a sixteenth of the precision's unit roundoff.
struct LowSeries {
  double step = 0;  // 2 pi / span
  std::vector<double> cos_terms;
  std::vector<double> sin_terms;
};
LowSeries low_series(std::int64_t span, Precision precision);

// `__device__ const float2 <name>[n] = { ... };`, four values a line.
void write_twiddle_table(SourceWriter& out, const TwiddleTable& table);

// Every table of `span`, and for a two-level span the device function fft3d_twiddle_<span>(e) = hi * the low
// series (in the current precision, emit_parts.hpp).
void write_twiddles(SourceWriter& out, std::int64_t span);

// The expression of w_span^index, index < span an unsigned expression: "__ldg(&fft3d_twiddles_<span>[index])", or
// "fft3d_twiddle_<span>(index)" for a two-level span.
std::string twiddle_at(std::int64_t span, const std::string& index);

}  // namespace fft3d::emit
