// Lines of the `fft3d run` report shared by its two checks (the fp64 oracle, the closed form).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "validate/oracle.hpp"

namespace fft3d::cli {

// " of 1x1024x1024" where cuFFT, the rival, runs the size asked for and the plan its squeezed size; "" otherwise.
std::string of_size(const Extents& rival, const Extents& planned);

// Every volume of a packed batch (`batch` volumes of equal length in each buffer) compared apart: the worst one's
// report (any non-finite value first, then by relative L2), and which volume it is.
struct BatchError {
  validate::ErrorReport report;
  std::int64_t volume = 0;
};
template <class T>
BatchError worst_volume(const std::vector<T>& out, const std::vector<T>& ref, std::int64_t batch) {
  const std::size_t n = out.size() / static_cast<std::size_t>(batch);
  BatchError worst;
  for (std::int64_t v = 0; v < batch; ++v) {
    const std::size_t first = static_cast<std::size_t>(v) * n;
    const validate::ErrorReport e =
        validate::compare(std::span<const T>(out.data() + first, n), std::span<const T>(ref.data() + first, n));
    const bool worse = v == 0 || e.non_finite > worst.report.non_finite ||
                       (e.non_finite == worst.report.non_finite && e.relative_l2 > worst.report.relative_l2);
    if (worse) worst = {e, v};
  }
  return worst;
}

// "<what>relative L2 ..., peak ... at (x, y, z) (bound ...): pass|FAIL".
void print_error(const std::string& what, const validate::ErrorReport& e, const Extents& size, double bound);

// time (median, min, max of `repeats` runs, in seconds), GFlops (5 N log2 N / t), bandwidth (bytes moved at
// `element_bytes` per value) and the paper's 8 N accesses / t, over `volume_passes` reads and writes of the volume:
// what the backend ran (GpuProfiler::volume_passes counts a launched reorder pass), or 0 for the plan's kernels.
// A batch plan's figures count all plan.batch volumes.
void print_timing(const Plan& plan, std::int64_t element_bytes, std::int64_t volume_passes, double median, double min,
                  double max, int repeats);

}  // namespace fft3d::cli
