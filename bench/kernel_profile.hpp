// Each kernel of a GPU transform timed alone, and its copy twin (profiling.hpp): what `fft3d run --per-kernel`
// reports.
#pragma once

#include <optional>
#include <vector>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

struct KernelProfile {
  GpuKernelInfo info;
  bool runs = true;                 // false: the reorder pass, which this run's order and placement skip
  double median_ms = 0;             // the kernel alone
  double gbytes_per_second = 0;     // the kernel's reads and writes (plan_cost; a real kernel's) / median_ms
  std::optional<double> twin_ms;    // its copy twin alone (none for the reorder pass or a real plan's kernels)
};

// Kernels in GpuProfiler::kernels() order, each timed on `source` -> `target` (in place when equal) with CUDA
// events. Kernels run on whatever the buffers hold: the figures are timings, not results. The buffers hold the
// plan's precision (an fp64 plan's data behind the DeviceComplex32 pointers, which only carry the address).
std::vector<KernelProfile> profile_kernels(GpuTransform& transform, const DeviceComplex32* source,
                                           DeviceComplex32* target, const TransformOptions& options);

}  // namespace fft3d::bench
