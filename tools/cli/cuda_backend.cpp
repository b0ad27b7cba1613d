// `fft3d run --backend cuda`: the CUDA engine on device buffers, timed with CUDA events, checked against the fp64
// cuFFT oracle, with cuFFT C2C (Z2Z for an fp64 plan) and a memcpy measured in the same run. The run's precision is
// the plan's (the engine was built for it; run_command sets it from --precision).
#include <algorithm>
#include <iomanip>
#include <map>
#include <stdexcept>
#include <memory>
#include <sstream>
#include <string>

#include "backends.hpp"
#include "cuda_report.hpp"
#include "real_run.hpp"
#include "report_lines.hpp"
#include "bench/gpu_timing.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/diagnostics.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::cli {
namespace {

using Complex32 = std::complex<float>;
constexpr int warmup_runs = 3;

// What the runs share: the engine (compiled once) and the device buffers.
struct CudaSession {
  std::unique_ptr<GpuTransform> engine;
  double context_ms = 0;  // CUDA context creation, paid once per process before the plan's setup
  double setup_ms = 0;
  int cold_kernels = 0;  // compiled by NVRTC in this process, not loaded from the disk cache
  // The timed runs of each direction: `run` times its transform, then the round trip in the other direction.
  std::map<Direction, bench::Timing> timed;
  std::unique_ptr<validate::DeviceBuffer> input, output;
  std::string real_kernels;  // a real run's per-kernel lines (--per-kernel), printed once its check has passed
};

std::size_t complex_bytes(const Plan& plan) {
  return plan.precision == Precision::fp64 ? sizeof(std::complex<double>) : sizeof(Complex32);
}

// The whole batch's bytes (one volume's for batch 1).
std::size_t volume_bytes(const Plan& plan) {
  return static_cast<std::size_t>(plan.size.elements() * plan.batch) * complex_bytes(plan);
}

void require_plan_precision(const GpuTransform& engine, const RunSettings& settings) {
  if (settings.precision != engine.plan().precision)
    throw UsageError("the cuda backend runs the plan's precision, " + to_string(engine.plan().precision) +
                     ", not " + to_string(settings.precision) + " (--precision sets the plan's)");
}

void ensure_buffers(CudaSession& session, const Plan& plan) {
  if (session.input) return;
  session.input = std::make_unique<validate::DeviceBuffer>(volume_bytes(plan));
  session.output = std::make_unique<validate::DeviceBuffer>(volume_bytes(plan));
}

template <typename Real>
std::vector<double> run_cuda(CudaSession& session, const Volume& in, Volume& out, const RunSettings& settings) {
  using Complex = std::complex<Real>;
  GpuTransform& engine = *session.engine;
  ensure_buffers(session, engine.plan());
  std::vector<Complex> host(in.begin(), in.end());
  session.input->upload(host.data());
  session.output->poison_nan();
  Complex* source = static_cast<Complex*>(session.input->get());
  Complex* target = static_cast<Complex*>(session.output->get());

  // The checked run, first and cold.
  if (settings.in_place) session.output->copy_from(*session.input);
  engine.execute(settings.in_place ? target : source, target, settings.options);
  std::vector<Complex> result(host.size());
  session.output->download(result.data());
  out.assign(result.begin(), result.end());
  if (!settings.in_place) {  // an out-of-place run never writes its input
    std::vector<Complex> after(host.size());
    session.input->download(after.data());
    if (after != host) throw std::runtime_error("the out-of-place transform wrote to its input buffer");
  }

  // Timed runs: out of place, samples of back-to-back transforms; in place, single runs with the input restored
  // before each, outside the timed region.
  std::function<void(void*)> restore;
  if (settings.in_place)
    restore = [&](void* stream) { session.output->copy_from(*session.input, stream); };
  const bench::Timing timing = bench::time_on_gpu(
      [&](void* stream) {
        engine.execute(settings.in_place ? target : source, target, settings.options, static_cast<Stream>(stream));
      },
      warmup_runs, settings.repeats, nullptr, restore, settings.in_place ? 0.0 : bench::batched_sample_ms);
  session.timed[settings.options.direction] = timing;
  std::vector<double> seconds;
  for (double ms : timing.samples_ms) seconds.push_back(ms / 1e3);
  return seconds;
}

// A real plan on the GPU: GpuTransform's real overloads on device buffers, in place on padded rows. The checked run
// comes first and cold; then the timed runs (in place, each on the input restored outside the timed region).
template <typename Real>
std::vector<double> run_cuda_real(CudaSession& session, RealVolume& reals, Volume& spectrum,
                                  const RunSettings& settings) {
  using Complex = std::complex<Real>;
  GpuTransform& engine = *session.engine;
  const Extents size = batch_rows_extents(engine.plan());
  const bool forward = settings.options.direction == Direction::forward;
  const std::size_t spectrum_bytes = spectrum.size() * sizeof(Complex);
  const std::size_t real_bytes = settings.in_place ? spectrum_bytes : reals.size() * sizeof(Real);
  // `staged` keeps the input; in place the transform runs in `complex_side` (padded rows), restored from it.
  validate::DeviceBuffer staged(forward ? real_bytes : spectrum_bytes), complex_side(spectrum_bytes);
  std::unique_ptr<validate::DeviceBuffer> real_side;
  if (!settings.in_place) real_side = std::make_unique<validate::DeviceBuffer>(real_bytes);
  if (forward) {
    std::vector<Real> host(real_bytes / sizeof(Real));
    if (settings.in_place) pack_padded(reals, size, host.data());
    else std::transform(reals.begin(), reals.end(), host.begin(), [](double v) { return static_cast<Real>(v); });
    staged.upload(host.data());
  } else {
    const std::vector<Complex> host(spectrum.begin(), spectrum.end());
    staged.upload(host.data());
  }
  Complex* const complex_at = static_cast<Complex*>(complex_side.get());
  Complex* const staged_complex = static_cast<Complex*>(staged.get());
  Real* const reals_at = settings.in_place ? static_cast<Real*>(complex_side.get())
                                           : static_cast<Real*>(real_side->get());
  // Out of place the input is `staged` itself (never written); in place the run's buffer is restored from it.
  const auto transform = [&](void* stream) {
    if (forward) {
      const Real* in = settings.in_place ? reals_at : static_cast<const Real*>(staged.get());
      engine.execute(in, complex_at, settings.options, static_cast<Stream>(stream));
    } else {
      const Complex* in = settings.in_place ? complex_at : staged_complex;
      engine.execute(in, reals_at, settings.options, static_cast<Stream>(stream));
    }
  };
  std::function<void(void*)> restore;
  if (settings.in_place) restore = [&](void* stream) { complex_side.copy_from(staged, stream); };

  if (settings.in_place) {
    complex_side.copy_from(staged);
  } else {
    (forward ? complex_side : *real_side).poison_nan();
  }
  transform(nullptr);
  if (forward) {
    std::vector<Complex> result(spectrum.size());
    complex_side.download(result.data());
    spectrum.assign(result.begin(), result.end());
  } else {
    std::vector<Real> result(real_bytes / sizeof(Real));
    (settings.in_place ? complex_side : *real_side).download(result.data());
    if (settings.in_place) unpack_padded(result.data(), size, reals);
    else std::transform(result.begin(), result.end(), reals.begin(), [](Real v) { return static_cast<double>(v); });
    if (!settings.in_place) {  // an out-of-place C2R never writes its input
      std::vector<Complex> after(spectrum.size());
      staged.download(after.data());
      if (after != std::vector<Complex>(spectrum.begin(), spectrum.end()))
        throw std::runtime_error("the out-of-place C2R transform wrote to its input buffer");
    }
  }
  const bench::Timing timing = bench::time_on_gpu(transform, warmup_runs, settings.repeats, nullptr, restore,
                                                  settings.in_place ? 0.0 : bench::batched_sample_ms);
  if (settings.per_kernel) {  // after the result was read back: the kernels alone overwrite the buffers
    void* out = forward ? static_cast<void*>(complex_at) : static_cast<void*>(reals_at);
    const void* in = settings.in_place ? out : staged.get();  // in place, reals_at and complex_at are one buffer
    std::ostringstream lines;
    report_kernels(engine, static_cast<const DeviceComplex32*>(in), static_cast<DeviceComplex32*>(out),
                   settings.options, bench::memcpy_gbytes_per_second(static_cast<std::int64_t>(spectrum_bytes)), lines);
    session.real_kernels = lines.str();
  }
  std::vector<double> seconds;
  for (double ms : timing.samples_ms) seconds.push_back(ms / 1e3);
  return seconds;
}

void report_cuda_extras(CudaSession& session, const RunSettings& settings, double median_seconds, std::ostream& out) {
  GpuTransform& engine = *session.engine;
  GpuProfiler profiler(engine);
  const Plan& plan = engine.plan();
  const double bytes = static_cast<double>(volume_bytes(plan));
  const double memcpy_gbs = bench::memcpy_gbytes_per_second(static_cast<std::int64_t>(bytes));
  void* source = session.input->get();
  void* target = session.output->get();
  const Extents rival = settings.asked_size.value_or(plan.size);  // the same memory as plan.size
  bench::CufftC2C cufft(rival, plan.precision, plan.batch);  // cufftPlanMany for a batch
  const bool fp64 = plan.precision == Precision::fp64;
  void* const cufft_input = settings.in_place ? target : source;
  const bench::Timing theirs = bench::time_on_gpu(
      [&](void* stream) { cufft.execute(cufft_input, target, settings.options.direction, stream); },
      warmup_runs, std::max(settings.repeats, 5), nullptr, {}, settings.in_place ? 0.0 : bench::batched_sample_ms);
  const double one_pass_ms = 2.0 * bytes / (memcpy_gbs * 1e6);
  const bench::Timing& ours = session.timed.at(settings.options.direction);
  out << std::fixed << std::setprecision(3) << "memcpy    " << memcpy_gbs << " GB/s (read + write), one pass "
      << one_pass_ms << " ms\n"
      << "cuFFT     " << theirs.median_ms << " ms median " << (fp64 ? "Z2Z fp64" : "C2C fp32")
      << of_size(rival, plan.size)
      << (plan.batch > 1 ? " cufftPlanMany batch " + std::to_string(plan.batch) : std::string()) << " (min "
      << theirs.min_ms << ", max " << theirs.max_ms
      << "), " << theirs.median_ms / one_pass_ms << " pass-equivalents; fft3d/cuFFT speed ratio "
      << theirs.median_ms / (median_seconds * 1e3) << "\n"
      << "setup     " << session.setup_ms << " ms to a ready plan (" << session.cold_kernels << " of "
      << profiler.kernels().size() << " kernels compiled by NVRTC, the rest from the disk cache; lowering "
      << profiler.setup_times().lowering_ms << ", kernels " << profiler.setup_times().kernels_ms << ", module loads "
      << profiler.setup_times().loading_ms << "), after " << session.context_ms << " ms of CUDA context creation\n"
      << "timing    a sample is " << ours.batch << " back-to-back fft3d transforms, " << theirs.batch
      << " cuFFT ones (each sample at least " << bench::batched_sample_ms << " ms; single runs in place); the host "
      << "issues one in " << ours.enqueue_ms * 1e3 << " us (fft3d), " << theirs.enqueue_ms * 1e3 << " us (cuFFT)\n";
  if (settings.per_kernel)
    report_kernels(engine, static_cast<DeviceComplex32*>(source), static_cast<DeviceComplex32*>(target),
                   settings.options, memcpy_gbs, out);
}

}  // namespace

