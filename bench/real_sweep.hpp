// The real transforms of `fft3d bench --transform r2c`: for each size, fft3d's R2C and C2R against cuFFT's R2C and
// C2R (D2Z and Z2D in fp64) in the same process on the same buffers, each result checked against the fp64 cuFFT
// oracle (D2Z, Z2D) through validate::RealCheck before any figure is kept.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/bench_sweep.hpp"

namespace fft3d::bench {

// Two rows, R2C then C2R, in settings.placement and settings.precision: each direction's plan is the one GpuTransform
// takes for the descriptor (wisdom, the device profile's table, the default planner; in fp64 the plans that lower in
// fp64); both libraries are checked within error_bound_of(settings.precision) on the first buffer pair (fft3d's C2R
// out of place must also leave its input byte-identical), then timed on up to settings.buffer_pairs pairs, fft3d's
// result checked again on each fresh pair. C2R runs unscaled, as cuFFT's does.
std::vector<BenchRow> measure_real_size(const Extents& size, const SweepSettings& settings, std::uint64_t seed,
                                        const DriverProbe& driver);

}  // namespace fft3d::bench
