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

namespace {

// Which side of the real step kernel `k` starts and ends on: the step's own kernel reads one size and writes the
// other. For c2c both are the whole volume.
struct KernelSides {
  bool reads_spectrum = false;
  bool writes_spectrum = false;
};

KernelSides sides_of(const Plan& plan, std::size_t k) {
  std::size_t step_kernel = 0;
  while (step_kernel < plan.kernels.size() && !plan.kernels[step_kernel].real) ++step_kernel;
  if (step_kernel == plan.kernels.size()) return {};
  const bool r2c = plan.kernels[step_kernel].real->kind == TransformKind::r2c;
  const bool after = k > step_kernel, at_or_after = k >= step_kernel;
  return r2c ? KernelSides{after, at_or_after} : KernelSides{!after, !at_or_after};
}

}  // namespace

PlanCost plan_cost(const Plan& plan, int element_bytes) {
  PlanCost cost;
  const bool real = real_step_of(plan).has_value();
  const std::int64_t packed = stage_extents(plan).elements(), spectrum = spectrum_extents(plan).elements();
  // The real side's bytes: the reals themselves (an odd NX's X stages run on NX complex values a row, twice them).
  const std::int64_t real_side = real ? plan.size.elements() * element_bytes / 2 : packed * element_bytes;
  for (std::size_t index = 0; index < plan.kernels.size(); ++index) {
    const Kernel& kernel = plan.kernels[index];
    const KernelSides sides = sides_of(plan, index);
    KernelCost k{sides.reads_spectrum ? spectrum * element_bytes : real_side,
                 sides.writes_spectrum ? spectrum * element_bytes : real_side, 0};
    for (const SubComputation& sub : kernel.subs)
      k.flops += sub_computation_flops(sub, sub.axis == Axis::x ? packed : spectrum);
    if (kernel.real && packs_real_rows(plan)) k.flops += real_step_flops_per_value * static_cast<double>(spectrum);
    cost.bytes_moved += k.bytes_read + k.bytes_written;
    cost.counted_flops += k.flops;
    cost.kernels.push_back(k);
  }
  cost.passes = static_cast<std::int64_t>(plan.kernels.size());
  cost.paper_flops = paper_flops(plan.size) / (real ? 2.0 : 1.0);
  if (real) {
    cost.real_bytes = plan.size.elements() * element_bytes / 2;
    cost.spectrum_bytes = spectrum * element_bytes;
  }
  return cost;
}

}  // namespace fft3d
