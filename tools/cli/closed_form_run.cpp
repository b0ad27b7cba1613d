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
constexpr int real_wave_pairs = 3;  // real transforms: conjugate pairs, 6 spikes (fewer where a wave is its own)

// cuFFT's line: its median, min and max time in place, its pass-equivalents against `one_pass_ms`, and the speed
// ratio against fft3d's `ours`.
void print_rival(const std::string& what, const bench::Timing& theirs, const bench::Timing& ours, double one_pass_ms,
                 const std::string& detail) {
  std::cout << std::fixed << std::setprecision(3) << "cuFFT     " << theirs.median_ms << " ms median " << what
            << " in place (min " << theirs.min_ms << ", max " << theirs.max_ms << detail << "), "
            << theirs.median_ms / one_pass_ms
            << " pass-equivalents; fft3d/cuFFT speed ratio " << theirs.median_ms / ours.median_ms << "\n";
}

// The memcpy ceiling, measured on buffers of at most 2 GiB (a volume's size, where smaller) before the volume takes
// the device's memory: read + write GB/s, and the bytes it was measured on.
struct MemcpyCeiling {
  std::int64_t bytes = 0;
  double gbytes_per_second = 0;
};
MemcpyCeiling measure_memcpy_ceiling(std::size_t volume_bytes) {
  const std::int64_t bytes = std::min<std::int64_t>(static_cast<std::int64_t>(volume_bytes), std::int64_t{2} << 30);
  return {bytes, bench::memcpy_gbytes_per_second(bytes)};
}

// The closed form's two error lines; false (with the refusal on stderr) where either is over `bound`, after which
// no timing is reported.
bool report_closed_form(const validate::ClosedFormResult& checked, const Extents& spectrum, const Extents& size,
                        double bound) {
  print_error("error     ", checked.spectrum, spectrum, bound);
  print_error("roundtrip ", checked.round_trip, size, bound);
  if (checked.spectrum.passes(bound) && checked.round_trip.passes(bound)) return true;
  std::cerr << "fft3d run: error: the result is over the fp32 error bound " << bound << "; no timing is reported\n";
  return false;
}

// The plan's setup time after the context's.
void print_setup(GpuTransform& engine, double context_ms) {
  std::cout << "setup     " << GpuProfiler(engine).setup_times().total_ms << " ms to a ready plan, after "
            << context_ms << " ms of CUDA context creation\n";
}

}  // namespace

int run_closed_form_on_cuda(const Plan& plan, const std::string& how, const ClosedFormSettings& settings) {
  const Extents& size = plan.size;
  const std::int64_t n = size.elements();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(Complex32);
  const double context_ms = bench::create_cuda_context_ms();
  const MemcpyCeiling ceiling = measure_memcpy_ceiling(bytes);
  const double memcpy_gbs = ceiling.gbytes_per_second;
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
  if (!report_closed_form(checked, size, size, settings.bound)) return exit_failed;

  auto undo = [&](void* stream) { engine.execute(data.complex32(), data.complex32(), inverse, static_cast<Stream>(stream)); };
  const bench::Timing ours = bench::time_on_gpu(
      [&](void* stream) { engine.execute(data.complex32(), data.complex32(), forward, static_cast<Stream>(stream)); }, 1, settings.repeats, nullptr,
      undo);
  print_timing(plan, sizeof(Complex32), GpuProfiler(engine).volume_passes(Order::natural, Placement::in_place), ours.median_ms / 1e3,
               ours.min_ms / 1e3, ours.max_ms / 1e3, settings.repeats);
  const double one_pass_ms = 2.0 * static_cast<double>(bytes) / (memcpy_gbs * 1e6);
  std::cout << std::setprecision(3) << "memcpy    " << memcpy_gbs << " GB/s (read + write, measured on "
            << ceiling.bytes << " B), one pass of the volume " << one_pass_ms << " ms\n";
  try {
    const Extents rival = settings.asked_size.value_or(size);  // the same memory as `size`
    bench::CufftC2C cufft(rival);
    const bench::Timing theirs = bench::time_on_gpu(
        [&](void* stream) { cufft.execute(data.get(), data.get(), Direction::forward, stream); }, 1,
        settings.repeats, nullptr, undo);
    print_rival("C2C fp32" + of_size(rival, size), theirs, ours, one_pass_ms,
                ", work area " + std::to_string(cufft.workspace_bytes()) + " B");
  } catch (const std::exception& e) {  // e.g. its work area does not fit beside the volume
    std::cout << "cuFFT     not run: " << e.what() << "\n";
  }
  if (settings.per_kernel) report_kernels(engine, data.complex32(), data.complex32(), forward, memcpy_gbs, std::cout);
  print_setup(engine, context_ms);
  return exit_ok;
}

