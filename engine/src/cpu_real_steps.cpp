// The real steps, row by row: each pairs frequency k with half - k, so a row is rewritten in place.
#include <complex>

#include "cpu_real.hpp"
#include "parallel_for.hpp"

namespace fft3d::cpu {
namespace {

constexpr std::complex<double> i_unit{0, 1};

// Y[k] and Y[half-k] of one row from Z[k] = a and Z[half-k] = b; w = w_NX^k.
template <class Real>
void r2c_pair(std::complex<Real>& a, std::complex<Real>& b, std::complex<Real> w) {
  const std::complex<Real> i(i_unit);
  const std::complex<Real> za = a;
  const std::complex<Real> zb = b;
  // w^(half-k) = -conj(w^k).
  const std::complex<Real> w_mirror = -std::conj(w);
  a = Real(0.5) * ((za + std::conj(zb)) - i * w * (za - std::conj(zb)));
  b = Real(0.5) * ((zb + std::conj(za)) - i * w_mirror * (zb - std::conj(za)));
}

// Z[k] and Z[half-k] of one row from Y[k] = a and Y[half-k] = b; w = w_NX^k.
template <class Real>
void c2r_pair(std::complex<Real>& a, std::complex<Real>& b, std::complex<Real> w) {
  const std::complex<Real> i(i_unit);
  const std::complex<Real> ya = a;
  const std::complex<Real> yb = b;
  // conj(w^(half-k)) = -w^k.
  a = (ya + std::conj(yb)) + i * std::conj(w) * (ya - std::conj(yb));
  b = (yb + std::conj(ya)) - i * w * (yb - std::conj(ya));
}

}  // namespace

template <class Real>
void r2c_step(const HalfSpectrumRows<Real>& rows, const RootTables<Real>& roots, int threads) {
  const std::complex<Real>* w = roots.roots(2 * rows.half);
  parallel_for(rows.rows, threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      std::complex<Real>* row = rows.data + r * rows.pitch;
      for (std::int64_t k = 1; 2 * k <= rows.half; ++k) r2c_pair(row[k], row[rows.half - k], w[k]);
      // Y[0] = X_even[0] + X_odd[0] and Y[half] = X_even[0] - X_odd[0], both real.
      const std::complex<Real> z0 = row[0];
      row[0] = {z0.real() + z0.imag(), 0};
      rows.last[r * rows.last_pitch] = {z0.real() - z0.imag(), 0};
    }
  });
}

template <class Real>
void c2r_step(const HalfSpectrumRows<Real>& rows, const RootTables<Real>& roots, int threads) {
  const std::complex<Real>* w = roots.roots(2 * rows.half);
  parallel_for(rows.rows, threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      std::complex<Real>* row = rows.data + r * rows.pitch;
      for (std::int64_t k = 1; 2 * k <= rows.half; ++k) c2r_pair(row[k], row[rows.half - k], w[k]);
      // The imaginary parts of the DC and Nyquist terms are ignored, as FFTW and cuFFT ignore them.
      const Real dc = row[0].real();
      const Real nyquist = rows.last[r * rows.last_pitch].real();
      row[0] = {dc + nyquist, dc - nyquist};
    }
  });
}

template void r2c_step<double>(const HalfSpectrumRows<double>&, const RootTables<double>&, int);
template void r2c_step<float>(const HalfSpectrumRows<float>&, const RootTables<float>&, int);
template void c2r_step<double>(const HalfSpectrumRows<double>&, const RootTables<double>&, int);
template void c2r_step<float>(const HalfSpectrumRows<float>&, const RootTables<float>&, int);

}  // namespace fft3d::cpu
