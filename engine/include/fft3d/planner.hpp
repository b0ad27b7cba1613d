// The default planner: a legal plan for any power-of-two size, built with the paper's grouping ideas. Y and Z are
// split into balanced stages, one kernel each; X stages ride inside them where the tiles allow, so X costs no pass
// of its own (paper §4.3), and otherwise run in X-only kernels after them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

// The passes over memory a plan makes where it is meant to run (its kernels plus any digit-reversal pass natural
// order needs), in pass-equivalents where a kernel costs more than one pass, or nothing when it cannot run there
// (e.g. a tile over the profile's shared memory).
using PlanPasses = std::function<std::optional<double>(const Plan&)>;

// The lowering's answer, the planner's default: the passes of a legal plan lowered on its own profile (plan.arch) in
// natural order, in pass-equivalents: its kernels plus the digit-reversal pass when one is needed, each kernel
// charged what such kernels measured beyond their copy twins (the profile's cost model); nothing when a kernel does
// not lower. Pure CPU code: the same answer on every build.
std::optional<double> passes_on_its_profile(const Plan& plan);

// The most candidates one search weighs (checks and passes), a bound on the time of any search: above the count
// the largest searches of common sizes need (a 4096^3 plan for hopper weighs about 1400). A search that reaches it
// keeps the best found so far, or throws when none could run.
inline constexpr int max_planner_candidates = 2048;

// A legal plan for `size` on the named profile: among the candidate decompositions (Y and Z radices from the
// profile's limit down, X split into stages that ride in the Y/Z kernels or run in X-only kernels after them), the
// one with the fewest passes by `passes` (passes_on_its_profile without it), ties broken by the largest radices. Throws
// UsageError for a size that is not a power of two per axis or holds more than max_elements (checked before any
// planning work), an unknown arch, or when no candidate can run.
Plan default_plan(const Extents& size, const std::string& arch, const PlanPasses& passes = {});

// The `count` best distinct candidates by `passes`, cheapest first (ties in the order above): the first is
// default_plan's. For measured planning (`fft3d plan --measure N`), which times them on the GPU. Throws like
// default_plan, and UsageError for count < 1.
struct RankedPlan {
  Plan plan;
  double passes = 0;
};
std::vector<RankedPlan> ranked_plans(const Extents& size, const std::string& arch, const PlanPasses& passes,
                                     int count);

// "256x128x64" -> Extents; throws UsageError on anything else.
Extents parse_extents(const std::string& text);

}  // namespace fft3d
