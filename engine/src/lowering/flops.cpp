// Rule: nominal flops of a kernel: the sum of plan_cost.hpp's sub_computation_flops over its stages, the one formula
// explain and the generated kernels' headers share.
#include "fft3d/plan_cost.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {

double nominal_flops(const KernelSpec& spec) {
  double flops = 0;
  for (const TileStage& stage : spec.stages) flops += sub_computation_flops(stage.sub, spec.size.elements());
  return flops;
}

}  // namespace fft3d::lowering
