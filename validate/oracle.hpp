// The fp64 CPU oracle (FFTW) and the error measures every check reports.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::validate {

// The 3D DFT of `in` (natural order, X contiguous) by FFTW in fp64, natural order, with options.scaling applied.
// options.order is ignored: compare digit-reversed results through to_natural_order below.
void fftw_reference(const Extents& size, std::span<const std::complex<double>> in,
                    std::span<std::complex<double>> out, Direction direction, Scaling scaling = Scaling::none);

// The DFT over `axes` only (numpy's fftn(axes=...); Plan::axes): every line of the other axes' coordinates is a
// batch index. FFTW's guru interface, in fp64, natural order, with `scaling` (1/(product of the lengths of `axes`)
// when full). @pre axes names at least one axis, each once (else UsageError).
void fftw_axes_reference(const Extents& size, const std::vector<Axis>& axes, std::span<const std::complex<double>> in,
                         std::span<std::complex<double>> out, Direction direction, Scaling scaling = Scaling::none);

// The 3D real-to-complex DFT (FFTW's r2c) of NX*NY*NZ unpadded reals, X contiguous: the half spectrum,
// (NX/2 + 1) x NY x NZ complex values in natural order, with `scaling` (1/(NX*NY*NZ) when full).
void fftw_r2c_reference(const Extents& size, std::span<const double> in, std::span<std::complex<double>> out,
                        Scaling scaling = Scaling::none);
// The 3D complex-to-real DFT (FFTW's c2r, the unnormalised inverse) of a half spectrum to NX*NY*NZ unpadded reals,
// with `scaling`. `in` is left untouched: FFTW's multi-dimensional c2r overwrites its input, so it runs on a copy.
void fftw_c2r_reference(const Extents& size, std::span<const std::complex<double>> in, std::span<double> out,
                        Scaling scaling = Scaling::none);

// The real DFTs over `axes` only (numpy's rfftn and irfftn with axes=..., Plan::axes of a real plan): X must be
// among them, the halved axis, and every line of the other axes' coordinates is a batch index; the layouts as the
// 3D ones', with `scaling` over the transformed lengths. UsageError: no X, an axis listed twice.
void fftw_axes_r2c_reference(const Extents& size, const std::vector<Axis>& axes, std::span<const double> in,
                             std::span<std::complex<double>> out, Scaling scaling = Scaling::none);
void fftw_axes_c2r_reference(const Extents& size, const std::vector<Axis>& axes,
                             std::span<const std::complex<double>> in, std::span<double> out,
                             Scaling scaling = Scaling::none);

// Permutes a digit-reversed result of `plan` (see transform.hpp) into natural order.
void to_natural_order(const Plan& plan, std::span<std::complex<double>> data);

// The relative L2 error an fp32 transform must stay within against the fp64 oracle (the CLI's checks, `fft3d bench`
// and measured planning).
constexpr double fp32_error_bound = 2e-6;

struct ErrorReport {
  double relative_l2 = 0;      // ||out - ref||_2 / ||ref||_2
  double peak_error = 0;       // max |out - ref|
  std::int64_t peak_index = 0; // where the peak error is
  std::int64_t non_finite = 0; // NaN or Inf values in out (poisoned outputs left unwritten)
  bool passes(double bound) const { return non_finite == 0 && relative_l2 <= bound; }
};
ErrorReport compare(std::span<const std::complex<double>> out, std::span<const std::complex<double>> ref);
ErrorReport compare(std::span<const std::complex<float>> out, std::span<const std::complex<double>> ref);
ErrorReport compare(std::span<const double> out, std::span<const double> ref);
ErrorReport compare(std::span<const float> out, std::span<const double> ref);

// Bytes of physical memory on this machine: what decides whether the fp64 oracle's volumes fit on the host.
std::int64_t host_memory_bytes();

// Random values uniform in [-1, 1) for both parts, from a seed (never zeros).
void fill_random(std::span<std::complex<double>> data, std::uint64_t seed);
void fill_random(std::span<double> data, std::uint64_t seed);
// NaN in every value, so an unwritten output cannot pass.
void poison(std::span<std::complex<double>> data);
void poison(std::span<std::complex<float>> data);
void poison(std::span<double> data);
void poison(std::span<float> data);

}  // namespace fft3d::validate
