#include "fft3d/plan_cost.hpp"

#include <cmath>

namespace fft3d {

double paper_flops(const Extents& size) {
  const double n = static_cast<double>(size.elements());
  return 5.0 * n * std::log2(n);
}

double sub_computation_flops(const SubComputation& sub, std::int64_t elements) {
  const double r = static_cast<double>(sub.radix);
  const double butterflies = static_cast<double>(elements) / r;
  return butterflies * (5.0 * r * std::log2(r) + (sub.twiddle ? 6.0 * (r - 1) : 0.0));
}

PlanCost plan_cost(const Plan& plan, int element_bytes) {
  PlanCost cost;
  const std::int64_t n = plan.size.elements();
  for (const Kernel& kernel : plan.kernels) {
    KernelCost k{n * element_bytes, n * element_bytes, 0};
    for (const SubComputation& sub : kernel.subs) k.flops += sub_computation_flops(sub, n);
    cost.bytes_moved += k.bytes_read + k.bytes_written;
    cost.counted_flops += k.flops;
    cost.kernels.push_back(k);
  }
  cost.passes = static_cast<std::int64_t>(plan.kernels.size());
  cost.paper_flops = paper_flops(plan.size);
  return cost;
}

}  // namespace fft3d
