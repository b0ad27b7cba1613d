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

}  // namespace fft3d::validate
