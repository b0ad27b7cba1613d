// The closed-form check on the GPU (validate/plane_waves.hpp): for a volume whose fp64 oracle fits neither the host
// nor the device. The volume lives on the device once; the host generates and compares it in chunks.
#pragma once

#include <cstdint>
#include <functional>

#include "validate/cuda/gpu_oracle.hpp"
#include "validate/plane_waves.hpp"

namespace fft3d::validate {

struct ClosedFormResult {
  ErrorReport spectrum;    // the forward transform against its closed form (spikes)
  ErrorReport round_trip;  // the scaled inverse of that, in place, against the input
};

// Fills `data` (the fp32 complex volume of `waves.size`) with the waves, runs `forward_in_place()` and checks the
// spectrum, then runs `scaled_inverse_in_place()` and checks that the input came back. Both callables transform
// `data` in place in natural order (the inverse scaled by 1/N).
ClosedFormResult check_in_closed_form(const PlaneWaves& waves, DeviceBuffer& data,
                                      const std::function<void()>& forward_in_place,
                                      const std::function<void()>& scaled_inverse_in_place);

// Real transforms: `data` holds the fp32 real volume of `waves.size` in place, rows padded to 2 * (NX/2 + 1) reals
// (the half spectrum's bytes; FFTW's and cuFFT's in-place layout). Fills the rows with the waves' reals (the pads
// with zeros), runs `r2c_in_place()` and checks the half spectrum (NX/2 + 1, NY, NZ) against its closed form, then
// runs `scaled_c2r_in_place()` (scaled by 1/N) and checks that the reals came back. `waves` must be real
// (random_real_plane_waves). Throws UsageError where `data` is not that size.
ClosedFormResult check_real_in_closed_form(const PlaneWaves& waves, DeviceBuffer& data,
                                           const std::function<void()>& r2c_in_place,
                                           const std::function<void()>& scaled_c2r_in_place);

}  // namespace fft3d::validate
