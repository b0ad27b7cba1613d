// The default planner: a legal plan for any size whose lengths have only the prime factors 2, 3, 5 and 7
// (lengths.hpp), built with the paper's grouping ideas. Y and Z are split into balanced stages, one kernel each; X
// stages ride inside them where the tiles allow, so X costs no pass of its own (paper §4.3), and otherwise run in
// X-only kernels after them.
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

// Radices (larger first) of the most balanced split of n into `stages` stages: the smallest max/min, ties to the
// larger radices first. For a power of two, max/min <= 2.
// @pre n is a supported length, 1 <= stages <= its number of prime factors (any stages for n = 1: radices 1).
// @post the product is n.
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

// passes_on_its_profile for runs in one placement. passes_on_its_profile charges the digit-reversal pass wherever a
// run in place takes it, so that its plan serves both placements; out of place (in_place false) a plan whose
// sorted layout spares that pass there is not charged it.
PlanPasses passes_on_its_profile_in(bool in_place);

// For a backend that runs every legal plan (the CPU backend): passes_on_its_profile where the plan lowers on its
// profile, so that such a backend runs the plan the GPU would; otherwise its kernel count plus
// unlowered_plan_penalty, which ranks it after every plan that lowers, so that a size none of whose candidates
// lowers still gets a legal plan (the one with the fewest kernels).
inline constexpr double unlowered_plan_penalty = 1000;
std::optional<double> passes_on_any_backend(const Plan& plan);
PlanPasses passes_on_any_backend_in(bool in_place);  // the same for runs in one placement (passes_on_its_profile_in)

// The most candidates one search weighs (checks and passes), a bound on the time of any search: above the count
// the largest searches of common sizes need (a 4096^3 plan for hopper weighs about 1400). A search that reaches it
// keeps the best found so far, or throws when none could run.
inline constexpr int max_planner_candidates = 2048;

// A legal plan for `size` on the named profile: among the candidate decompositions (Y and Z radices from the
// profile's limit down, X split into stages that ride in the Y/Z kernels or run in X-only kernels after them; for
// an X length of 1 the same with Y in X's role, riding in the Z kernels; for a 1D size whose stages take more than
// two kernels, the four-step plans: two kernels, each one whole stage of radix up to 2^14), the
// one with the fewest passes by `passes` (passes_on_its_profile without it), ties broken by the largest radices. X
// splits whose last radices are powers of two covering the tiles' 16-element X chunks come first (radix_splits.hpp).
// A candidate whose lowering throws LoweringError counts as one that cannot run. Throws UsageError for a size with a
// length lengths.hpp does not support, holds more than max_elements or is a 1D size over max_1d_length (limits.hpp;
// checked before any planning work), an unknown arch, or when no candidate can run (the message names the size).
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

// Real plans (docs/plan-language.md, "Real transforms"): their stages run on the stage extents (NX/2, NY, NZ; NX
// itself where it is odd), so they are planned as C2C plans of those extents and then given the real step where
// its order rules allow it.
//
// The R2C plan of an NX-long X axis from `stages`, a legal C2C plan of size (n, NY, NZ), n = real_x_stage_length(nx):
// when every X stage sits in the first kernel, the X stages move to that kernel's front (their order kept) and
// R2C(X, nx) follows them; otherwise every X stage is dropped (and any kernel left empty) and one whole stage
// X(1, n, 1, n, no-tw) opens the first kernel, followed by R2C(X, nx) (a large radix is the kernel generator's
// business). Either way every X stage is in the step's kernel, as an odd NX needs.
// @pre stages.size == (real_x_stage_length(nx), NY, NZ).  @post every X stage precedes the R2C step, every Y and Z
// stage follows it; the Y and Z stages are those of `stages`, in its order.
Plan r2c_plan_from(const Plan& stages, std::int64_t nx);
// The 1D R2C plan that keeps the X stages of `stages` split across its kernels and puts R2C(X, nx) after the last
// (a real pass of its own on the GPU, lowering/real_step.cpp): for a row that no plan holds in one block. Empty
// where `stages` is not 1D (NY = NZ = 1), NX is odd, or every X stage sits in the first kernel.
std::optional<Plan> r2c_plan_with_step_apart(const Plan& stages, std::int64_t nx);

