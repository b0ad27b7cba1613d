// The real transforms of the CPU backend (docs/plan-language.md, "Real transforms"): the real steps that turn the
// NX/2 complex frequencies of packed reals (x[2n] + i x[2n+1]) into the NX/2 + 1 of the half spectrum and back, and
// the whole R2C and C2R runs around them. Private to the CPU backend; Real is double or float.
#pragma once

#include <complex>
#include <cstdint>

#include "cpu_tables.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::cpu {

// The rows a real step works on: row r holds its values 0 .. half-1 at data + r*pitch and its value `half` (the
// Nyquist column) at last + r*last_pitch: data + half when the rows are half + 1 long, a separate plane otherwise.
template <class Real>
struct HalfSpectrumRows {
  std::complex<Real>* data = nullptr;
  std::int64_t pitch = 0;
  std::complex<Real>* last = nullptr;
  std::int64_t last_pitch = 0;
  std::int64_t rows = 0;
  std::int64_t half = 0;  // NX/2
};

// R2C step. @pre each row holds the natural-order DFT Z[k], k < half, of its packed reals.
// @post each row holds Y[k] = (Z[k] + conj Z[half-k])/2 - (i/2) w^k (Z[k] - conj Z[half-k]) for k <= half,
//       w = e^(-2 pi i / (2 half)), Z[half] = Z[0]: the DFT of the 2*half reals at 0 <= k <= half.
template <class Real>
void r2c_step(const HalfSpectrumRows<Real>& rows, const RootTables<Real>& roots, int threads);

// C2R step, the inverse of r2c_step times 2 (so that the unscaled inverse X DFT of length half gives NX times the
// reals, as FFTW's and cuFFT's c2r do). Reads only the real parts of Y[0] and Y[half].
// @post each row's values k < half are Z[k] = (Y[k] + conj Y[half-k]) + i conj(w^k) (Y[k] - conj Y[half-k]) with
//       Y[0] and Y[half] taken real; the value at `last` is left as it was.
template <class Real>
void c2r_step(const HalfSpectrumRows<Real>& rows, const RootTables<Real>& roots, int threads);

// The whole R2C of a legal r2c `plan`, natural order, every value times `factor`. `in` holds the reals, rows
// `in_pitch` reals apart (NX out of place; 2*(NX/2 + 1) in place, where `in` is `out`'s first byte); `out` receives
// the half spectrum, (NX/2 + 1) x NY x NZ. Out of place, `in` is only read.
template <class Real>
void run_r2c(const Plan& plan, const PlanTables& tables, const Real* in, std::int64_t in_pitch,
             std::complex<Real>* out, Real factor, int threads);

// The whole C2R of a legal c2r `plan`, natural order, every value times `factor`. `in` holds the half spectrum;
// `out` receives the reals, rows `out_pitch` reals apart (NX out of place; 2*(NX/2 + 1) in place, where `out` is
// `in`'s first byte). Out of place, `in` is only read.
template <class Real>
void run_c2r(const Plan& plan, const PlanTables& tables, const std::complex<Real>* in, Real* out,
             std::int64_t out_pitch, Real factor, int threads);

}  // namespace fft3d::cpu
