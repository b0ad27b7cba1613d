// Tables the CPU backend computes once per plan: roots of unity, the prime steps of each radix's column DFT, and the
// orders in which the column DFTs and the natural-order permutation leave their rows. Private to the CPU backend.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d::cpu {

// w_n^e = e^(-2 pi i e / n) for any n >= 1, correctly rounded from long double after an exact integer reduction of
// e/n to the first octant [0, 1/8] of a turn, so every value is within ~1 ulp (a table built by repeated
// multiplication drifts by ~log n ulp). Exact at multiples of a quarter turn.
std::complex<long double> root_of_unity(std::int64_t e, std::int64_t n);

// w_n^e for every n of a set of lengths and every e < n, in Real.
template <class Real>
class RootTables {
 public:
  // Every power of two n <= max_length.
  explicit RootTables(std::int64_t max_length);
  // Every n in `lengths` (each >= 1).
  explicit RootTables(const std::set<std::int64_t>& lengths);
  // @pre n one of the table's lengths (else std::out_of_range); @post roots(n)[e] == w_n^e for 0 <= e < n
  const std::complex<Real>* roots(std::int64_t n) const;

 private:
  void add(std::int64_t n);
  std::map<std::int64_t, std::vector<std::complex<Real>>> by_length_;
};

// The radix-point DFT of a scratch column as the CPU backend computes it: decimation in frequency by prime steps,
// the step of prime p on sub-length L doing p-point DFTs over rows L/p apart, then the twiddles w_L^(i*q).
struct ColumnDft {
  // The primes in the order their steps run: ascending, so a power-of-two radix runs radix-2 steps only.
  std::vector<std::int64_t> factors;
  // Output m of the DFT ends in row output_rows[m]: digit_reversed_positions(factors).
  std::vector<std::int64_t> output_rows;
};

// @pre radix >= 1 with prime factors in supported_factors
ColumnDft column_dft(std::int64_t radix);

// Every n whose roots the column DFT of `radix` reads: each sub-length L its steps run on, and each odd prime
// (whose p-point DFT constants are w_p^e).
std::set<std::int64_t> column_root_lengths(const ColumnDft& dft, std::int64_t radix);

// What one precision needs to run a plan.
template <class Real>
struct PrecisionTables {
  explicit PrecisionTables(const std::set<std::int64_t>& lengths) : roots(lengths) {}
  RootTables<Real> roots;
};

// Precision-independent tables of a plan.
struct PlanTables {
  explicit PlanTables(const Plan& plan);

  // How each radix of the plan is computed: column_dfts.at(radix).
  std::map<std::int64_t, ColumnDft> column_dfts;
  // Per axis: natural_order_sources[a][f] = digit_reversed_position(f): where the permutation to natural order
  // reads frequency f.
  std::array<std::vector<std::int64_t>, 3> natural_order_sources;
  // Every n a run of the plan reads w_n^e for: the column DFTs', each twiddled stage's span, and NX for the real
  // step of a real plan.
  std::set<std::int64_t> root_lengths;
  PrecisionTables<double> fp64;
  PrecisionTables<float> fp32;
};

template <class Real> const PrecisionTables<Real>& tables_for(const PlanTables& tables);
template <> inline const PrecisionTables<double>& tables_for<double>(const PlanTables& t) { return t.fp64; }
template <> inline const PrecisionTables<float>& tables_for<float>(const PlanTables& t) { return t.fp32; }

}  // namespace fft3d::cpu