// The C2R plan that mirrors an R2C plan: its kernels in reverse order, the terms of the step's kernel reversed too
// (the others keep their order: a split axis's stage before a whole axis's, docs/performance.md#l86),
// R2C replaced by C2R, and every axis's DIF chain re-derived from its radices in that order (first span N, each span
// the previous stride, twiddles on every stage but the last).
// @pre kind_of(r2c) == r2c and the R2C order rules hold.  @post the last kernel holding the step runs its Y and Z
// stages, then C2R, then every X stage; no Y or Z stage follows it.
Plan c2r_mirror(const Plan& r2c);

// Whether the GPU lowering of plan.arch takes a real plan and reaches natural order in the placement without the
// digit-reversal pass, which real transforms do not run, except a 1D plan with its step apart, whose run takes it
// (true there; true for an arch without a profile, which is refused elsewhere by name; false where the lowering
// refuses the plan).
bool lowers_in_natural_order(const Plan& plan, bool in_place);
// lowers_in_natural_order in each placement, from one lowering.
struct NaturalOrderPlacements {
  bool in_place = false;
  bool out_of_place = false;
};
NaturalOrderPlacements natural_order_placements(const Plan& plan);

// The default planner's plan of `kind` for `size` (the real volume for r2c and c2r): default_plan for c2c; for a
// real kind the real plan (r2c_plan_from, c2r_mirror for c2r) of the stage planner's first plan, unless a real plan
// of the stage extents' next ranked C2C plans or real_whole_axes_plan costs half a pass less by `passes` (the stage
// ranking misses the real step's own costs, such as a sorted-layout store); only plans the arch's lowering takes in
// natural order in the placement (`in_place`) without the digit-reversal pass (which real transforms do not run);
// where none has a cost, a 1D row's step apart (r2c_plan_with_step_apart), whose run takes that pass.
// Throws UsageError like default_plan (and for a real size whose stage extents leave nothing to plan).
Plan default_plan_of_kind(const Extents& size, const std::string& arch, TransformKind kind,
                          const PlanPasses& passes = {}, bool in_place = false);

// The `count` best distinct candidates of `kind` for `size` (the real volume for r2c and c2r), for measured
// planning: ranked_plans for c2c; for a real kind default_plan_of_kind's plan first, then the real plans it would
// weigh from the stage extents' first 4 * count ranked C2C plans (and real_whole_axes_plan), cheapest first by
// `passes`, each once. Fewer where fewer distinct real plans lower.
// Throws like default_plan_of_kind, and UsageError for count < 1.
std::vector<RankedPlan> ranked_plans_of_kind(const Extents& size, const std::string& arch, TransformKind kind,
                                             const PlanPasses& passes, int count, bool in_place = false);

// A real plan with one kernel per axis, each holding its whole axis: R2C {X, R2C} {Y} {Z}, C2R {Z} {Y} {C2R, X}
// (axes of length 1 left out). Every axis reaches natural order inside its own tiles, so it runs in place and out
// of place without the digit-reversal pass; one pass more than a split plan where that one lowers.
Plan real_whole_axes_plan(const Extents& size, const std::string& arch, TransformKind kind);

// The stage extents a real transform of `size` plans over: (real_x_stage_length(NX), NY, NZ) for r2c and c2r,
// `size` for c2c.
Extents planned_stage_extents(const Extents& size, TransformKind kind);

// Throws UsageError naming the length when a real kind has an odd NX: for `what` (such as "the multi-GPU
// transform"), which packs real rows as NX/2 complex values.
void require_even_real_rows(const Extents& size, TransformKind kind, const std::string& what);

// The default C2C plan of `size` transforming only `axes` (Plan::axes; the others are batch indices): the candidate
// decompositions of default_plan for the size with the untransformed axes at length 1, weighed by `passes` at the
// real size (passes_on_its_profile; passes_on_any_backend for the CPU), the cheapest given the real size and `axes`.
// @pre axes names at least one axis, each once, in X, Y, Z order (else UsageError).
// @post the plan is legal; ranked by passes_on_its_profile it lowers on its profile at `size`; with all three axes
// it is default_plan(size, arch, passes).
// Throws UsageError like default_plan (the message names the axes and the real size).
Plan default_axes_plan(const Extents& size, const std::string& arch, const std::vector<Axis>& axes,
                       const PlanPasses& passes = passes_on_its_profile);

// "256x128x64" -> Extents; throws UsageError on anything else.
Extents parse_extents(const std::string& text);

}  // namespace fft3d
