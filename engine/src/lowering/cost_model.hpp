// The default planner's cost of a lowered kernel on its profile (ArchProfile::cost; docs/performance.md#cost-model).
#pragma once

#include <vector>

#include "fft3d/arch_profile.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d::lowering {

// What `spec` costs beyond its one pass over memory, in passes, by profile.cost's charges for the features of its
// tile. @post >= 0, and exactly 0 where every charge of profile.cost is 0.
double cost_beyond_one_pass(const KernelSpec& spec, const ArchProfile& profile);

// The model's terms for `lowered` (the lowering of `plan` on `profile`) run in one placement: each kernel's charges
// beyond its one pass, and the digit-reversal pass's: 1 where natural order takes it in that placement, a tie-break
// of a hundredth out of place where only runs in place take it, else 0; likewise the sorted layout's late form
// (CostModel::late_sorted_stores in place, the tie-break out of place). total() is what the planner ranks by.
struct ModelTerms {
  std::vector<double> beyond_one_pass;  // per kernel
  double reorder = 0;
  double late_sort = 0;  // the sorted layout's late form (sorted_layout.cpp)
  double real_pass = 0;  // a 1D real plan's step apart (LoweredPlan::real_pass)
  double total() const;
};
ModelTerms model_terms(const Plan& plan, const LoweredPlan& lowered, const ArchProfile& profile, bool in_place);

}  // namespace fft3d::lowering
