// Primitive level: the radix-r DFT of r values held in one thread's registers, printed from its network
// (emit_radix.hpp): small-prime butterflies with twiddles as literals computed in fp64 (DIF within a prime power,
// the prime-factor algorithm between coprime ones), then one register permutation so output m lands in v[m].
// Trivial twiddles (1, -i, -1, +i) cost no multiplication. The radix-3, 5
// and 7 butterflies use the symmetric form: with s_k = x_k + x_(p-k) and d_k = x_k - x_(p-k),
//   X_m = x_0 + sum_k cos(2 pi km/p) s_k - i sum_k sin(2 pi km/p) d_k,  X_(p-m) = the same with +i,
// so each pair of outputs shares its (p-1)/2 cosine sums and sine sums (one fused multiply-add a term).
#include "emit_radix.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <numbers>
#include <numeric>

#include "emit_parts.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/lengths.hpp"

namespace fft3d::emit {
namespace {

std::string element(std::int64_t i) { return "v[" + std::to_string(i) + "]"; }

// w_span^exponent by kind: the four quarter turns are exact and cost no multiplication.
enum class TwiddleKind { one, minus_i, minus_one, plus_i, general };
struct TwiddleValue {
  TwiddleKind kind = TwiddleKind::one;
  double re = 1, im = 0;
};

TwiddleValue twiddle_value(std::int64_t span, std::int64_t exponent) {
  const std::int64_t e = exponent % span;
  if (e == 0) return {};
  if (4 * e == span) return {TwiddleKind::minus_i, 0, -1};
  if (2 * e == span) return {TwiddleKind::minus_one, -1, 0};
  if (4 * e == 3 * span) return {TwiddleKind::plus_i, 0, 1};
  // -pi * 2e / span: for span = 2h, bit for bit the angle -pi * e / h the radix-2 network has always printed.
  const double angle = -std::numbers::pi * static_cast<double>(2 * e) / static_cast<double>(span);
  return {TwiddleKind::general, std::cos(angle), std::sin(angle)};
}

// A constant of the network as the executor of precision Real uses it: the fp64 value, or in fp32 the printed
// literal read as a float, as the CUDA compiler reads it.
template <class Real>
Real constant(double value);
template <>
double constant<double>(double value) {
  return value;
}
template <>
float constant<float>(double value) {
  return std::strtof(literal(value).c_str(), nullptr);
}

template <class Real>
std::complex<Real> times(std::complex<Real> value, const TwiddleValue& w) {
  switch (w.kind) {
    case TwiddleKind::one: return value;
    case TwiddleKind::minus_i: return {value.imag(), -value.real()};
    case TwiddleKind::minus_one: return -value;
    case TwiddleKind::plus_i: return {-value.imag(), value.real()};
    case TwiddleKind::general: break;
  }
  return value * std::complex<Real>(constant<Real>(w.re), constant<Real>(w.im));
}

// `value` (a float2 expression naming a variable) times w, as a float2 expression.
std::string times_text(const std::string& value, const TwiddleValue& w) {
  switch (w.kind) {
    case TwiddleKind::one: return value;
    case TwiddleKind::minus_i: return "fft3d_mul_minus_i(" + value + ")";
    case TwiddleKind::minus_one: return "make_float2(-" + value + ".x, -" + value + ".y)";
    case TwiddleKind::plus_i: return "make_float2(-" + value + ".y, " + value + ".x)";
    case TwiddleKind::general: break;
  }
  return "fft3d_mul(" + value + ", make_float2(" + literal(w.re) + ", " + literal(w.im) + "))";
}

// cos and sin of 2 pi t / p: the odd-prime butterflies' constants.
double prime_cos(std::int64_t p, std::int64_t t) {
  return std::cos(2.0 * std::numbers::pi * static_cast<double>(t % p) / static_cast<double>(p));
}
double prime_sin(std::int64_t p, std::int64_t t) {
  return std::sin(2.0 * std::numbers::pi * static_cast<double>(t % p) / static_cast<double>(p));
}

std::string sum_name(std::int64_t k) { return "sum" + std::to_string(k); }
std::string dif_name(std::int64_t k) { return "dif" + std::to_string(k); }

// ---- execution ----

template <class Real>
void run_prime_butterfly(std::int64_t p, std::vector<std::complex<Real>>& x) {
  using C = std::complex<Real>;
  if (p == 2) {
    x = {x[0] + x[1], x[0] - x[1]};
    return;
  }
  const std::int64_t half = (p - 1) / 2;
  std::vector<C> sum(half + 1), dif(half + 1), out(p);
  for (std::int64_t k = 1; k <= half; ++k) sum[k] = x[k] + x[p - k], dif[k] = x[k] - x[p - k];
  out[0] = x[0];
  for (std::int64_t k = 1; k <= half; ++k) out[0] += sum[k];
  for (std::int64_t m = 1; m <= half; ++m) {
    C cs = x[0], sn = 0;
    for (std::int64_t k = 1; k <= half; ++k) {
      cs += constant<Real>(prime_cos(p, k * m)) * sum[k];
      sn += constant<Real>(prime_sin(p, k * m)) * dif[k];
    }
    out[m] = {cs.real() + sn.imag(), cs.imag() - sn.real()};
    out[p - m] = {cs.real() - sn.imag(), cs.imag() + sn.real()};
  }
  x = out;
}

template <class Real>
void run_step(const RadixButterfly& b, std::vector<std::complex<Real>>& v) {
  const std::int64_t p = static_cast<std::int64_t>(b.registers.size());
  std::vector<std::complex<Real>> x(p);
  for (std::int64_t k = 0; k < p; ++k) x[k] = v[b.registers[k]];
  run_prime_butterfly(p, x);
  for (std::int64_t m = 0; m < p; ++m) v[b.registers[m]] = times(x[m], twiddle_value(b.twiddle_span, b.exponents[m]));
}

template <class Real>
void run_step(const RadixPermutation& step, std::vector<std::complex<Real>>& v) {
  const std::vector<std::complex<Real>> old = v;
  for (std::size_t m = 0; m < v.size(); ++m) v[m] = old[step.source[m]];
}

template <class Real>
void run_steps(const RadixNetwork& network, std::vector<std::complex<Real>>& v) {
  for (const RadixStep& step : network.steps) std::visit([&](const auto& s) { run_step(s, v); }, step);
}

// ---- printing ----

// "x0.x + 5.00000000e-01f * sum1.x - ...": `first`.c (when given) plus each coefficient times its name's
// component c, the signs folded into the operators.
std::string combination(const std::string& first, const std::vector<std::pair<double, std::string>>& terms,
                        const std::string& c) {
  std::string text = first.empty() ? "" : first + "." + c;
  for (const auto& [coefficient, name] : terms) {
    const std::string product = literal(std::abs(coefficient)) + " * " + name + "." + c;
    if (text.empty())
      text = (coefficient < 0 ? "-" : "") + product;
    else
      text += (coefficient < 0 ? " - " : " + ") + product;
  }
  return text;
}

std::string float2_of(const std::string& x, const std::string& y) { return "make_float2(" + x + ", " + y + ")"; }

// The radix-2 butterfly as the power-of-two network has always printed it: d = a - b; a += b; b = d * w.
void write_radix2(SourceWriter& out, const RadixButterfly& b) {
  const std::string a = element(b.registers[0]), c = element(b.registers[1]);
  out.line("d = fft3d_sub(" + a + ", " + c + "); " + a + " = fft3d_add(" + a + ", " + c + ");");
  const TwiddleValue w0 = twiddle_value(b.twiddle_span, b.exponents[0]);
  if (w0.kind != TwiddleKind::one) out.line(a + " = " + times_text(a, w0) + ";");
  out.line(c + " = " + times_text("d", twiddle_value(b.twiddle_span, b.exponents[1])) + ";");
}

void write_odd_prime(SourceWriter& out, const RadixButterfly& b) {
  const std::int64_t p = static_cast<std::int64_t>(b.registers.size());
  const std::int64_t half = (p - 1) / 2;
  const auto reg = [&](std::int64_t k) { return element(b.registers[k]); };
  out.line("x0 = " + reg(0) + ";");
  for (std::int64_t k = 1; k <= half; ++k)
    out.line(sum_name(k) + " = fft3d_add(" + reg(k) + ", " + reg(p - k) + "); " + dif_name(k) + " = fft3d_sub(" +
             reg(k) + ", " + reg(p - k) + ");");
  std::string sum_x = "x0.x", sum_y = "x0.y";
  for (std::int64_t k = 1; k <= half; ++k) sum_x += " + " + sum_name(k) + ".x", sum_y += " + " + sum_name(k) + ".y";
  out.line(reg(0) + " = " + float2_of(sum_x, sum_y) + ";");
  for (std::int64_t m = 1; m <= half; ++m) {
    std::vector<std::pair<double, std::string>> cosines, sines;
    for (std::int64_t k = 1; k <= half; ++k) {
      cosines.emplace_back(prime_cos(p, k * m), sum_name(k));
      sines.emplace_back(prime_sin(p, k * m), dif_name(k));
    }
    out.line("cs = " + float2_of(combination("x0", cosines, "x"), combination("x0", cosines, "y")) + ";");
    out.line("sn = " + float2_of(combination("", sines, "x"), combination("", sines, "y")) + ";");
    out.line(reg(m) + " = make_float2(cs.x + sn.y, cs.y - sn.x); " + reg(p - m) +
             " = make_float2(cs.x - sn.y, cs.y + sn.x);");
  }
  for (std::int64_t m = 0; m < p; ++m) {
    const TwiddleValue w = twiddle_value(b.twiddle_span, b.exponents[m]);
    if (w.kind != TwiddleKind::one) out.line(reg(m) + " = " + times_text(reg(m), w) + ";");
  }
}

// Each cycle of the permutation through the temporary d, from its smallest register: for an involution (the
// bit reversal) the swaps "d = v[m]; v[m] = v[r]; v[r] = d;" for m < r.
void write_permutation(SourceWriter& out, const RadixPermutation& step) {
  const std::int64_t n = static_cast<std::int64_t>(step.source.size());
  std::vector<bool> done(n, false);
  for (std::int64_t start = 0; start < n; ++start) {
    if (done[start] || step.source[start] == start) continue;
    std::string text = "d = " + element(start) + ";";
    std::int64_t at = start;
    for (; step.source[at] != start; at = step.source[at]) {
      done[at] = true;
      text += " " + element(at) + " = " + element(step.source[at]) + ";";
    }
    done[at] = true;
    out.line(text + " " + element(at) + " = d;");
  }
}

// The temporaries of the odd-prime butterflies, for the largest odd prime of the network (nothing without one).
void declare_odd_prime_temporaries(SourceWriter& out, const std::vector<std::int64_t>& primes) {
  const std::int64_t largest = *std::max_element(primes.begin(), primes.end());
  if (largest == 2) return;
  std::string names = "float2 x0";
  for (std::int64_t k = 1; k <= (largest - 1) / 2; ++k) names += ", " + sum_name(k) + ", " + dif_name(k);
  out.line(names + ", cs, sn;");
}

std::vector<std::int64_t> append_dft(std::vector<RadixStep>& steps, const std::vector<std::int64_t>& inputs);

// The DIF stages of a prime-power DFT (every prime of `primes` the same) on `inputs`; returns the register of each
// output, its digit-reversed position.
std::vector<std::int64_t> append_prime_power_dft(std::vector<RadixStep>& steps, const std::vector<std::int64_t>& inputs,
                                                 const std::vector<std::int64_t>& primes) {
  const std::int64_t n = static_cast<std::int64_t>(inputs.size());
  std::int64_t span = n;
  for (const std::int64_t p : primes) {
    const std::int64_t stride = span / p;
    for (std::int64_t block = 0; block < n; block += span)
      for (std::int64_t j = 0; j < stride; ++j) {
        RadixButterfly b{{}, span, {}};
        for (std::int64_t k = 0; k < p; ++k) {
          b.registers.push_back(inputs[block + j + k * stride]);
          b.exponents.push_back(j * k);
        }
        steps.emplace_back(std::move(b));
      }
    span = stride;
  }
  std::vector<std::int64_t> outputs;
  for (const std::int64_t position : digit_reversed_positions(primes)) outputs.push_back(inputs[position]);
  return outputs;
}

// The prime-factor algorithm for n = n1*n2, n1 and n2 coprime (radix_network's contract).
std::vector<std::int64_t> append_prime_factor_dft(std::vector<RadixStep>& steps,
                                                  const std::vector<std::int64_t>& inputs, std::int64_t n1) {
  const std::int64_t n = static_cast<std::int64_t>(inputs.size()), n2 = n / n1;
  std::vector<std::vector<std::int64_t>> columns;  // columns[k2][m1]: the register of the n1-point output m1
  for (std::int64_t k2 = 0; k2 < n2; ++k2) {
    std::vector<std::int64_t> column;
    for (std::int64_t k1 = 0; k1 < n1; ++k1) column.push_back(inputs[(k1 * n2 + k2 * n1) % n]);
    columns.push_back(append_dft(steps, column));
  }
  std::vector<std::int64_t> outputs(static_cast<std::size_t>(n));
  for (std::int64_t m1 = 0; m1 < n1; ++m1) {
    std::vector<std::int64_t> row;
    for (std::int64_t k2 = 0; k2 < n2; ++k2) row.push_back(columns[k2][m1]);
    const std::vector<std::int64_t> row_outputs = append_dft(steps, row);
    for (std::int64_t m = m1; m < n; m += n1) outputs[m] = row_outputs[m % n2];  // m = m1 (mod n1)
  }
  return outputs;
}

// The DFT of the values in registers `inputs` (input k in inputs[k]) appended to `steps`; returns the register
// holding each output.
std::vector<std::int64_t> append_dft(std::vector<RadixStep>& steps, const std::vector<std::int64_t>& inputs) {
  const std::int64_t n = static_cast<std::int64_t>(inputs.size());
  if (n == 1) return inputs;
  const std::vector<std::int64_t> primes = radix_network_primes(n);
  const std::int64_t largest = primes.front();
  const std::int64_t power = std::accumulate(primes.begin(), primes.end(), std::int64_t{1},
                                             [&](std::int64_t p, std::int64_t q) { return q == largest ? p * q : p; });
  if (power == n) return append_prime_power_dft(steps, inputs, primes);
  return append_prime_factor_dft(steps, inputs, power);
}

}  // namespace

std::vector<std::int64_t> radix_network_primes(std::int64_t radix) {
  if (radix < 1 || !is_supported_length(radix))
    throw UsageError("no in-register DFT for radix " + std::to_string(radix) +
                     ": radices must factor into 2, 3, 5 and 7");
  std::vector<std::int64_t> primes = prime_factors(radix);
  // Odd primes first (largest first), the twos last: a power of two keeps the radix-2 network unchanged.
  std::stable_sort(primes.begin(), primes.end(), [](std::int64_t a, std::int64_t b) {
    return (a == 2) != (b == 2) ? b == 2 : a > b;
  });
  return primes;
}

RadixNetwork radix_network(std::int64_t radix) {
  radix_network_primes(radix);  // refuses an unsupported factor
  RadixNetwork network{radix, {}};
  std::vector<std::int64_t> inputs(static_cast<std::size_t>(radix));
  std::iota(inputs.begin(), inputs.end(), 0);
  RadixPermutation order{append_dft(network.steps, inputs)};
  if (!std::is_sorted(order.source.begin(), order.source.end())) network.steps.emplace_back(std::move(order));
  return network;
}

void run_radix_network(const RadixNetwork& network, std::vector<std::complex<double>>& v) { run_steps(network, v); }
void run_radix_network(const RadixNetwork& network, std::vector<std::complex<float>>& v) { run_steps(network, v); }

std::string radix_function_name(std::int64_t radix) { return "dft_r" + std::to_string(radix); }

std::string literal(double value) {
  char text[32];
  if (current_precision() == Precision::fp64) {
    // 17 significant digits round-trip every double: the compiler reads back the fp64 value computed here.
    const auto end = std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific, 16).ptr;
    return std::string(text, end);
  }
  // 9 significant digits round-trip every fp32 value; the double is rounded to float once, by the compiler.
  const auto end = std::to_chars(text, text + sizeof(text), value, std::chars_format::scientific, 8).ptr;
  return std::string(text, end) + "f";
}

void write_radix_function(SourceWriter& out, std::int64_t radix) {
  const RadixNetwork network = radix_network(radix);
  out.line("// " + std::to_string(radix) + "-point DFT, forward sign, natural order in and out.");
  out.open("__device__ __forceinline__ void " + radix_function_name(radix) + "(float2* v)");
  // d: the radix-2 butterflies' difference and the permutation's carry (every network of a power of two over 1
  // has radix-2 butterflies); x0 ... sn: the odd-prime butterflies'.
  const bool uses_d = std::any_of(network.steps.begin(), network.steps.end(), [](const RadixStep& step) {
    const auto* b = std::get_if<RadixButterfly>(&step);
    return !b || b->registers.size() == 2;
  });
  if (uses_d) out.line("float2 d;");
  if (radix > 1) declare_odd_prime_temporaries(out, radix_network_primes(radix));
  for (const RadixStep& step : network.steps) {
    if (const auto* b = std::get_if<RadixButterfly>(&step))
      b->registers.size() == 2 ? write_radix2(out, *b) : write_odd_prime(out, *b);
    else
      write_permutation(out, std::get<RadixPermutation>(step));
  }
  out.close();
}

}  // namespace fft3d::emit
