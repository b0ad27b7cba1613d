// The default planner: a legal plan for any power-of-two size, built with the paper's grouping ideas. Y and Z are
// split into balanced stages, one kernel each; X is split into as many stages as there are Y/Z kernels, and each X
// stage rides inside one of them, so X costs no pass of its own (paper §4.3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d {

// The largest radix one stage of a planned plan uses on each kind of axis, per profile.
struct PlannerLimits {
  std::int64_t max_yz_radix = 16;
  std::int64_t max_x_radix = 8;
};
PlannerLimits planner_limits(const ArchProfile& profile);

// Radices (powers of two, larger first) of a balanced split of n into `stages` stages.
// @pre n is a power of two, 1 <= stages <= log2(n).  @post the product is n and max/min <= 2.
std::vector<std::int64_t> balanced_radices(std::int64_t n, int stages);

// The DIF chain of one axis for the given radices: spans N, N/r1, ..., strides N/r1, ..., 1.
std::vector<SubComputation> dif_stages(Axis axis, std::int64_t n, const std::vector<std::int64_t>& radices);

// A legal plan for `size` on the named profile. Throws UsageError for a size that is not a power of two per axis
// or an unknown arch.
Plan default_plan(const Extents& size, const std::string& arch);

// "256x128x64" -> Extents; throws UsageError on anything else.
Extents parse_extents(const std::string& text);

}  // namespace fft3d
