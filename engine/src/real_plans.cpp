// Real plans from C2C plans of their stage extents: the R2C step placed after the X stages, and the C2R mirror.
#include <algorithm>
#include <array>
#include <iterator>
#include <utility>

#include "fft3d/arch_profile.hpp"
#include "fft3d/diagnostics.hpp"
#include "lowering/kernel_spec.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {
namespace {

// One term of a kernel, in execution order: a sub-computation or the real step.
struct Term {
  std::optional<SubComputation> sub;
  std::optional<RealStep> real;
};

std::vector<Term> terms_of(const Kernel& kernel) {
  std::vector<Term> terms;
  for (const SubComputation& sub : kernel.subs) terms.push_back({sub, std::nullopt});
  if (kernel.real) {
    const std::size_t at = std::min(kernel.real_position, kernel.subs.size());
    terms.insert(terms.begin() + static_cast<std::ptrdiff_t>(at), Term{std::nullopt, kernel.real});
  }
  return terms;
}

Kernel kernel_of(const std::vector<Term>& terms) {
  Kernel kernel;
  for (const Term& term : terms) {
    if (term.sub) {
      kernel.subs.push_back(*term.sub);
    } else {
      kernel.real = term.real;
      kernel.real_position = kernel.subs.size();
    }
  }
  return kernel;
}

bool holds_x(const Kernel& kernel) {
  return std::any_of(kernel.subs.begin(), kernel.subs.end(), [](const SubComputation& s) { return s.axis == Axis::x; });
}

// Every X stage in the first kernel: the R2C step can follow them there.
bool x_stages_in_first_kernel(const Plan& plan) {
  return std::none_of(std::next(plan.kernels.begin()), plan.kernels.end(), holds_x);
}

}  // namespace

Extents planned_stage_extents(const Extents& size, TransformKind kind) {
  if (kind == TransformKind::c2c) return size;
  return {real_x_stage_length(size.nx), size.ny, size.nz};
}

void require_even_real_rows(const Extents& size, TransformKind kind, const std::string& what) {
  if (kind != TransformKind::c2c && size.nx % 2 != 0)
    throw UsageError("size " + to_string(size) + ": " + what + " takes " + to_string(kind) +
                     " transforms of an even X length only (NX = " + std::to_string(size.nx) +
                     " is odd; one GPU or the CPU backend takes it)");
}

Plan r2c_plan_from(const Plan& stages, std::int64_t nx) {
  Plan plan{{nx, stages.size.ny, stages.size.nz}, stages.arch, stages.kernels};
  const RealStep step{TransformKind::r2c, Axis::x, nx};
  if (plan.kernels.empty()) plan.kernels.emplace_back();
  if (!x_stages_in_first_kernel(plan)) {
    for (Kernel& kernel : plan.kernels)
      std::erase_if(kernel.subs, [](const SubComputation& s) { return s.axis == Axis::x; });
    std::erase_if(plan.kernels, [](const Kernel& k) { return k.subs.empty(); });
    if (plan.kernels.empty()) plan.kernels.emplace_back();
    std::vector<SubComputation>& first = plan.kernels.front().subs;
    const std::int64_t n = real_x_stage_length(nx);
    first.insert(first.begin(), dif_stages(Axis::x, n, {n}).front());
  }
  Kernel& first = plan.kernels.front();
  std::stable_partition(first.subs.begin(), first.subs.end(), [](const SubComputation& s) { return s.axis == Axis::x; });
  first.real = step;
  first.real_position = static_cast<std::size_t>(
      std::count_if(first.subs.begin(), first.subs.end(), [](const SubComputation& s) { return s.axis == Axis::x; }));
  return plan;
}

std::optional<Plan> r2c_plan_with_step_apart(const Plan& stages, std::int64_t nx) {
  if (stages.size.ny != 1 || stages.size.nz != 1 || nx % 2 != 0 || x_stages_in_first_kernel(stages)) return {};
  Plan plan{{nx, 1, 1}, stages.arch, stages.kernels};
  Kernel& last = plan.kernels.back();
  last.real = RealStep{TransformKind::r2c, Axis::x, nx};
  last.real_position = last.subs.size();
  return plan;
}

