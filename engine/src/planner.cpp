#include "fft3d/planner.hpp"

#include <algorithm>
#include <bit>
#include <array>
#include <cctype>
#include <map>
#include <string>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/limits.hpp"
#include "radix_splits.hpp"

namespace fft3d {

PlannerLimits planner_limits(const ArchProfile& profile) {
  return {profile.planner_max_yz_radix, profile.planner_max_x_radix};
}

std::vector<std::int64_t> balanced_radices(std::int64_t n, int stages) {
  if (n == 1) return std::vector<std::int64_t>(static_cast<std::size_t>(stages), 1);
  return planning::radix_splits(n, stages, n).front();
}

std::vector<SubComputation> dif_stages(Axis axis, std::int64_t n, const std::vector<std::int64_t>& radices) {
  std::vector<SubComputation> stages;
  std::int64_t span = n;
  for (std::int64_t radix : radices) {
    const std::int64_t stride = span / radix;
    stages.push_back({axis, n / radix, radix, stride, span, stride > 1});
    span = stride;
  }
  return stages;
}

namespace {

// The Y or Z radices of an n-long axis with radices up to `max_radix`: the most balanced split into the fewest
// stages, larger radices first; nothing when a prime factor of n is over max_radix.
std::optional<std::vector<std::int64_t>> yz_radices(std::int64_t n, std::int64_t max_radix) {
  const std::optional<int> stages = planning::stages_needed(n, max_radix);
  if (!stages) return std::nullopt;
  return planning::radix_splits(n, *stages, max_radix).front();
}

// One decomposition: Y and Z with radices up to `yz_radix`, one kernel per stage; X with `x_radices`, the first
// `riding` stages riding in the first Y/Z kernels, the others in X-only kernels after them.
// @pre yz_radices of Y and Z with `yz_radix` exist.
Plan candidate_plan(const Extents& size, const std::string& arch, std::int64_t yz_radix,
                    const std::vector<std::int64_t>& x_radices, std::size_t riding) {
  Plan plan{size, arch, {}};
  for (Axis axis : {Axis::y, Axis::z}) {
    const std::int64_t n = size[axis];
    for (const SubComputation& stage : dif_stages(axis, n, *yz_radices(n, yz_radix)))
      plan.kernels.push_back({{stage}});
  }
  const std::vector<SubComputation> x = dif_stages(Axis::x, size.nx, x_radices);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i < riding) {
      plan.kernels[i].subs.insert(plan.kernels[i].subs.begin(), x[i]);
    } else {
      plan.kernels.push_back({{x[i]}});
    }
  }
  return plan;
}

// Two kernels with `split` cut between them (its first stage radix `first_radix`, over a stride): {X whole, the
// split axis's first stage} {its second stage, the third axis whole}. The split axis is Y or Z, so the lowering can
// store natural order through the sorted layout (sorted_layout.cpp) with no exchange between tiles; X whole in the
// first kernel keeps X natural inside its tile.
Plan split_axis_plan(const Extents& size, const std::string& arch, Axis split, std::int64_t first_radix) {
  const Axis whole = split == Axis::y ? Axis::z : Axis::y;
  const std::int64_t n = size[split];
  const std::vector<SubComputation> stages = dif_stages(split, n, {first_radix, n / first_radix});
  Plan plan{size, arch, {{}, {}}};
  if (size.nx > 1) plan.kernels[0].subs.push_back(dif_stages(Axis::x, size.nx, {size.nx}).front());
  plan.kernels[0].subs.push_back(stages[0]);
  plan.kernels[1].subs.push_back(stages[1]);
  if (size[whole] > 1) plan.kernels[1].subs.push_back(dif_stages(whole, size[whole], {size[whole]}).front());
  return plan;
}

// The four-step plan of a 1D size: its one long axis in two stages of `radices`, each stage whole in a kernel of its
// own (the lowering splits a large radix into passes within the tile).
Plan four_step_plan(const Extents& size, const std::string& arch, Axis axis, const std::vector<std::int64_t>& radices) {
  Plan plan{size, arch, {}};
  for (const SubComputation& stage : dif_stages(axis, size[axis], radices)) plan.kernels.push_back({{stage}});
  return plan;
}

// The one axis longer than 1 of a 1D size, or nothing.
std::optional<Axis> long_axis_of_1d(const Extents& size) {
  std::optional<Axis> long_axis;
  for (Axis axis : all_axes) {
    if (size[axis] == 1) continue;
    if (long_axis) return std::nullopt;
    long_axis = axis;
  }
  return long_axis;
}

