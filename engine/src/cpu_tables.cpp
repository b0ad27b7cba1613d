#include "cpu_tables.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "fft3d/index_maps.hpp"
#include "fft3d/lengths.hpp"

namespace fft3d::cpu {

// In units of 1/(8n) of a turn, e/n is E = 8e: E = q*(2n) + r with q the quadrant and r < 2n; w^e = (-i)^q * w'
// where w' is at r/(8n) of a turn, and past the octant (r > n) cos and sin swap around pi/4. So the long double
// sine and cosine only ever see angles in [0, pi/4], and the reduction is exact integer arithmetic for any n.
// Where 8 divides n the angle 2 pi r/(8n) is computed as (2 pi r)/(8n), which rounds exactly as (2 pi r/8)/n.
std::complex<long double> root_of_unity(std::int64_t e, std::int64_t n) {
  e %= n;
  if (e < 0) e += n;
  // w_n^(n/4) = (+0, -1) where 8 does not divide n (the rotation below would give -0): the sign of an exactly zero
  // output of a power-of-two plan depends on w_4.
  if (n % 8 != 0 && 4 * e == n) return {0, -1};
  const std::int64_t eighths = 8 * e;
  const std::int64_t quarter = 2 * n;
  const std::int64_t q = eighths / quarter;
  const std::int64_t r = eighths % quarter;
  const bool upper_octant = r > n;
  const std::int64_t reduced = upper_octant ? quarter - r : r;
  const long double angle = 2 * std::numbers::pi_v<long double> * static_cast<long double>(reduced) / (8 * n);
  const long double c = std::cos(angle);
  const long double s = std::sin(angle);
  std::complex<long double> w = upper_octant ? std::complex<long double>(s, -c) : std::complex<long double>(c, -s);
  for (std::int64_t turn = 0; turn < q; ++turn) w = {w.imag(), -w.real()};  // times -i, exact
  return w;
}

template <class Real>
RootTables<Real>::RootTables(std::int64_t max_length) {
  for (std::int64_t n = 1; n <= max_length; n *= 2) add(n);
}

template <class Real>
RootTables<Real>::RootTables(const std::set<std::int64_t>& lengths) {
  for (std::int64_t n : lengths) add(n);
}

template <class Real>
void RootTables<Real>::add(std::int64_t n) {
  std::vector<std::complex<Real>> table(static_cast<std::size_t>(n));
  for (std::int64_t e = 0; e < n; ++e) {
    const std::complex<long double> w = root_of_unity(e, n);
    table[static_cast<std::size_t>(e)] = {static_cast<Real>(w.real()), static_cast<Real>(w.imag())};
  }
  by_length_[n] = std::move(table);
}

template <class Real>
const std::complex<Real>* RootTables<Real>::roots(std::int64_t n) const {
  return by_length_.at(n).data();
}

template class RootTables<double>;
template class RootTables<float>;

ColumnDft column_dft(std::int64_t radix) {
  ColumnDft dft;
  dft.factors = prime_factors(radix);
  dft.output_rows = digit_reversed_positions(dft.factors);
  return dft;
}

std::set<std::int64_t> column_root_lengths(const ColumnDft& dft, std::int64_t radix) {
  std::set<std::int64_t> lengths;
  std::int64_t length = radix;
  for (std::int64_t p : dft.factors) {
    lengths.insert(length);
    if (p != 2) lengths.insert(p);
    length /= p;
  }
  return lengths;
}

namespace {

std::map<std::int64_t, ColumnDft> column_dfts_of(const Plan& plan) {
  std::map<std::int64_t, ColumnDft> dfts;
  for (const Kernel& kernel : plan.kernels)
    for (const SubComputation& sub : kernel.subs)
      if (!dfts.contains(sub.radix)) dfts[sub.radix] = column_dft(sub.radix);
  return dfts;
}

std::set<std::int64_t> root_lengths_of(const Plan& plan, const std::map<std::int64_t, ColumnDft>& dfts) {
  std::set<std::int64_t> lengths;
  for (const auto& [radix, dft] : dfts) lengths.merge(column_root_lengths(dft, radix));
  for (const Kernel& kernel : plan.kernels)
    for (const SubComputation& sub : kernel.subs)
      if (sub.twiddle) lengths.insert(sub.span);
  if (kind_of(plan) != TransformKind::c2c) lengths.insert(plan.size.nx);  // the real step's w_NX^k
  return lengths;
}

}  // namespace

PlanTables::PlanTables(const Plan& plan)
    : column_dfts(column_dfts_of(plan)),
      root_lengths(root_lengths_of(plan, column_dfts)),
      fp64(root_lengths),
      fp32(root_lengths) {
  for (Axis axis : all_axes)
    natural_order_sources[axis_index(axis)] = fft3d::digit_reversed_positions(radices_of(plan, axis));
}

}  // namespace fft3d::cpu