Plan c2r_mirror(const Plan& r2c) {
  std::vector<std::vector<Term>> kernels;
  for (auto kernel = r2c.kernels.rbegin(); kernel != r2c.kernels.rend(); ++kernel) {
    std::vector<Term> terms = terms_of(*kernel);
    // The step's kernel runs its terms backwards (Y and Z, then C2R, then X). The others keep their order, which
    // runs a split axis's stage before a whole axis's as the C2C second kernels do (the other way spills;
    // docs/performance.md#l86).
    if (kernel->real) std::reverse(terms.begin(), terms.end());
    kernels.push_back(std::move(terms));
  }
  // Each axis's radices in their new order, then the DIF chain they make, handed out in that order.
  std::array<std::vector<std::int64_t>, 3> radices;
  for (const std::vector<Term>& terms : kernels)
    for (const Term& term : terms)
      if (term.sub) radices[static_cast<std::size_t>(axis_index(term.sub->axis))].push_back(term.sub->radix);
  std::array<std::vector<SubComputation>, 3> chains;
  std::array<std::size_t, 3> next{};
  for (Axis axis : all_axes) {
    const auto a = static_cast<std::size_t>(axis_index(axis));
    chains[a] = dif_stages(axis, stage_length(r2c, axis), radices[a]);
  }
  Plan plan{r2c.size, r2c.arch, {}};
  for (std::vector<Term>& terms : kernels) {
    for (Term& term : terms) {
      if (term.sub) {
        const auto a = static_cast<std::size_t>(axis_index(term.sub->axis));
        term.sub = chains[a][next[a]++];
      } else {
        term.real->kind = TransformKind::c2r;
      }
    }
    plan.kernels.push_back(kernel_of(terms));
  }
  return plan;
}

Plan real_whole_axes_plan(const Extents& size, const std::string& arch, TransformKind kind) {
  const Extents stage_size = planned_stage_extents(size, kind);
  const auto whole = [](Axis axis, std::int64_t n) { return SubComputation{axis, 1, n, 1, n, false}; };
  Kernel x;
  if (stage_size.nx > 1) x.subs.push_back(whole(Axis::x, stage_size.nx));
  x.real = RealStep{kind, Axis::x, size.nx};
  x.real_position = kind == TransformKind::r2c ? x.subs.size() : 0;
  std::vector<Kernel> others;
  for (Axis axis : {Axis::y, Axis::z})
    if (size[axis] > 1) others.push_back(Kernel{{whole(axis, size[axis])}});
  Plan plan{size, arch, {}};
  if (kind == TransformKind::r2c) {
    plan.kernels.push_back(x);
    plan.kernels.insert(plan.kernels.end(), others.begin(), others.end());
  } else {
    plan.kernels.assign(others.rbegin(), others.rend());
    plan.kernels.push_back(x);
  }
  // NX = 2: no X stage, so the step joins its neighbour (R2C before the first Y or Z stage, C2R after the last).
  if (x.subs.empty() && plan.kernels.size() > 1) {
    const bool r2c = kind == TransformKind::r2c;
    Kernel& neighbour = r2c ? plan.kernels[1] : plan.kernels[plan.kernels.size() - 2];
    neighbour.real = x.real;
    neighbour.real_position = r2c ? 0 : neighbour.subs.size();
    plan.kernels.erase(r2c ? plan.kernels.begin() : plan.kernels.end() - 1);
  }
  return plan;
}

NaturalOrderPlacements natural_order_placements(const Plan& plan) {
  const std::optional<ArchProfile> profile = find_arch_profile(plan.arch);
  if (!profile) return {true, true};  // an unknown arch is refused elsewhere, by name
  try {
    const LoweredPlan lowered = lower_plan(plan, *profile);
    if (lowered.real_pass) return {true, true};  // its run takes the reorder pass (GpuTransform)
    return {.in_place = !lowered.reorders(false), .out_of_place = !lowered.reorders(true)};
  } catch (const LoweringError&) {
    return {};
  }
}

bool lowers_in_natural_order(const Plan& plan, bool in_place) {
  const NaturalOrderPlacements placements = natural_order_placements(plan);
  return in_place ? placements.in_place : placements.out_of_place;
}