// A family of candidates of one kernel count: candidate_plan for every X split of `x_stages` stages, or with
// `first_radix` > 0 the one split_axis_plan, or with `four_step` the four-step plans of every two-stage split of the
// long axis, or with `whole_volume` the one whole_volume_plan, or with `axis_per_kernel` the one
// axis_per_kernel_plan. With `shifted`, candidate_plan builds the plan of the size with X dropped (Y, Z planned as
// X, Y) and then names its axes Y, Z: for a size of X length 1, so that Y stages ride in the Z kernels as X stages
// ride in the Y kernels.
struct CandidateFamily {
  std::size_t kernels = 0;
  std::int64_t yz_radix = 0;
  int x_stages = 0;
  int riding = 0;
  Axis split = Axis::y;
  std::int64_t first_radix = 0;
  bool four_step = false;
  bool shifted = false;
  bool whole_volume = false;
  bool axis_per_kernel = false;
};

// The largest volume the planner offers as one kernel holding every axis whole (whole_volume_plan): a tile of that
// many elements may be spread over a cluster; a larger one never lowers.
constexpr std::int64_t max_whole_volume_elements = std::int64_t{1} << 18;

// One kernel, each axis longer than 1 in one whole stage: a small volume read and written once, which pays where a
// batch of such volumes fills the GPU (the cost model counts the batch's blocks).
Plan whole_volume_plan(const Extents& size, const std::string& arch) {
  Plan plan{size, arch, {{}}};
  for (Axis axis : all_axes)
    if (size[axis] > 1) plan.kernels[0].subs.push_back(dif_stages(axis, size[axis], {size[axis]}).front());
  return plan;
}

// The radices a four-step stage may have: a stage held whole in one tile, which the lowering spreads over a cluster
// where one block's shared memory cannot hold it.
constexpr std::int64_t max_four_step_radix = std::int64_t{1} << 14;

// A 2D size (X and one other axis longer than 1), each axis whole in a kernel of its own, the outer axis first: two
// passes in natural order from the kernels' own stores, where the planner's radices would cut the outer axis in two
// stages and take a third pass. The outer axis's tile (its whole line by one X run) spreads over a cluster where it
// must. Offered where the outer axis is no longer than X: with a shorter X, the plans that ride X stages in the
// outer axis's kernels ran faster (docs/performance.md, L111).
Plan axis_per_kernel_plan(const Extents& size, const std::string& arch) {
  Plan plan{size, arch, {}};
  for (Axis axis : {Axis::z, Axis::y, Axis::x})
    if (size[axis] > 1) plan.kernels.push_back({{dif_stages(axis, size[axis], {size[axis]}).front()}});
  return plan;
}

bool is_2d_with_outer_axis_within_x(const Extents& size) {
  const std::int64_t outer = std::max(size.ny, size.nz);
  return size.nx > 1 && std::min(size.ny, size.nz) == 1 && outer > 1 && outer <= size.nx &&
         size.nx <= max_four_step_radix;
}

// (1, NY, NZ) as (NY, NZ, 1).
Extents without_x(const Extents& size) { return {size.ny, size.nz, 1}; }

// A plan of without_x(size) with its axes named as in `size`: X -> Y, Y -> Z.
Plan with_x_restored(Plan plan, const Extents& size) {
  plan.size = size;
  for (Kernel& kernel : plan.kernels)
    for (SubComputation& sub : kernel.subs) sub.axis = sub.axis == Axis::x ? Axis::y : Axis::z;
  return plan;
}

// The candidate_plan families of `size` (marked `shifted` when `size` is without_x of the planned size): larger Y/Z
// radices first, then fewer X stages, then X riding in more Y/Z kernels. X takes at most one stage more than it
// needs or than there are Y/Z kernels to ride in (more stages only add kernels). A Y/Z limit under a prime factor
// of Y or Z makes no family.
void add_riding_families(const Extents& size, const PlannerLimits& limits, bool shifted,
                         std::vector<CandidateFamily>& families) {
  const std::optional<int> fewest_x_stages = planning::stages_needed(size.nx, limits.max_x_radix);
  for (std::int64_t yz_radix = limits.max_yz_radix; yz_radix >= 2 && fewest_x_stages; yz_radix /= 2) {
    const std::optional<int> y_kernels = planning::stages_needed(size.ny, yz_radix);
    const std::optional<int> z_kernels = planning::stages_needed(size.nz, yz_radix);
    if (!y_kernels || !z_kernels) continue;
    const int yz_kernels = *y_kernels + *z_kernels;
    const int most_x_stages = std::min(std::max(*fewest_x_stages, yz_kernels) + 1, planning::most_stages(size.nx));
    for (int x_stages = *fewest_x_stages; x_stages <= most_x_stages; ++x_stages)
      for (int riding = std::min(x_stages, yz_kernels); riding >= 0; --riding)
        families.push_back({static_cast<std::size_t>(yz_kernels + x_stages - riding), yz_radix, x_stages, riding,
                            Axis::y, 0, false, shifted});
  }
}

