// Primitive level: the radix-r DFT of r values held in one thread's registers. A radix-2 decimation-in-frequency
// network (log2 r rounds of r/2 butterflies) with twiddles as literals computed in fp64, then the bit-reversal
// permutation so output m lands in v[m]. Trivial twiddles (1, -i) cost no multiplication.
#include <cmath>
#include <numbers>
#include <charconv>

#include "emit_parts.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::emit {
namespace {

std::string element(std::int64_t i) { return "v[" + std::to_string(i) + "]"; }

// One butterfly of the round of half-size h: a = v[i], b = v[i+h]; v[i] = a + b; v[i+h] = (a - b) * w_{2h}^q.
void write_butterfly(SourceWriter& out, std::int64_t i, std::int64_t h, std::int64_t q) {
  const std::string a = element(i), b = element(i + h);
  out.line("d = fft3d_sub(" + a + ", " + b + "); " + a + " = fft3d_add(" + a + ", " + b + ");");
  if (q == 0) {
    out.line(b + " = d;");
  } else if (4 * q == 2 * h) {
    out.line(b + " = fft3d_mul_minus_i(d);");
  } else {
    const double angle = -std::numbers::pi * static_cast<double>(q) / static_cast<double>(h);
    out.line(b + " = fft3d_mul(d, make_float2(" + literal(std::cos(angle)) + ", " + literal(std::sin(angle)) +
             "));");
  }
}

std::int64_t bit_reverse(std::int64_t value, int bits) {
  std::int64_t reversed = 0;
  for (int b = 0; b < bits; ++b) reversed |= ((value >> b) & 1) << (bits - 1 - b);
  return reversed;
}

}  // namespace

std::string radix_function_name(std::int64_t radix) { return "dft_r" + std::to_string(radix); }

std::string literal(double value) {
  // 9 significant digits round-trip every fp32 value; the double is rounded to float once, by the compiler.
  char text[32];
  const auto end = std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific, 8).ptr;
  return std::string(text, end) + "f";
}

void write_radix_function(SourceWriter& out, std::int64_t radix) {
  out.line("// " + std::to_string(radix) + "-point DFT, forward sign, natural order in and out.");
  out.open("__device__ __forceinline__ void " + radix_function_name(radix) + "(float2* v)");
  if (radix > 1) out.line("float2 d;");
  for (std::int64_t h = radix / 2; h >= 1; h /= 2)
    for (std::int64_t block = 0; block < radix; block += 2 * h)
      for (std::int64_t q = 0; q < h; ++q) write_butterfly(out, block + q, h, q);
  const int bits = tile::log2_exact(radix);
  for (std::int64_t m = 0; m < radix; ++m) {
    const std::int64_t r = bit_reverse(m, bits);
    if (m < r) out.line("d = " + element(m) + "; " + element(m) + " = " + element(r) + "; " + element(r) + " = d;");
  }
  out.close();
}

}  // namespace fft3d::emit
