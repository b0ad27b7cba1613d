#include "real_oracle.hpp"

#include <fftw3.h>

#include <mutex>
#include <string>
#include <vector>

#include "fft3d/diagnostics.hpp"

namespace fft3d::cli {
namespace {

// FFTW's planner is not thread-safe; its execute is.
std::mutex& planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

void require_count(std::size_t given, std::int64_t expected, const char* what) {
  if (static_cast<std::int64_t>(given) != expected)
    throw UsageError(std::string("the real oracle's ") + what + " buffer holds " + std::to_string(given) +
                     " values, expected " + std::to_string(expected));
}

}  // namespace

void fftw_real_reference(const Extents& size, std::span<double> reals, std::span<std::complex<double>> spectrum,
                         Direction direction, Scaling scaling) {
  const Extents half{size.nx / 2 + 1, size.ny, size.nz};
  require_count(reals.size(), size.elements(), "real");
  require_count(spectrum.size(), half.elements(), "spectrum");
  // FFTW's dimensions run slowest first: Z, Y, X (contiguous).
  const int nz = static_cast<int>(size.nz), ny = static_cast<int>(size.ny), nx = static_cast<int>(size.nx);
  auto* complex_data = reinterpret_cast<fftw_complex*>(spectrum.data());
  fftw_plan plan = nullptr;
  std::vector<std::complex<double>> kept;  // a multi-dimensional c2r overwrites its input: FFTW reads a copy
  {
    const std::lock_guard<std::mutex> lock(planner_mutex());
    if (direction == Direction::forward) {
      plan = fftw_plan_dft_r2c_3d(nz, ny, nx, reals.data(), complex_data, FFTW_ESTIMATE);
    } else {
      kept.assign(spectrum.begin(), spectrum.end());
      plan = fftw_plan_dft_c2r_3d(nz, ny, nx, reinterpret_cast<fftw_complex*>(kept.data()), reals.data(),
                                  FFTW_ESTIMATE);
    }
  }
  if (!plan) throw UsageError("FFTW could not plan the real oracle of " + to_string(size));
  fftw_execute(plan);
  {
    const std::lock_guard<std::mutex> lock(planner_mutex());
    fftw_destroy_plan(plan);
  }
  if (scaling != Scaling::full) return;
  const double factor = 1.0 / static_cast<double>(size.elements());
  if (direction == Direction::forward) {
    for (std::complex<double>& value : spectrum) value *= factor;
  } else {
    for (double& value : reals) value *= factor;
  }
}

}  // namespace fft3d::cli