// Candidates in order of preference: fewer kernels first, then the riding families of the size, those of the size
// without X, the four-step, the axis-per-kernel and the split-axis families, each in its own order (the X splits in
// x_radix_splits's order). They are listed as families of equal kernel count and built one at a time, so a search
// that stops early builds few.
std::vector<CandidateFamily> candidate_families(const Extents& size, const ArchProfile& profile) {
  const PlannerLimits limits = planner_limits(profile);
  std::vector<CandidateFamily> families;
  add_riding_families(size, limits, false, families);
  if (size.nx == 1 && size.ny > 1 && size.nz > 1) add_riding_families(without_x(size), limits, true, families);
  // Two kernels for a 1D size whose stages of the planner's radices take more.
  if (const std::optional<Axis> axis = long_axis_of_1d(size)) {
    const std::int64_t limit = *axis == Axis::x ? limits.max_x_radix : limits.max_yz_radix;
    const std::optional<int> stages = planning::stages_needed(size[*axis], limit);
    if (stages && *stages > 2) families.push_back({2, 0, 0, 0, *axis, 0, true, false});
  }
  if (is_2d_with_outer_axis_within_x(size)) families.push_back({.kernels = 2, .axis_per_kernel = true});
  for (Axis split : {Axis::y, Axis::z}) {
    const bool fits = size.nx <= limits.max_x_radix && size[split == Axis::y ? Axis::z : Axis::y] <= limits.max_yz_radix;
    if (!fits || profile.max_cluster_size == 1 || size[split] < 4) continue;
    for (std::int64_t first = 2; first < size[split]; ++first)
      if (size[split] % first == 0 && first <= limits.max_yz_radix && size[split] / first <= limits.max_yz_radix)
        families.push_back({2, 0, 0, 0, split, first});
  }
  if (size.elements() <= max_whole_volume_elements) families.push_back({1, 0, 0, 0, Axis::y, 0, false, false, true});
  std::stable_sort(families.begin(), families.end(),
                   [](const CandidateFamily& a, const CandidateFamily& b) { return a.kernels < b.kernels; });
  return families;
}

