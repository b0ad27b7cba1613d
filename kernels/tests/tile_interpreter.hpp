// A CPU interpreter of lowered tile kernels: runs a LoweredPlan exactly as the emitted CUDA does (same index maps,
// same loops, same flags), in fp64, so lowering is checked against a DFT without a GPU.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "lowering/kernel_spec.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::testing {

// e^(-2 pi i exponent / span), the exponent reduced modulo span first.
std::complex<double> twiddle_factor(std::int64_t exponent, std::int64_t span);

// The r-point DFT of `values` in place (r = values.size()), forward sign, natural order: what dft_rN computes.
void small_dft(std::vector<std::complex<double>>& values);

// Forward/inverse transform of `data` (natural order in), in options.order: in place, or out of place (the first
// kernel reads a copy of the input and writes `data`, poisoned with NaN first; the sorted layout applies).
void interpret(const LoweredPlan& lowered, std::vector<std::complex<double>>& data, const TransformOptions& options,
               bool out_of_place = false);

// The plain 3D DFT (O(N^2)), natural order: the oracle for small volumes.
std::vector<std::complex<double>> naive_dft(const Extents& size, const std::vector<std::complex<double>>& input,
                                            Direction direction);

}  // namespace fft3d::testing
