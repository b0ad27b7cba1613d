#include "backends.hpp"
#include "closed_form_run.hpp"
#include "real_run.hpp"

#include <chrono>
#include <span>
#include <stdexcept>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/diagnostics.hpp"
#include "validate/oracle.hpp"
#ifdef FFT3D_HAVE_CUDA
#include "fft3d/gpu_transform.hpp"
#endif

namespace fft3d::cli {
namespace {

constexpr double fp64_cpu_error_bound = 1e-12;
// The GPU's fp64 bound against cuFFT Z2Z in fp64 (whose own error against FFTW is near 1e-15).
constexpr double fp64_cuda_error_bound = 1e-13;

template <typename Real>
std::vector<double> run_cpu(const CpuTransform& cpu, const Volume& in, Volume& out, const RunSettings& settings) {
  using Complex = std::complex<Real>;
  std::vector<Complex> input(in.begin(), in.end());
  std::vector<Complex> output(out.begin(), out.end());  // poisoned like `out`
  std::vector<double> seconds;
  for (int r = 0; r < settings.repeats; ++r) {
    if (settings.in_place) output.assign(input.begin(), input.end());
    const auto start = std::chrono::steady_clock::now();
    if (settings.in_place) {
      cpu.execute(std::span<Complex>(output), settings.options);
    } else {
      cpu.execute(std::span<const Complex>(input), std::span<Complex>(output), settings.options);
    }
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  out.assign(output.begin(), output.end());
  return seconds;
}

// A real plan on the CPU: CpuTransform's real overloads, in place on padded rows (one buffer viewed both ways).
template <typename Real>
std::vector<double> run_cpu_real(const CpuTransform& cpu, RealVolume& reals, Volume& spectrum,
                                 const RunSettings& settings) {
  using Complex = std::complex<Real>;
  const Extents size = batch_rows_extents(cpu.plan());
  const bool forward = settings.options.direction == Direction::forward;
  std::vector<Real> real_data(reals.begin(), reals.end());               // R2C's input, C2R's (poisoned) output
  std::vector<Complex> complex_data(spectrum.begin(), spectrum.end());  // the other way round
  const std::vector<Complex> spectrum_in = complex_data;
  std::vector<Complex> padded(spectrum.size());
  Real* const padded_reals = reinterpret_cast<Real*>(padded.data());
  std::vector<double> seconds;
  for (int r = 0; r < settings.repeats; ++r) {
    if (settings.in_place && forward) pack_padded(reals, size, padded_reals);
    if (settings.in_place && !forward) padded = spectrum_in;
    const auto start = std::chrono::steady_clock::now();
    if (settings.in_place) {
      if (forward) cpu.execute(static_cast<const Real*>(padded_reals), padded.data(), settings.options);
      else cpu.execute(static_cast<const Complex*>(padded.data()), padded_reals, settings.options);
    } else {
      if (forward) cpu.execute(static_cast<const Real*>(real_data.data()), complex_data.data(), settings.options);
      else cpu.execute(static_cast<const Complex*>(complex_data.data()), real_data.data(), settings.options);
    }
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (!forward && !settings.in_place && complex_data != spectrum_in)
    throw std::runtime_error("the out-of-place C2R transform wrote to its input");
  if (forward) {
    spectrum.assign(settings.in_place ? padded.begin() : complex_data.begin(),
                    settings.in_place ? padded.end() : complex_data.end());
  } else if (settings.in_place) {
    unpack_padded(padded_reals, size, reals);
  } else {
    reals.assign(real_data.begin(), real_data.end());
  }
  return seconds;
}

Backend cpu_backend(const Plan& plan) {
  Backend backend;
  backend.name = "cpu";
  backend.available = true;
  backend.error_bound = cpu_error_bound;
  backend.reference = validate::fftw_reference;
  backend.run = [plan](const Volume& in, Volume& out, const RunSettings& settings) {
    const CpuTransform cpu(plan, settings.threads);
    return settings.precision == Precision::fp64 ? run_cpu<double>(cpu, in, out, settings)
                                                 : run_cpu<float>(cpu, in, out, settings);
  };
  backend.run_real = [plan](RealVolume& reals, Volume& spectrum, const RunSettings& settings) {
    const CpuTransform cpu(plan, settings.threads);
    return settings.precision == Precision::fp64 ? run_cpu_real<double>(cpu, reals, spectrum, settings)
                                                 : run_cpu_real<float>(cpu, reals, spectrum, settings);
  };
  return backend;
}

}  // namespace

#ifdef FFT3D_HAVE_CUDA
std::string gpu_device_name() {
  try {
    return current_device_name();
  } catch (const Error&) {
    return {};
  }
}
#else
std::string gpu_device_name() { return {}; }

Backend make_cuda_backend(const Plan&, const std::string&) {
  Backend backend;
  backend.name = "cuda";
  backend.why_not = "this build has no CUDA backend (no CUDA toolkit was found at build time)";
  backend.error_bound = cuda_error_bound;
  return backend;
}
// Never reached: a backend that is not available stops `run` before any check.
int run_closed_form_on_cuda(const Plan&, const std::string&, const ClosedFormSettings&) { return exit_unavailable; }
int run_real_closed_form_on_cuda(const Plan&, const std::string&, const Plan&, const std::string&,
                                 const ClosedFormSettings&) {
  return exit_unavailable;
}
#endif

std::optional<double> cpu_error_bound(Precision precision) {
  return precision == Precision::fp64 ? fp64_cpu_error_bound : validate::fp32_error_bound;
}

std::optional<double> cuda_error_bound(Precision precision) {
  return precision == Precision::fp32 ? validate::fp32_error_bound : fp64_cuda_error_bound;
}

Backend select_backend(const std::string& name, const Plan& plan, const std::string& plan_name) {
  if (name == "cpu") return cpu_backend(plan);
  if (name == "cuda") return make_cuda_backend(plan, plan_name);
  if (name == "auto") {
    Backend cuda = make_cuda_backend(plan, plan_name);
    return cuda.available ? cuda : cpu_backend(plan);
  }
  throw UsageError("unknown backend '" + name + "': expected cpu, cuda or auto");
}

}  // namespace fft3d::cli
