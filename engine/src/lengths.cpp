#include "fft3d/lengths.hpp"

#include <algorithm>
#include <limits>

namespace fft3d {
namespace {

// Trial division stops here: a cofactor left over is named whole (it may be composite), which keeps a message about
// a length near 2^58 instant.
constexpr std::int64_t trial_division_limit = std::int64_t{1} << 20;

// n with every supported factor divided out: 1 exactly when n is supported.
std::int64_t unsupported_part(std::int64_t n) {
  for (std::int64_t factor : supported_factors)
    while (n % factor == 0) n /= factor;
  return n;
}

// Calls visit(m) for every odd supported m = 3^b 5^c 7^d <= limit: each supported length is m times a power of two.
template <class Visit>
void for_each_odd_supported(std::int64_t limit, Visit visit) {
  for (std::int64_t a = 1; a <= limit; a *= 3)
    for (std::int64_t b = a; b <= limit; b *= 5)
      for (std::int64_t c = b; c <= limit; c *= 7) {
        visit(c);
        if (c > limit / 7) break;
      }
}

}  // namespace

bool is_supported_length(std::int64_t n) { return n >= 1 && unsupported_part(n) == 1; }

std::vector<std::int64_t> prime_factors(std::int64_t n) {
  std::vector<std::int64_t> factors;
  for (std::int64_t p = 2; p <= n / p && p <= trial_division_limit; ++p)
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  if (n > 1) factors.push_back(n);
  return factors;
}

std::string factorization_text(std::int64_t n) {
  std::string text;
  for (std::int64_t p : prime_factors(n)) text += (text.empty() ? "" : "·") + std::to_string(p);
  return text.empty() ? "1" : text;
}

std::int64_t supported_length_below(std::int64_t n) {
  std::int64_t best = 1;
  for_each_odd_supported(n, [&](std::int64_t m) {
    std::int64_t v = m;
    while (v <= n / 2) v *= 2;
    best = std::max(best, v);
  });
  return best;
}

std::int64_t supported_length_above(std::int64_t n) {
  // The answer is at most the power of two at or above n, below 2n: so is its odd part.
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for_each_odd_supported(2 * n, [&](std::int64_t m) {
    std::int64_t v = m;
    while (v < n) v *= 2;
    best = std::min(best, v);
  });
  return best;
}

std::string unsupported_length_reason(std::int64_t n) {
  std::int64_t first_unsupported = unsupported_part(n);
  for (std::int64_t p : prime_factors(n))
    if (std::find(supported_factors.begin(), supported_factors.end(), p) == supported_factors.end()) {
      first_unsupported = p;
      break;
    }
  return std::to_string(n) + " = " + factorization_text(n) + ": " + std::to_string(first_unsupported) +
         " is not a supported factor (lengths must factor into 2, 3, 5 and 7); the nearest supported lengths are " +
         std::to_string(supported_length_below(n)) + " and " + std::to_string(supported_length_above(n));
}

Extents squeezed_extents(const Extents& size, TransformKind kind) {
  const bool keeps_x = kind != TransformKind::c2c;  // a real kind's X holds its reals
  std::vector<std::int64_t> lengths;
  if (keeps_x) lengths.push_back(size.nx);
  for (Axis axis : all_axes)
    if ((axis != Axis::x || !keeps_x) && size[axis] != 1) lengths.push_back(size[axis]);
  lengths.resize(all_axes.size(), 1);
  return {lengths[0], lengths[1], lengths[2]};
}

}  // namespace fft3d
