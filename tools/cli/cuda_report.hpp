// Report lines the CUDA runs share (cuda_backend.cpp, closed_form_run.cpp).
#pragma once

#include <ostream>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::cli {

// Each kernel of `engine` timed alone on `source` -> `target` (in place when equal): milliseconds, GB/s of its own
// reads and writes and their share of `memcpy_gbs` (read + write), registers, and its copy twin's time (C2C plans).
// Kernels run on whatever the buffers hold: the figures are timings, not results.
void report_kernels(GpuTransform& engine, const DeviceComplex32* source, DeviceComplex32* target,
                    const TransformOptions& options, double memcpy_gbs, std::ostream& out);

}  // namespace fft3d::cli