Backend make_cuda_backend(const Plan& plan, const std::string& plan_name) {
  Backend backend;
  backend.name = "cuda";
  backend.error_bound = cuda_error_bound;
  backend.reference = validate::cufft_reference;
  if (validate::gpu_count() == 0) {
    backend.why_not = "no CUDA device (or no driver) on this machine";
    return backend;
  }
  auto session = std::make_shared<CudaSession>();
  session->context_ms = bench::create_cuda_context_ms();
  session->engine = std::make_unique<GpuTransform>(plan, plan_name);
  GpuProfiler profiler(*session->engine);
  session->setup_ms = profiler.setup_times().total_ms;
  for (const GpuKernelInfo& info : profiler.kernels()) session->cold_kernels += info.from_cache ? 0 : 1;
  backend.available = true;
  backend.run = [session](const Volume& in, Volume& out, const RunSettings& settings) {
    require_plan_precision(*session->engine, settings);
    return settings.precision == Precision::fp64 ? run_cuda<double>(*session, in, out, settings)
                                                 : run_cuda<float>(*session, in, out, settings);
  };
  backend.extra_report = [session](const RunSettings& settings, double median_seconds, std::ostream& out) {
    report_cuda_extras(*session, settings, median_seconds, out);
  };
  backend.run_real = [session](RealVolume& reals, Volume& spectrum, const RunSettings& settings) {
    require_plan_precision(*session->engine, settings);
    return settings.precision == Precision::fp64 ? run_cuda_real<double>(*session, reals, spectrum, settings)
                                                 : run_cuda_real<float>(*session, reals, spectrum, settings);
  };
  backend.real_report = [session](std::ostream& out) { out << session->real_kernels; };
  backend.volume_passes = [session](const RunSettings& settings) {
    return GpuProfiler(*session->engine).volume_passes(settings.options.order, settings.in_place ? Placement::in_place : Placement::out_of_place);
  };
  return backend;
}

}  // namespace fft3d::cli
