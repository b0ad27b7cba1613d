// `fft3d run` on the GPU for a volume whose fp64 oracle fits nowhere (2048^3: 128 GiB in fp64), or with
// `--check plane-waves`: in place on one device buffer, the input a sum of random plane waves, the forward
// transform checked element by element against its closed form, then the scaled inverse against the input (the
// round trip; validate/cuda/closed_form_check.hpp). Only then are the transform
// and cuFFT timed on the same buffer, each timed forward preceded, outside the timed region, by fft3d's scaled
// inverse, so the values stay those of the input and its spectrum.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <vector>

#include "bench/gpu_timing.hpp"
#include "closed_form_run.hpp"
#include "cuda_report.hpp"
#include "fft3d/cuda_engine.hpp"
#include "fft3d/cuda_errors.hpp"
#include "fft3d/plan_cost.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/cuda/closed_form_check.hpp"

namespace fft3d::cli {
namespace {

using Complex32 = std::complex<float>;
constexpr int wave_count = 4;

void print_check(const std::string& what, const validate::ErrorReport& e, double bound) {
  std::cout << std::scientific << std::setprecision(3) << what << "relative L2 " << e.relative_l2 << ", peak "
            << e.peak_error << " at element " << e.peak_index;
  if (e.non_finite > 0) std::cout << ", " << e.non_finite << " values not finite";
  std::cout << " (bound " << bound << "): " << (e.passes(bound) ? "pass" : "FAIL") << "\n";
}

}  // namespace

int run_closed_form_on_cuda(const Plan& plan, const std::string& how, const ClosedFormSettings& settings) {
  const Extents& size = plan.size;
  const std::int64_t n = size.elements();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(Complex32);
  const double context_ms = bench::create_cuda_context_ms();
  // The ceiling first, on buffers of at most 2 GiB, while the volume does not yet hold the device's memory.
  const std::int64_t memcpy_bytes = std::min<std::int64_t>(static_cast<std::int64_t>(bytes), std::int64_t{2} << 30);
  const double memcpy_gbs = bench::memcpy_gbytes_per_second(memcpy_bytes);
  CudaEngine engine(plan, how);
  if (engine.workspace_bytes() > 0)
    throw OutOfMemory("plan " + how + " reaches natural order through a digit-reversal workspace of " +
                      std::to_string(engine.workspace_bytes()) + " B beside the volume; the closed-form check runs "
                      "in place with no device memory beyond the data (a plan whose natural order needs no "
                      "workspace, e.g. the hopper table's)");
  validate::DeviceBuffer data(bytes);
  const validate::PlaneWaves waves = validate::random_plane_waves(size, wave_count, settings.seed);

  std::cout << "plan      " << how << "\nsize      " << to_string(size) << " (" << n << " points), " << plan.arch
            << " plan, " << plan.kernels.size() << " kernels\nbackend   cuda, fp32, forward, natural order, in place, "
            << "checked in closed form, every element: " << wave_count << " random plane waves (seed "
            << settings.seed << ")\n";
  const TransformOptions forward{Direction::forward, Order::natural, Scaling::none};
  const TransformOptions inverse{Direction::inverse, Order::natural, Scaling::full};
  const validate::ClosedFormResult checked = validate::check_in_closed_form(
      waves, data, [&] { engine.execute(data.get(), data.get(), forward); },
      [&] { engine.execute(data.get(), data.get(), inverse); });
  const validate::ErrorReport& error = checked.spectrum;
  const validate::ErrorReport& round_trip = checked.round_trip;
  print_check("error     ", error, settings.bound);
  print_check("roundtrip ", round_trip, settings.bound);
  if (!error.passes(settings.bound) || !round_trip.passes(settings.bound)) {
    std::cerr << "fft3d run: error: the result is over the fp32 error bound " << settings.bound
              << "; no timing is reported\n";
    return exit_failed;
  }

  auto undo = [&](void* stream) { engine.execute(data.get(), data.get(), inverse, stream); };
  const bench::Timing ours = bench::time_on_gpu(
      [&](void* stream) { engine.execute(data.get(), data.get(), forward, stream); }, 1, settings.repeats, nullptr,
      undo);
  const PlanCost cost = plan_cost(plan, sizeof(Complex32));
  const double seconds = ours.median_ms / 1e3;
  const double one_pass_ms = 2.0 * static_cast<double>(bytes) / (memcpy_gbs * 1e6);
  std::cout << std::fixed << std::setprecision(3) << "time      " << ours.median_ms << " ms median of "
            << settings.repeats << " (min " << ours.min_ms << ", max " << ours.max_ms << ")\n"
            << std::setprecision(2) << "GFlops    " << cost.paper_flops / seconds / 1e9 << " (5 N log2 N / t)\n"
            << "bandwidth " << cost.bytes_moved / seconds / 1e9 << " GB/s (" << cost.passes << " passes, "
            << cost.bytes_moved / 1e6 << " MB moved); paper's 8 N accesses / t: "
            << 8.0 * static_cast<double>(n) * 2.0 * static_cast<double>(plan.kernels.size()) / seconds / 1e9
            << " GB/s\n"
            << std::setprecision(3) << "memcpy    " << memcpy_gbs << " GB/s (read + write, measured on "
            << memcpy_bytes << " B), one pass of the volume " << one_pass_ms << " ms\n";
  try {
    bench::CufftC2C cufft(size);
    const bench::Timing theirs = bench::time_on_gpu(
        [&](void* stream) { cufft.execute(data.get(), data.get(), Direction::forward, stream); }, 1,
        settings.repeats, nullptr, undo);
    std::cout << "cuFFT     " << theirs.median_ms << " ms median C2C fp32 in place (min " << theirs.min_ms
              << ", max " << theirs.max_ms << ", work area " << cufft.workspace_bytes() << " B), "
              << theirs.median_ms / one_pass_ms << " pass-equivalents; fft3d/cuFFT speed ratio "
              << theirs.median_ms / ours.median_ms << "\n";
  } catch (const std::exception& e) {  // e.g. its work area does not fit beside the volume
    std::cout << "cuFFT     not run: " << e.what() << "\n";
  }
  if (settings.per_kernel) report_kernels(engine, data.get(), data.get(), forward, one_pass_ms, std::cout);
  std::cout << "setup     " << engine.setup_ms() << " ms to a ready plan, after " << context_ms
            << " ms of CUDA context creation\n";
  return exit_ok;
}

}  // namespace fft3d::cli
