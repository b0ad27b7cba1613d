#include "bench/kernel_profile.hpp"

#include <complex>

#include "bench/gpu_timing.hpp"

namespace fft3d::bench {
namespace {

constexpr int warmup_runs = 3;
constexpr int timed_samples = 10;

}  // namespace

std::vector<KernelProfile> profile_kernels(GpuTransform& transform, const DeviceComplex32* source,
                                           DeviceComplex32* target, const TransformOptions& options) {
  const Plan& plan = transform.plan();
  const double bytes = static_cast<double>(plan.size.elements() * plan.batch) *
                       (plan.precision == Precision::fp64 ? sizeof(std::complex<double>) : sizeof(DeviceComplex32));
  GpuProfiler profiler(transform);
  const Placement placement = source == target ? Placement::in_place : Placement::out_of_place;
  std::vector<KernelProfile> profiles;
  for (std::size_t k = 0; k < profiler.kernels().size(); ++k) {
    KernelProfile profile{profiler.kernels()[k], true, 0, 0, std::nullopt};
    if (profile.info.reorder_pass && !profiler.runs_reorder_pass(options.order, placement)) {
      profile.runs = false;
      profiles.push_back(profile);
      continue;
    }
    profile.median_ms = time_on_gpu(
        [&](void* stream) { profiler.run_kernel(k, source, target, options, static_cast<Stream>(stream)); },
        warmup_runs, timed_samples, nullptr, {}, batched_sample_ms).median_ms;
    profile.gbytes_per_second = 2.0 * bytes / (profile.median_ms * 1e6);
    if (!profile.info.reorder_pass)
      profile.twin_ms = time_on_gpu(
          [&](void* stream) { profiler.run_copy_twin(k, source, target, static_cast<Stream>(stream)); },
          warmup_runs, timed_samples, nullptr, {}, batched_sample_ms).median_ms;
    profiles.push_back(profile);
  }
  return profiles;
}

}  // namespace fft3d::bench
