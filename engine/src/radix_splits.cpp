#include "radix_splits.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <map>

#include "fft3d/lengths.hpp"

namespace fft3d::planning {
namespace {

bool is_power_of_two(std::int64_t n) { return std::has_single_bit(static_cast<std::uint64_t>(n)); }

// The divisors of n in [2, max_radix], ascending.
std::vector<std::int64_t> radix_divisors(std::int64_t n, std::int64_t max_radix) {
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 2; d <= std::min(n, max_radix); ++d)
    if (n % d == 0) divisors.push_back(d);
  return divisors;
}

// max(a)/min(a) < max(b)/min(b), exactly (cross-multiplied).
bool less_imbalanced(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  const auto [a_min, a_max] = std::minmax_element(a.begin(), a.end());
  const auto [b_min, b_max] = std::minmax_element(b.begin(), b.end());
  return *a_max * *b_min < *b_max * *a_min;
}

}  // namespace

std::optional<int> stages_needed(std::int64_t n, std::int64_t max_radix) {
  if (n == 1) return 0;
  const std::vector<std::int64_t> primes = prime_factors(n);
  if (primes.back() > max_radix) return std::nullopt;
  const std::vector<std::int64_t> divisors = radix_divisors(n, max_radix);
  std::map<std::int64_t, int> fewest{{1, 0}};  // by the part of n left to split
  const std::function<int(std::int64_t)> solve = [&](std::int64_t left) {
    if (const auto known = fewest.find(left); known != fewest.end()) return known->second;
    int best = std::numeric_limits<int>::max();
    for (const std::int64_t d : divisors) {
      if (d > left) break;
      if (left % d == 0) best = std::min(best, 1 + solve(left / d));
    }
    return fewest[left] = best;
  };
  return solve(n);
}

std::vector<std::vector<std::int64_t>> radix_splits(std::int64_t n, int stages, std::int64_t max_radix) {
  if (stages == 0) return n == 1 ? std::vector<std::vector<std::int64_t>>{{}} : std::vector<std::vector<std::int64_t>>{};
  const std::vector<std::int64_t> divisors = radix_divisors(n, max_radix);
  std::vector<std::vector<std::int64_t>> splits;
  std::vector<std::int64_t> radices;
  const std::function<void(std::int64_t)> fill = [&](std::int64_t left) {
    if (static_cast<int>(radices.size()) == stages - 1) {
      if (left >= 2 && left <= max_radix) {
        radices.push_back(left);
        splits.push_back(radices);
        radices.pop_back();
      }
      return;
    }
    for (const std::int64_t d : divisors) {
      if (d > left) break;
      if (left % d != 0) continue;
      radices.push_back(d);
      fill(left / d);
      radices.pop_back();
    }
  };
  fill(n);
  std::sort(splits.begin(), splits.end(), [](const auto& a, const auto& b) {
    if (less_imbalanced(a, b)) return true;
    if (less_imbalanced(b, a)) return false;
    return b < a;  // larger radices first
  });
  return splits;
}

std::int64_t trailing_power_of_two(const std::vector<std::int64_t>& radices) {
  std::int64_t product = 1;
  for (auto radix = radices.rbegin(); radix != radices.rend() && is_power_of_two(*radix); ++radix) product *= *radix;
  return product;
}

bool keeps_x_chunks(std::int64_t n, const std::vector<std::int64_t>& radices) {
  const std::int64_t power_of_two_part = n & -n;
  return trailing_power_of_two(radices) >= std::min(x_chunk_elements, power_of_two_part);
}

std::vector<std::vector<std::int64_t>> x_radix_splits(std::int64_t n, int stages, std::int64_t max_radix) {
  std::vector<std::vector<std::int64_t>> splits = radix_splits(n, stages, max_radix);
  std::stable_partition(splits.begin(), splits.end(),
                        [&](const std::vector<std::int64_t>& radices) { return keeps_x_chunks(n, radices); });
  return splits;
}

int most_stages(std::int64_t n) { return static_cast<int>(prime_factors(n).size()); }

}  // namespace fft3d::planning
