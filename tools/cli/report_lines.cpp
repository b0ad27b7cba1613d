#include "report_lines.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>

#include "fft3d/plan_cost.hpp"

namespace fft3d::cli {
namespace {

std::string coordinates(const Extents& size, std::int64_t index) {
  std::ostringstream text;
  text << '(' << index % size.nx << ", " << index / size.nx % size.ny << ", " << index / (size.nx * size.ny) << ')';
  return text.str();
}

}  // namespace

std::string of_size(const Extents& rival, const Extents& planned) {
  return rival == planned ? "" : " of " + to_string(rival);
}

void print_error(const std::string& what, const validate::ErrorReport& e, const Extents& size, double bound) {
  // The bound is on the relative L2 error (and no value may be non-finite); the peak is for reading, not judged.
  std::cout << std::scientific << std::setprecision(3) << what << "relative L2 " << e.relative_l2 << " (bound "
            << bound << "): " << (e.passes(bound) ? "pass" : "FAIL") << "; peak " << e.peak_error << " at "
            << coordinates(size, e.peak_index);
  if (e.non_finite > 0) std::cout << ", " << e.non_finite << " values not finite";
  std::cout << "\n";
}

void print_timing(const Plan& plan, std::int64_t element_bytes, std::int64_t volume_passes, double median, double min,
                  double max, int repeats) {
  const std::int64_t passes = volume_passes > 0 ? volume_passes : static_cast<std::int64_t>(plan.kernels.size());
  const double volumes = static_cast<double>(plan.batch);  // every figure counts the whole batch
  const double bytes_moved = 2.0 * volumes * static_cast<double>(plan.size.elements() * element_bytes * passes);
  const double accesses = 2.0 * static_cast<double>(passes);
  std::cout << std::fixed << std::setprecision(3) << "time      " << median * 1e3 << " ms median of " << repeats
            << " (min " << min * 1e3 << ", max " << max * 1e3 << ")\n"
            << std::setprecision(2) << "GFlops    " << volumes * paper_flops(plan.size) / median / 1e9
            << " (5 N log2 N / t)\nbandwidth " << bytes_moved / median / 1e9 << " GB/s (" << passes
            << " passes, " << bytes_moved / 1e6 << " MB moved); paper's 8 N accesses / t: "
            << 8.0 * volumes * static_cast<double>(plan.size.elements()) * accesses / median / 1e9 << " GB/s\n";
}

}  // namespace fft3d::cli