int run_real_closed_form_on_cuda(const Plan& r2c, const std::string& how, const Plan& c2r,
                                 const std::string& c2r_how, const ClosedFormSettings& settings) {
  const Extents& size = r2c.size;
  const Extents spectrum{size.nx / 2 + 1, size.ny, size.nz};
  const std::size_t bytes = static_cast<std::size_t>(spectrum.elements()) * sizeof(Complex32);  // padded rows
  const double context_ms = bench::create_cuda_context_ms();
  const MemcpyCeiling ceiling = measure_memcpy_ceiling(bytes);
  const double memcpy_gbs = ceiling.gbytes_per_second;
  GpuTransform forward_engine(r2c, how), inverse_engine(c2r, c2r_how);
  validate::DeviceBuffer data(bytes);
  const validate::PlaneWaves waves = validate::random_real_plane_waves(size, real_wave_pairs, settings.seed);
  float* const reals = static_cast<float*>(data.get());
  const TransformOptions forward{Direction::forward, Order::natural, Scaling::none};
  const TransformOptions inverse{Direction::inverse, Order::natural, Scaling::full};
  auto run_r2c = [&](Stream stream) { forward_engine.execute(reals, data.complex32(), forward, stream); };
  auto run_c2r = [&](Stream stream) { inverse_engine.execute(data.complex32(), reals, inverse, stream); };

  std::cout << "plan      " << how << "\ninverse   " << c2r_how << ": the round trip's C2R\nsize      "
            << to_string(size) << " (" << size.elements() << " reals), " << r2c.arch << " plan, "
            << r2c.kernels.size() << " kernels\nbackend   cuda, fp32, R2C, natural order, in place (rows padded to "
            << "2*(NX/2+1) reals), checked in closed form, every element: " << waves.waves.size()
            << " real plane waves in conjugate pairs (seed " << settings.seed << ")\n";
  const validate::ClosedFormResult checked =
      validate::check_real_in_closed_form(waves, data, [&] { run_r2c(nullptr); }, [&] { run_c2r(nullptr); });
  if (!report_closed_form(checked, spectrum, size, settings.bound)) return exit_failed;

  // Each timed R2C runs on the reals: the scaled C2R before it, outside the timed region, brings them back.
  auto undo = [&](void* stream) { run_c2r(static_cast<Stream>(stream)); };
  const bench::Timing ours = bench::time_on_gpu([&](void* stream) { run_r2c(static_cast<Stream>(stream)); }, 1,
                                                settings.repeats, nullptr, undo);
  const double floor_bytes = 4.0 * static_cast<double>(size.elements()) + static_cast<double>(bytes);
  const double one_pass_ms = floor_bytes / (memcpy_gbs * 1e6);
  std::cout << std::fixed << std::setprecision(3) << "time      " << ours.median_ms << " ms median of "
            << settings.repeats << " (min " << ours.min_ms << ", max " << ours.max_ms << "), "
            << ours.median_ms / one_pass_ms
            << " pass-equivalents (one read of the reals and one write of the half spectrum at memcpy speed: "
            << one_pass_ms << " ms)\nmemcpy    " << memcpy_gbs << " GB/s (read + write, measured on "
            << ceiling.bytes << " B)\n";
  try {
    bench::CufftReal cufft(size, TransformKind::r2c, Precision::fp32, Placement::in_place);
    const bench::Timing theirs = bench::time_on_gpu(
        [&](void* stream) { cufft.execute(data.get(), data.get(), stream); }, 1, settings.repeats, nullptr, undo);
    print_rival("R2C fp32", theirs, ours, one_pass_ms, "");
  } catch (const std::exception& e) {  // e.g. its work area does not fit beside the volume
    std::cout << "cuFFT     not run: " << e.what() << "\n";
  }
  if (settings.per_kernel)
    report_kernels(forward_engine, data.complex32(), data.complex32(), forward, memcpy_gbs, std::cout);
  print_setup(forward_engine, context_ms);
  return exit_ok;
}

}  // namespace fft3d::cli
