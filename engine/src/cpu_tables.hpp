// Tables the CPU backend computes once per plan: roots of unity, and the orders in which butterflies and the
// natural-order permutation pick their rows. Private to the CPU backend.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <map>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d::cpu {

// w_n^e = e^(-2 pi i e / n), correctly rounded from long double after an exact integer reduction of e to the first
// octant, so every value is within ~1 ulp (a table built by repeated multiplication drifts by ~log n ulp).
std::complex<long double> root_of_unity(std::int64_t e, std::int64_t n);

// w_n^e for every power of two n <= max_length and every e < n, in Real.
template <class Real>
class RootTables {
 public:
  explicit RootTables(std::int64_t max_length);
  // @pre n a power of two <= max_length; @post roots(n)[e] == w_n^e for 0 <= e < n
  const std::complex<Real>* roots(std::int64_t n) const;

 private:
  std::vector<std::vector<std::complex<Real>>> by_log2_;
};

// What one precision needs to run a plan.
template <class Real>
struct PrecisionTables {
  explicit PrecisionTables(std::int64_t max_length) : roots(max_length) {}
  RootTables<Real> roots;
};

// Precision-independent tables of a plan.
struct PlanTables {
  explicit PlanTables(const Plan& plan);

  // Where a radix-r DIF FFT of radix-2 steps leaves output m: dif_output_rows.at(r)[m] (bit reversal of m).
  std::map<std::int64_t, std::vector<std::int64_t>> dif_output_rows;
  // Per axis: natural_order_sources[a][f] = digit_reversed_position(f): where the permutation to natural order
  // reads frequency f.
  std::array<std::vector<std::int64_t>, 3> natural_order_sources;
  std::int64_t max_length = 1;  // the longest axis
  PrecisionTables<double> fp64;
  PrecisionTables<float> fp32;
};

template <class Real> const PrecisionTables<Real>& tables_for(const PlanTables& tables);
template <> inline const PrecisionTables<double>& tables_for<double>(const PlanTables& t) { return t.fp64; }
template <> inline const PrecisionTables<float>& tables_for<float>(const PlanTables& t) { return t.fp32; }

}  // namespace fft3d::cpu
