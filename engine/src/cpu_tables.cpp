#include "cpu_tables.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "fft3d/index_maps.hpp"

namespace fft3d::cpu {

std::complex<long double> root_of_unity(std::int64_t e, std::int64_t n) {
  e %= n;
  if (e < 0) e += n;
  if (n % 8 != 0) {  // n in {1, 2, 4} for power-of-two lengths: few values, no octant to reduce to
    const long double angle = -2 * std::numbers::pi_v<long double> * static_cast<long double>(e) / n;
    if (2 * e == n) return {-1, 0};
    if (4 * e == n) return {0, -1};
    if (4 * e == 3 * n) return {0, 1};
    return {std::cos(angle), std::sin(angle)};
  }
  // e = q*(n/4) + r: w^e = (-i)^q * w^r with r < n/4, and for r > n/8 cos/sin swap around pi/4, so the long double
  // sine and cosine only ever see angles in [0, pi/4].
  const std::int64_t quarter = n / 4;
  const std::int64_t q = e / quarter;
  const std::int64_t r = e % quarter;
  const bool upper_octant = 2 * r > quarter;
  const std::int64_t reduced = upper_octant ? quarter - r : r;
  const long double angle = 2 * std::numbers::pi_v<long double> * static_cast<long double>(reduced) / n;
  const long double c = std::cos(angle);
  const long double s = std::sin(angle);
  std::complex<long double> w = upper_octant ? std::complex<long double>(s, -c) : std::complex<long double>(c, -s);
  for (std::int64_t turn = 0; turn < q; ++turn) w = {w.imag(), -w.real()};  // times -i, exact
  return w;
}

template <class Real>
RootTables<Real>::RootTables(std::int64_t max_length) {
  for (std::int64_t n = 1; n <= max_length; n *= 2) {
    std::vector<std::complex<Real>> table(static_cast<std::size_t>(n));
    for (std::int64_t e = 0; e < n; ++e) {
      const std::complex<long double> w = root_of_unity(e, n);
      table[static_cast<std::size_t>(e)] = {static_cast<Real>(w.real()), static_cast<Real>(w.imag())};
    }
    by_log2_.push_back(std::move(table));
  }
}

template <class Real>
const std::complex<Real>* RootTables<Real>::roots(std::int64_t n) const {
  return by_log2_.at(static_cast<std::size_t>(std::countr_zero(static_cast<std::uint64_t>(n)))).data();
}

template class RootTables<double>;
template class RootTables<float>;

namespace {

std::int64_t longest_axis(const Plan& plan) {
  return std::max({plan.size.nx, plan.size.ny, plan.size.nz});
}

}  // namespace

PlanTables::PlanTables(const Plan& plan)
    : max_length(longest_axis(plan)), fp64(max_length), fp32(max_length) {
  for (const Kernel& kernel : plan.kernels) {
    for (const SubComputation& sub : kernel.subs) {
      if (dif_output_rows.contains(sub.radix)) continue;
      const std::vector<std::int64_t> radix2_steps(static_cast<std::size_t>(std::countr_zero(
                                                       static_cast<std::uint64_t>(sub.radix))), 2);
      dif_output_rows[sub.radix] = fft3d::digit_reversed_positions(radix2_steps);
    }
  }
  for (Axis axis : all_axes)
    natural_order_sources[axis_index(axis)] = fft3d::digit_reversed_positions(radices_of(plan, axis));
}

}  // namespace fft3d::cpu