namespace {

// Stage plans whose real plans the default real plan is chosen among: the stage planner ranks the complex stages
// without the real step, whose kernel can cost passes more (a sorted-layout store, a tile spread around the step).
// Each weighed plan is lowered, so planning time grows with the count.
constexpr int default_stage_plans = 4;
// The stage planner's first plan is tuned on C2C measurements; another stage plan's real plan displaces its real
// plan only where it costs at least this much less, a structural charge (a sorted-layout store, a tile spread
// around the step), not a difference within the model's resolution.
constexpr double displacing_margin = 0.5;
// Several stage plans can give one real plan (the X stages of a split X collapse into one whole stage), so more
// stage plans are ranked than candidates wanted.
constexpr int stage_plans_per_candidate = 4;

Plan real_plan_from(const Plan& stages, const Extents& size, TransformKind kind) {
  const Plan r2c = r2c_plan_from(stages, size.nx);
  return kind == TransformKind::r2c ? r2c : c2r_mirror(r2c);
}

// The distinct real plans of `kind` that lower in natural order in the placement: those of the stage extents'
// first `stage_count` ranked C2C plans, then real_whole_axes_plan; each with its cost by `weigh` (a plan it gives
// none is left out), cheapest first, the first stage plan's real plan by its cost less displacing_margin, ties in
// that order.
std::vector<RankedPlan> weighed_real_plans(const Extents& size, const std::string& arch, TransformKind kind,
                                           const PlanPasses& weigh, int stage_count, bool in_place) {
  struct Weighed {
    RankedPlan ranked;
    double key = 0;
  };
  std::vector<Weighed> weighed;
  bool first = true;
  const auto add = [&](const Plan& plan) {
    const bool is_first = std::exchange(first, false);
    if (!lowers_in_natural_order(plan, in_place)) return;
    for (const Weighed& known : weighed)
      if (known.ranked.plan == plan) return;
    if (const std::optional<double> cost = weigh(plan))
      weighed.push_back({{plan, *cost}, *cost - (is_first ? displacing_margin : 0.0)});
  };
  const std::vector<RankedPlan> stage_plans = ranked_plans(planned_stage_extents(size, kind), arch, weigh, stage_count);
  for (const RankedPlan& stages : stage_plans) add(real_plan_from(stages.plan, size, kind));
  add(real_whole_axes_plan(size, arch, kind));
  // A 1D row that no plan holds in one block (or that none lowers whole): its step apart, after split X stages.
  if (weighed.empty())
    for (const RankedPlan& stages : stage_plans)
      if (const std::optional<Plan> r2c = r2c_plan_with_step_apart(stages.plan, size.nx))
        add(kind == TransformKind::r2c ? *r2c : c2r_mirror(*r2c));
  std::stable_sort(weighed.begin(), weighed.end(), [](const Weighed& a, const Weighed& b) { return a.key < b.key; });
  std::vector<RankedPlan> ranked;
  for (Weighed& w : weighed) ranked.push_back(std::move(w.ranked));
  return ranked;
}

}  // namespace

Plan default_plan_of_kind(const Extents& size, const std::string& arch, TransformKind kind,
                          const PlanPasses& passes, bool in_place) {
  if (kind == TransformKind::c2c) return default_plan(size, arch, passes);
  const PlanPasses weigh = passes ? passes : PlanPasses(passes_on_its_profile);
  const std::vector<RankedPlan> ranked = weighed_real_plans(size, arch, kind, weigh, default_stage_plans, in_place);
  if (!ranked.empty()) return ranked.front().plan;
  // No real plan has a cost by `passes`: the stage planner's first, where it lowers in natural order, else its step
  // apart (a 1D row over one block), else the whole axes.
  const Plan stages = default_plan(planned_stage_extents(size, kind), arch, passes);
  const Plan planned = real_plan_from(stages, size, kind);
  if (lowers_in_natural_order(planned, in_place)) return planned;
  if (const std::optional<Plan> r2c = r2c_plan_with_step_apart(stages, size.nx)) {
    const Plan apart = kind == TransformKind::r2c ? *r2c : c2r_mirror(*r2c);
    if (lowers_in_natural_order(apart, in_place)) return apart;
  }
  return real_whole_axes_plan(size, arch, kind);
}

std::vector<RankedPlan> ranked_plans_of_kind(const Extents& size, const std::string& arch, TransformKind kind,
                                             const PlanPasses& passes, int count, bool in_place) {
  if (kind == TransformKind::c2c) return ranked_plans(size, arch, passes, count);
  if (count < 1) throw UsageError("ranked_plans_of_kind: the candidate count must be at least 1");
  const PlanPasses weigh = passes ? passes : PlanPasses(passes_on_its_profile);
  std::vector<RankedPlan> ranked;
  const Plan first = default_plan_of_kind(size, arch, kind, passes, in_place);
  if (const std::optional<double> cost = weigh(first)) ranked.push_back({first, *cost});
  for (RankedPlan& next : weighed_real_plans(size, arch, kind, weigh, count * stage_plans_per_candidate, in_place))
    if (static_cast<int>(ranked.size()) < count && next.plan != first) ranked.push_back(std::move(next));
  return ranked;
}

}  // namespace fft3d
