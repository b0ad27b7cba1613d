#include "real_run.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>

#include "fft3d/errors.hpp"
#include "commands.hpp"
#include "report_lines.hpp"
#include "validate/oracle.hpp"

namespace fft3d::cli {
namespace {

// FFTW's and cuFFT's flop count of a real transform: half the complex transform's 5 N log2 N.
constexpr double real_flops_per_point_log = 2.5;

struct RealBytes {
  double reals = 0;     // the real volume, unpadded
  double spectrum = 0;  // the half spectrum
};

// Of the whole batch.
RealBytes real_bytes(const Plan& plan, Precision precision) {
  const double real_size = precision == Precision::fp64 ? sizeof(double) : sizeof(float);
  const double volumes = static_cast<double>(plan.batch);
  return {volumes * static_cast<double>(plan.size.elements()) * real_size,
          volumes * static_cast<double>(spectrum_extents(plan).elements()) * 2 * real_size};
}

void print_header(const Plan& plan, const std::string& how, const Backend& backend, const RunSettings& settings) {
  const TransformKind kind = kind_of(plan);
  const RealBytes bytes = real_bytes(plan, settings.precision);
  const std::string reals = to_string(plan.size) + " reals", spectrum = to_string(spectrum_extents(plan)) + " complex";
  std::cout << "plan      " << how << "\nsize      " << to_string(plan.size) << " (" << plan.size.elements()
            << " real points)" << (plan.batch > 1 ? " x " + std::to_string(plan.batch) + " volumes" : "") << ", "
            << plan.arch << " plan, " << plan.kernels.size() << " kernels\n"
            << "transform " << to_string(kind) << " (" << to_string(settings.options.direction) << "): "
            << (kind == TransformKind::r2c ? reals + " -> " + spectrum : spectrum + " -> " + reals) << "\n"
            << std::fixed << std::setprecision(1) << "bytes     real volume " << bytes.reals / 1e6
            << " MB, half spectrum " << bytes.spectrum / 1e6 << " MB (" << to_string(settings.precision) << ")\n"
            << "backend   " << backend.name << ", " << to_string(settings.precision) << ", "
            << to_string(settings.options.order) << " order, scaling " << to_string(settings.options.scaling) << ", "
            << (settings.in_place ? "in place (rows padded to 2*(NX/2+1) reals)" : "out of place") << "\n";
}

// Time, GFlops by the real-data count, and the bandwidth of the floor: one read of the input and one write of the
// output over the median time.
void print_real_timing(const Plan& plan, const RunSettings& settings, const std::vector<double>& seconds) {
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2];
  const RealBytes bytes = real_bytes(plan, settings.precision);
  const double n = static_cast<double>(plan.size.elements());
  const double flops = static_cast<double>(plan.batch) * real_flops_per_point_log * n * std::log2(n);
  std::cout << std::fixed << std::setprecision(3) << "time      " << median * 1e3 << " ms median of "
            << settings.repeats << " (min " << sorted.front() * 1e3 << ", max " << sorted.back() * 1e3 << ")\n"
            << std::setprecision(2) << "GFlops    " << flops / median / 1e9
            << " (2.5 N log2 N / t a volume, the real-data count)\nbandwidth "
            << (bytes.reals + bytes.spectrum) / median / 1e9
            << " GB/s over the floor's " << (bytes.reals + bytes.spectrum) / 1e6
            << " MB (one read of the input, one write of the output)\n";
}

// FFTW's fp64 r2c and c2r of one volume over the plan's axes: the 3D transforms, or those over its axes only.
void r2c_reference(const Plan& plan, std::span<const double> in, std::span<std::complex<double>> out,
                   Scaling scaling = Scaling::none) {
  if (transforms_all_axes(plan)) return validate::fftw_r2c_reference(plan.size, in, out, scaling);
  validate::fftw_axes_r2c_reference(plan.size, plan.axes, in, out, scaling);
}
void c2r_reference(const Plan& plan, std::span<const std::complex<double>> in, std::span<double> out,
                   Scaling scaling) {
  if (transforms_all_axes(plan)) return validate::fftw_c2r_reference(plan.size, in, out, scaling);
  validate::fftw_axes_c2r_reference(plan.size, plan.axes, in, out, scaling);
}

}  // namespace

int run_real_against_oracle(const Plan& plan, const std::string& how, const Backend& backend,
                            const RunSettings& settings, double bound, std::uint64_t seed) {
  if (!backend.run_real) throw UsageError("the " + backend.name + " backend has no real transforms");
  const Extents& size = plan.size;
  const bool forward = kind_of(plan) == TransformKind::r2c;
  const std::size_t real_count = static_cast<std::size_t>(size.elements());
  const std::size_t spectrum_count = static_cast<std::size_t>(spectrum_extents(plan).elements());
  const auto volumes = static_cast<std::size_t>(plan.batch);
  RealVolume reals(real_count * volumes);
  Volume spectrum(spectrum_count * volumes);
  {
    Volume noise(reals.size());
    validate::fill_random(noise, seed);
    std::transform(noise.begin(), noise.end(), reals.begin(), [](const std::complex<double>& v) { return v.real(); });
  }
  const auto reals_of = [&](RealVolume& data, std::size_t v) {
    return std::span(data).subspan(v * real_count, real_count);
  };
  const auto spectrum_of = [&](Volume& data, std::size_t v) {
    return std::span(data).subspan(v * spectrum_count, spectrum_count);
  };
  // C2R reads the half spectrum of random reals over the plan's axes: Hermitian where a real volume's spectrum is,
  // so that every C2R (this one, FFTW's) computes the same reals from it.
  if (!forward)
    for (std::size_t v = 0; v < volumes; ++v) r2c_reference(plan, reals_of(reals, v), spectrum_of(spectrum, v));

  // The oracle first (FFTW in fp64, volume by volume), then the output poisoned.
  RealVolume expected_reals;
  Volume expected_spectrum;
  if (forward) {
    expected_spectrum.resize(spectrum.size());
    for (std::size_t v = 0; v < volumes; ++v)
      r2c_reference(plan, reals_of(reals, v), spectrum_of(expected_spectrum, v), settings.options.scaling);
    validate::poison(spectrum);
  } else {
    expected_reals.resize(reals.size());
    for (std::size_t v = 0; v < volumes; ++v)
      c2r_reference(plan, spectrum_of(spectrum, v), reals_of(expected_reals, v), settings.options.scaling);
    std::fill(reals.begin(), reals.end(), std::numeric_limits<double>::quiet_NaN());
  }

  print_header(plan, how, backend, settings);
  const std::vector<double> seconds = backend.run_real(reals, spectrum, settings);
  const validate::ErrorReport error = forward ? worst_volume(spectrum, expected_spectrum, plan.batch).report
                                              : worst_volume(reals, expected_reals, plan.batch).report;
  print_error("error     ", error, forward ? spectrum_extents(plan) : size, bound);
  std::cout << "check     against FFTW's fp64 " << (forward ? "r2c" : "c2r")
            << (transforms_all_axes(plan) ? "" : " over axes " + axes_text(plan.axes))
            << (plan.batch > 1 ? ", every volume (the worst one reported)" : "") << "\n";
  if (!error.passes(bound)) {
    std::cerr << "fft3d run: error: the result is over the " << to_string(settings.precision) << " error bound "
              << bound << "; no timing is reported\n";
    return exit_failed;
  }
  print_real_timing(plan, settings, seconds);
  if (backend.real_report) backend.real_report(std::cout);
  return exit_ok;
}

}  // namespace fft3d::cli
