// `fft3d run` for real plans: R2C (forward) and C2R (inverse) on random data, checked against FFTW's fp64 r2c and
// c2r before any time is reported.
#pragma once

#include <cstdint>
#include <string>

#include "backends.hpp"

namespace fft3d::cli {

// A plan's packed batch as one volume of NZ * batch planes, row after row: a real plan's rows in both layouts (what
// pack_padded and unpack_padded take), and any plan's host memory for a checked run.
inline Extents batch_rows_extents(const Plan& plan) {
  return {plan.size.nx, plan.size.ny, plan.size.nz * plan.batch};
}

// Padded rows of an in-place real transform (FFTW, cuFFT): row r's x-th real at r * 2*(NX/2+1) + x; `padded` holds
// (NX/2+1)*NY*NZ complex values' worth of reals. The pad stays zero on the way in and is skipped on the way out.
template <class Real>
void pack_padded(const RealVolume& reals, const Extents& size, Real* padded) {
  const std::int64_t pitch = 2 * (size.nx / 2 + 1), rows = size.ny * size.nz;
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::int64_t x = 0; x < pitch; ++x)
      padded[row * pitch + x] = x < size.nx ? static_cast<Real>(reals[static_cast<std::size_t>(row * size.nx + x)]) : 0;
}
template <class Real>
void unpack_padded(const Real* padded, const Extents& size, RealVolume& reals) {
  const std::int64_t pitch = 2 * (size.nx / 2 + 1), rows = size.ny * size.nz;
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::int64_t x = 0; x < size.nx; ++x)
      reals[static_cast<std::size_t>(row * size.nx + x)] = static_cast<double>(padded[row * pitch + x]);
}

// Runs the real plan's transform (its kind's direction; settings say so already) on `backend`, checks it against
// FFTW, and reports the kind, the real and spectrum bytes, the error and, once the check passed, the timing.
// Returns the exit code.
int run_real_against_oracle(const Plan& plan, const std::string& how, const Backend& backend,
                            const RunSettings& settings, double bound, std::uint64_t seed);

}  // namespace fft3d::cli
