// Test helper: the 3D DFT straight from its definition, the oracle that knows nothing of plans.
#pragma once

#include <complex>
#include <cstdint>
#include <numbers>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::testing {

// The 3D DFT of `in` (X fastest) over `size`, in long double, with exact integer reduction of every exponent:
// O(N^2), for volumes of a few thousand values.
inline std::vector<std::complex<double>> direct_dft(const Extents& size, const std::vector<std::complex<double>>& in,
                                                    Direction direction) {
  const long double sign = direction == Direction::forward ? -1 : 1;
  const long double two_pi = 2 * std::numbers::pi_v<long double>;
  std::vector<std::complex<double>> out(in.size());
  for (std::int64_t kz = 0; kz < size.nz; ++kz)
    for (std::int64_t ky = 0; ky < size.ny; ++ky)
      for (std::int64_t kx = 0; kx < size.nx; ++kx) {
        std::complex<long double> sum = 0;
        for (std::int64_t z = 0; z < size.nz; ++z)
          for (std::int64_t y = 0; y < size.ny; ++y)
            for (std::int64_t x = 0; x < size.nx; ++x) {
              const long double turns = static_cast<long double>(kx * x % size.nx) / size.nx +
                                        static_cast<long double>(ky * y % size.ny) / size.ny +
                                        static_cast<long double>(kz * z % size.nz) / size.nz;
              const std::complex<long double> w = std::polar(1.0L, sign * two_pi * turns);
              const std::complex<double>& v = in[static_cast<std::size_t>(x + size.nx * (y + size.ny * z))];
              sum += w * std::complex<long double>(v.real(), v.imag());
            }
        out[static_cast<std::size_t>(kx + size.nx * (ky + size.ny * kz))] = {static_cast<double>(sum.real()),
                                                                              static_cast<double>(sum.imag())};
      }
  return out;
}

}  // namespace fft3d::testing
