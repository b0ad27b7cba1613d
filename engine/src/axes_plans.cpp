// Plans of a subset of axes (Plan::axes): the default planner's decompositions of the transformed axes, weighed by
// the lowering at the real size, where the untransformed axes are batch indices of every kernel's tiles.
#include <algorithm>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/planner.hpp"

namespace fft3d {
namespace {

// Throws UsageError unless `axes` names at least one axis, each once, in X, Y, Z order (Plan::axes's contract).
void require_axes(const std::vector<Axis>& axes) {
  const bool ordered = std::adjacent_find(axes.begin(), axes.end(), [](Axis a, Axis b) {
                         return axis_index(a) >= axis_index(b);
                       }) == axes.end();
  if (axes.empty() || !ordered)
    throw UsageError("axes " + axes_text(axes) + ": expected at least one axis, each once, in X, Y, Z order");
}

bool transforms_axis(const std::vector<Axis>& axes, Axis axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

}  // namespace

Plan default_axes_plan(const Extents& size, const std::string& arch, const std::vector<Axis>& axes,
                       const PlanPasses& passes) {
  require_axes(axes);
  // The untransformed axes may have any positive length (batch indices, such as the rows of a half spectrum,
  // NX/2 + 1 long), and are planned at length 1: the planner gives them no stages.
  check_size_limits(size, axes);
  const auto length = [&](Axis axis) { return transforms_axis(axes, axis) ? size[axis] : 1; };
  const Extents transformed{length(Axis::x), length(Axis::y), length(Axis::z)};
  const auto at_real_size = [&](Plan plan) {
    plan.size = size;
    plan.axes = axes;
    return plan;
  };
  const PlanPasses passes_at_real_size = [&](const Plan& plan) { return passes(at_real_size(plan)); };
  Plan plan;
  try {
    plan = at_real_size(default_plan(transformed, arch, passes_at_real_size));
  } catch (const UsageError& e) {
    throw UsageError("axes " + axes_text(axes) + " of size " + to_string(size) + ": " + e.what());
  }
  require_legal(plan);
  return plan;
}

}  // namespace fft3d
