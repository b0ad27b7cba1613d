// `fft3d run --gpus G`'s cufftXt line: cuFFT's own multi-GPU transform of the run's size, kind, precision and
// direction, measured after fft3d's (bench/cufftxt_run.hpp), as a single-GPU run prints cuFFT's.
#include <iomanip>
#include <iostream>

#include "bench/cufftxt.hpp"
#include "bench/cufftxt_run.hpp"
#include "multi_gpu_run.hpp"

namespace fft3d::cli {
namespace {

constexpr int warmup_runs = 1;

}  // namespace

void report_cufftxt(const MultiGpuRunSettings& settings, const std::vector<int>& devices, double fft3d_median_ms) {
  const std::string type = bench::cufft_type_name(settings.kind, settings.precision);
  try {
    const bench::CufftXtResult r = bench::measure_cufftxt(
        {.size = settings.size, .devices = devices, .kind = settings.kind, .precision = settings.precision,
         .direction = settings.options.direction, .bound = settings.bound, .warmup = warmup_runs,
         .repeats = settings.repeats, .seed = settings.seed});
    if (!r.checked) {
      std::cout << "cufftXt   " << type << ": no time, " << r.failure << "\n";
      return;
    }
    std::cout << std::fixed << std::setprecision(3) << "cufftXt   " << r.time.median_ms << " ms median of "
              << settings.repeats << " (min " << r.time.min_ms << ", max " << r.time.max_ms << "), " << type
              << " in place in its own format; round trip relative L2 " << std::scientific << std::setprecision(1)
              << r.round_trip_error << std::fixed << "; work area " << r.work_area_bytes << " B per GPU; "
              << bench::restore_text(r) << "; fft3d/cufftXt speed ratio " << std::setprecision(3)
              << r.time.median_ms / fft3d_median_ms << "\n";
  } catch (const std::exception& e) {
    std::cout << "cufftXt   " << type << ": no time, " << e.what() << "\n";
  }
}

}  // namespace fft3d::cli
