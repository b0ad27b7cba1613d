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
#include "report_lines.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/errors.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/cuda/closed_form_check.hpp"

namespace fft3d::cli {
namespace {

using Complex32 = std::complex<float>;
constexpr int wave_count = 4;

}  // namespace

int run_closed_form_on_cuda(const Plan& plan, const std::string& how, const ClosedFormSettings& settings) {
  const Extents& size = plan.size;
  const std::int64_t n = size.elements();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(Complex32);
  const double context_ms = bench::create_cuda_context_ms();
  // The ceiling first, on buffers of at most 2 GiB, while the volume does not yet hold the device's memory.
  const std::int64_t memcpy_bytes = std::min<std::int64_t>(static_cast<std::int64_t>(bytes), std::int64_t{2} << 30);
  const double memcpy_gbs = bench::memcpy_gbytes_per_second(memcpy_bytes);
  GpuTransform engine(plan, how);
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
      waves, data, [&] { engine.execute(data.complex32(), data.complex32(), forward); },
      [&] { engine.execute(data.complex32(), data.complex32(), inverse); });
  const validate::ErrorReport& error = checked.spectrum;
  const validate::ErrorReport& round_trip = checked.round_trip;
  print_error("error     ", error, size, settings.bound);
  print_error("roundtrip ", round_trip, size, settings.bound);
  if (!error.passes(settings.bound) || !round_trip.passes(settings.bound)) {
    std::cerr << "fft3d run: error: the result is over the fp32 error bound " << settings.bound
              << "; no timing is reported\n";
    return exit_failed;
  }

  auto undo = [&](void* stream) { engine.execute(data.complex32(), data.complex32(), inverse, static_cast<Stream>(stream)); };
  const bench::Timing ours = bench::time_on_gpu(
      [&](void* stream) { engine.execute(data.complex32(), data.complex32(), forward, static_cast<Stream>(stream)); }, 1, settings.repeats, nullptr,
      undo);
  print_timing(plan, sizeof(Complex32), GpuProfiler(engine).volume_passes(Order::natural, Placement::in_place), ours.median_ms / 1e3,
               ours.min_ms / 1e3, ours.max_ms / 1e3, settings.repeats);
  const double one_pass_ms = 2.0 * static_cast<double>(bytes) / (memcpy_gbs * 1e6);
  std::cout << std::setprecision(3) << "memcpy    " << memcpy_gbs << " GB/s (read + write, measured on "
            << memcpy_bytes << " B), one pass of the volume " << one_pass_ms << " ms\n";
  try {
    const Extents rival = settings.asked_size.value_or(size);  // the same memory as `size`
    bench::CufftC2C cufft(rival);
    const bench::Timing theirs = bench::time_on_gpu(
        [&](void* stream) { cufft.execute(data.get(), data.get(), Direction::forward, stream); }, 1,
        settings.repeats, nullptr, undo);
    std::cout << "cuFFT     " << theirs.median_ms << " ms median C2C fp32" << of_size(rival, size) << " in place (min "
              << theirs.min_ms << ", max " << theirs.max_ms << ", work area " << cufft.workspace_bytes() << " B), "
              << theirs.median_ms / one_pass_ms << " pass-equivalents; fft3d/cuFFT speed ratio "
              << theirs.median_ms / ours.median_ms << "\n";
  } catch (const std::exception& e) {  // e.g. its work area does not fit beside the volume
    std::cout << "cuFFT     not run: " << e.what() << "\n";
  }
  if (settings.per_kernel) report_kernels(engine, data.complex32(), data.complex32(), forward, memcpy_gbs, std::cout);
  std::cout << "setup     " << GpuProfiler(engine).setup_times().total_ms << " ms to a ready plan, after " << context_ms
            << " ms of CUDA context creation\n";
  return exit_ok;
}

}  // namespace fft3d::cli
