#include "bench/kernel_profile.hpp"

#include <complex>

#include "bench/gpu_timing.hpp"
#include "fft3d/plan_cost.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::bench {
namespace {

constexpr int warmup_runs = 3;
constexpr int timed_samples = 10;

}  // namespace

std::vector<KernelProfile> profile_kernels(GpuTransform& transform, const DeviceComplex32* source,
                                           DeviceComplex32* target, const TransformOptions& options) {
  const Plan& plan = transform.plan();
  const int value_bytes = plan.precision == Precision::fp64 ? sizeof(std::complex<double>) : sizeof(DeviceComplex32);
  const auto batch = static_cast<double>(plan.batch);
  // A tile kernel's own reads and writes (a real plan's kernels move the real volume or the half spectrum); the
  // reorder pass reads and writes the whole volume.
  const PlanCost cost = plan_cost(plan, value_bytes);
  const double volume_bytes = 2.0 * static_cast<double>(plan.size.elements()) * value_bytes * batch;
  const bool twins = kind_of(plan) == TransformKind::c2c;  // GpuProfiler offers copy twins of C2C kernels only
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
    const double bytes = k < cost.kernels.size()
                             ? static_cast<double>(cost.kernels[k].bytes_read + cost.kernels[k].bytes_written) * batch
                             : volume_bytes;
    profile.gbytes_per_second = bytes / (profile.median_ms * 1e6);
    if (!profile.info.reorder_pass && twins)
      profile.twin_ms = time_on_gpu(
          [&](void* stream) { profiler.run_copy_twin(k, source, target, static_cast<Stream>(stream)); },
          warmup_runs, timed_samples, nullptr, {}, batched_sample_ms).median_ms;
    profiles.push_back(profile);
  }
  return profiles;
}

}  // namespace fft3d::bench
