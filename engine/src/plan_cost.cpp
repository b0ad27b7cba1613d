#include "fft3d/plan_cost.hpp"

#include <cmath>

namespace fft3d {

double paper_flops(const Extents& size) {
  const double n = static_cast<double>(size.elements());
  return 5.0 * n * std::log2(n);
}

PlanCost plan_cost(const Plan& plan, int element_bytes) {
  PlanCost cost;
  const std::int64_t n = plan.size.elements();
  for (const Kernel& kernel : plan.kernels) {
    KernelCost k{n * element_bytes, n * element_bytes, 0};
    for (const SubComputation& sub : kernel.subs) {
      const double r = static_cast<double>(sub.radix);
      const double butterflies = static_cast<double>(n) / r;
      k.flops += butterflies * 5.0 * r * std::log2(r);
      // Twiddles w^(j*m) are trivial for j == 0 or m == 0: (stride - 1) * (radix - 1) per group of span.
      if (sub.twiddle)
        k.flops += 6.0 * static_cast<double>(n) / static_cast<double>(sub.span) *
                   static_cast<double>(sub.stride - 1) * (r - 1);
    }
    cost.bytes_moved += k.bytes_read + k.bytes_written;
    cost.counted_flops += k.flops;
    cost.kernels.push_back(k);
  }
  cost.passes = static_cast<std::int64_t>(plan.kernels.size());
  cost.paper_flops = paper_flops(plan.size);
  return cost;
}

}  // namespace fft3d