// `passes` of the plan, or nothing where its lowering refuses it (LoweringError).
std::optional<double> passes_where_it_lowers(const PlanPasses& passes, const Plan& plan) {
  try {
    return passes(plan);
  } catch (const LoweringError&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<double> passes_on_any_backend(const Plan& plan) { return passes_on_any_backend_in(true)(plan); }

PlanPasses passes_on_any_backend_in(bool in_place) {
  return [on_profile = passes_on_its_profile_in(in_place)](const Plan& plan) -> std::optional<double> {
    if (const std::optional<double> lowered = passes_where_it_lowers(on_profile, plan)) return lowered;
    return static_cast<double>(plan.kernels.size()) + unlowered_plan_penalty;
  };
}

std::vector<RankedPlan> ranked_plans(const Extents& size, const std::string& arch, const PlanPasses& passes,
                                     int count) {
  if (count < 1)
    throw UsageError("the planner's candidates: asked for " + std::to_string(count) + ", expected at least 1");
  check_size_limits(size);
  const std::optional<ArchProfile> profile = require_arch_profile(arch);
  if (size.elements() == 1) throw UsageError("size 1x1x1 has no stage to plan: every axis has length 1");
  const PlannerLimits limits = planner_limits(*profile);
  const PlanPasses weight = passes ? passes : PlanPasses(passes_on_its_profile);
  const std::vector<CandidateFamily> families = candidate_families(size, *profile);

  // The fewest passes win (a plan makes at least one pass per kernel, so the search stops once the count-th best
  // costs no more than the next candidate's kernels); ties keep the order above; a plan already ranked is skipped.
  // At most max_planner_candidates are weighed, so that no size makes the search run away.
  std::vector<RankedPlan> best;
  std::map<int, std::vector<std::vector<std::int64_t>>> x_splits_of, shifted_splits_of;  // by X stage count
  int weighed = 0;
  const auto done = [&](std::size_t kernels) {
    return (static_cast<int>(best.size()) == count && static_cast<double>(kernels) >= best.back().passes) ||
           weighed == max_planner_candidates;
  };
  const auto weigh = [&](const Plan& plan) {
    ++weighed;
    require_legal(plan);
    const std::optional<double> made = passes_where_it_lowers(weight, plan);
    if (!made) return;
    const bool ranked = std::any_of(best.begin(), best.end(), [&](const RankedPlan& r) { return r.plan == plan; });
    if (ranked || (static_cast<int>(best.size()) == count && *made >= best.back().passes)) return;
    const auto at = std::upper_bound(best.begin(), best.end(), *made,
                                     [](double cost, const RankedPlan& r) { return cost < r.passes; });
    best.insert(at, RankedPlan{plan, *made});
    if (static_cast<int>(best.size()) > count) best.pop_back();
  };
  for (const CandidateFamily& family : families) {
    if (done(family.kernels)) break;
    if (family.whole_volume) {
      weigh(whole_volume_plan(size, arch));
      continue;
    }
    if (family.axis_per_kernel) {
      weigh(axis_per_kernel_plan(size, arch));
      continue;
    }
    if (family.first_radix > 0) {
      weigh(split_axis_plan(size, arch, family.split, family.first_radix));
      continue;
    }
    if (family.four_step) {
      const Axis axis = family.split;
      const std::int64_t n = size[axis];
      const auto splits = axis == Axis::x ? planning::x_radix_splits(n, 2, max_four_step_radix)
                                          : planning::radix_splits(n, 2, max_four_step_radix);
      for (const std::vector<std::int64_t>& radices : splits) {
        if (done(family.kernels)) break;
        weigh(four_step_plan(size, arch, axis, radices));
      }
      continue;
    }
    const Extents planned = family.shifted ? without_x(size) : size;
    std::map<int, std::vector<std::vector<std::int64_t>>>& splits_of = family.shifted ? shifted_splits_of : x_splits_of;
    if (!splits_of.count(family.x_stages))
      splits_of[family.x_stages] = planning::x_radix_splits(planned.nx, family.x_stages, limits.max_x_radix);
    for (const std::vector<std::int64_t>& x_radices : splits_of[family.x_stages]) {
      if (done(family.kernels)) break;
      const Plan plan =
          candidate_plan(planned, arch, family.yz_radix, x_radices, static_cast<std::size_t>(family.riding));
      weigh(family.shifted ? with_x_restored(plan, size) : plan);
    }
  }
  if (best.empty())
    throw UsageError("size " + to_string(size) + ": no decomposition the default planner tries lowers on the " + arch +
                     " profile (" + std::to_string(weighed) + " candidates weighed" +
                     (weighed == max_planner_candidates ? ", the most it weighs)" : ")"));
  return best;
}

Plan default_plan(const Extents& size, const std::string& arch, const PlanPasses& passes) {
  return ranked_plans(size, arch, passes, 1).front().plan;
}

// A linear scan (a regex backtracks recursively and overflows the stack on long input): three runs of 1 to
// max_length_digits digits separated by 'x' or 'X', spaces allowed around each.
Extents parse_extents(const std::string& text) {
  constexpr std::size_t max_length_digits = 18;
  const auto refuse = [&] { return UsageError("size '" + shown_text(text) + "': expected NXxNYxNZ, e.g. 256x256x256"); };
  std::array<std::int64_t, 3> lengths{};
  std::size_t at = 0;
  const auto skip_spaces = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  for (std::size_t axis = 0; axis < lengths.size(); ++axis) {
    skip_spaces();
    if (axis > 0) {
      if (at == text.size() || (text[at] != 'x' && text[at] != 'X')) throw refuse();
      ++at;
      skip_spaces();
    }
    const std::size_t first = at;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      if (at - first == max_length_digits) throw refuse();
      lengths[axis] = lengths[axis] * 10 + (text[at] - '0');
    }
    if (at == first) throw refuse();
  }
  skip_spaces();
  if (at != text.size()) throw refuse();
  return {lengths[0], lengths[1], lengths[2]};
}

}  // namespace fft3d
