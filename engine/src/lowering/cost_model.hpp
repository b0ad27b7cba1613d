// The default planner's cost of a lowered kernel on its profile (ArchProfile::cost; docs/performance.md#cost-model).
#pragma once

#include "fft3d/arch_profile.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d::lowering {

// What `spec` costs beyond its one pass over memory, in passes, by profile.cost's charges for the features of its
// tile. @post >= 0, and exactly 0 where every charge of profile.cost is 0.
double cost_beyond_one_pass(const KernelSpec& spec, const ArchProfile& profile);

// Whether the model charges `plan` the digit-reversal pass (one pass) for runs in the placement: a complex plan
// whose natural order takes that pass there. Real plans never run it (a real plan that would is not taken there).
bool charges_reorder_pass(const Plan& plan, const LoweredPlan& lowered, bool in_place);

}  // namespace fft3d::lowering
