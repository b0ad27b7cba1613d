#include "cuda_report.hpp"

#include <iomanip>

#include "bench/kernel_profile.hpp"

namespace fft3d::cli {

void report_kernels(GpuTransform& engine, const DeviceComplex32* source, DeviceComplex32* target,
                    const TransformOptions& options, double memcpy_gbs, std::ostream& out) {
  const std::vector<bench::KernelProfile> profiles = bench::profile_kernels(engine, source, target, options);
  out << std::fixed << std::setprecision(3);
  for (std::size_t k = 0; k < profiles.size(); ++k) {
    const bench::KernelProfile& kernel = profiles[k];
    if (!kernel.runs) {
      out << "kernel " << k << "  digit-reversal pass: not run by this transform\n";
      continue;
    }
    out << "kernel " << k << "  " << kernel.median_ms << " ms, " << kernel.gbytes_per_second << " GB/s ("
        << std::setprecision(1) << 100.0 * kernel.gbytes_per_second / memcpy_gbs << "% of memcpy), "
        << kernel.info.registers << " registers";
    if (kernel.twin_ms)
      out << std::setprecision(3) << "; copy twin " << *kernel.twin_ms << " ms, kernel/twin "
          << kernel.median_ms / *kernel.twin_ms;
    out << std::setprecision(3) << "\n";
  }
}

}  // namespace fft3d::cli
