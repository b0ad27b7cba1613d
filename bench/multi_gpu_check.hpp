// Checks of a transform distributed over GPUs, on their own buffers: the host volume scattered to the slabs and
// gathered back (for the fp64 oracle), and the closed-form check (validate/plane_waves.hpp) done slab by slab in
// chunks, so that no volume has to fit the host or one device at once.
#pragma once

#include <complex>
#include <functional>
#include <span>

#include "bench/multi_gpu_devices.hpp"
#include "bench/multi_gpu_layout.hpp"
#include "validate/cuda/closed_form_check.hpp"
#include "validate/plane_waves.hpp"

namespace fft3d::bench {

// `volume` (natural order, fp64, rounded to the buffers' precision) into the GPUs' buffers in `layout`, or back.
// @pre buffers.pointers().size() == gpus; volume.size() == size.elements(); each buffer holds N/G values.
void scatter(std::span<const std::complex<double>> volume, const Extents& size, SlabLayout layout,
             PerDeviceBuffers& buffers);
void gather(const PerDeviceBuffers& buffers, const Extents& size, SlabLayout layout,
            std::span<std::complex<double>> volume);

// The forward transform of `waves` checked against its closed form, then its scaled inverse against the input:
// fills `input` (z slabs) with the waves, runs `forward()`, which must leave the spectrum in `spectrum` in
// `layout`, compares every element, runs `scaled_inverse()`, which must leave the waves again (z slabs, scaled
// by 1/N) in `returned`, and compares every element. The three may be the same buffers (in place), of one precision
// (UsageError otherwise), fp32 or fp64.
validate::ClosedFormResult check_distributed_in_closed_form(const validate::PlaneWaves& waves, SlabLayout layout,
                                                            PerDeviceBuffers& input,
                                                            const std::function<void()>& forward,
                                                            const PerDeviceBuffers& spectrum,
                                                            const std::function<void()>& scaled_inverse,
                                                            const PerDeviceBuffers& returned);

}  // namespace fft3d::bench
