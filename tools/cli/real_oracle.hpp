// The fp64 oracle of `fft3d run --transform r2c` on either backend: FFTW's r2c and c2r of the whole volume.
#pragma once

#include <complex>
#include <span>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::cli {

// R2C (forward): `reals` (NX*NY*NZ, X contiguous) to `spectrum` ((NX/2+1)*NY*NZ, natural order); C2R (inverse): the
// other way, `spectrum` left untouched. `size` is the real volume; scaling full multiplies by 1/(NX*NY*NZ). FFTW
// in fp64 (FFTW_ESTIMATE), one planner call at a time. Throws UsageError for buffers of another size.
void fftw_real_reference(const Extents& size, std::span<double> reals, std::span<std::complex<double>> spectrum,
                         Direction direction, Scaling scaling = Scaling::none);

}  // namespace fft3d::cli
