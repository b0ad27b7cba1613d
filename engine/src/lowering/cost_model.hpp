// The default planner's cost of a lowered kernel on its profile (ArchProfile::cost; docs/performance.md#cost-model).
#pragma once

#include "fft3d/arch_profile.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d::lowering {

// What `spec` costs beyond its one pass over memory, in passes, by profile.cost's charges for the features of its
// tile. @post >= 0, and exactly 0 where every charge of profile.cost is 0.
double cost_beyond_one_pass(const KernelSpec& spec, const ArchProfile& profile);

}  // namespace fft3d::lowering
