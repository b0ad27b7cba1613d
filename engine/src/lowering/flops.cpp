// Rule: nominal flops of a kernel: 5 r log2 r per radix-r butterfly (the paper's count) plus 6 per twiddle
// multiplication (r - 1 per twiddled butterfly).
#include <cmath>

#include "lowering_rules.hpp"

namespace fft3d::lowering {

double nominal_flops(const KernelSpec& spec) {
  const double elements = static_cast<double>(spec.size.elements());
  double flops = 0;
  for (const TileStage& stage : spec.stages) {
    const double r = static_cast<double>(stage.sub.radix);
    const double butterflies = elements / r;
    flops += butterflies * 5.0 * r * std::log2(r);
    if (stage.sub.twiddle) flops += butterflies * 6.0 * (r - 1);
  }
  return flops;
}

}  // namespace fft3d::lowering
