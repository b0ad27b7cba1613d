// Real plans (planner.hpp, plan_table.hpp): the default planner's R2C and C2R plans, the hopper table's, and the
// order rules every one must keep (docs/plan-language.md, "Real transforms"): an R2C plan runs every X stage before
// its R2C step and every Y and Z stage after it, the step in the first kernel; a C2R plan runs every Y and Z stage
// before its C2R step and every X stage after it, the step in the last kernel. Their stages, read as a C2C plan of
// the stage extents (NX/2, NY, NZ), must be legal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <utility>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_cost.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d::testing {
namespace {

// Where the order rules fail, or "" where they hold.
std::string order_rule_violation(const Plan& plan) {
  int steps = 0;
  std::size_t step_kernel = 0;
  for (std::size_t k = 0; k < plan.kernels.size(); ++k)
    if (plan.kernels[k].real) ++steps, step_kernel = k;
  if (steps != 1) return "a real plan holds exactly one real step, this one " + std::to_string(steps);
  const Kernel& holder = plan.kernels[step_kernel];
  const RealStep& step = *holder.real;
  if (step.axis != Axis::x || step.length != plan.size.nx) return "the step must be on X, of length NX";
  if (holder.real_position > holder.subs.size()) return "the step's position is past its kernel's terms";
  const bool r2c = step.kind == TransformKind::r2c;
  if (step_kernel != (r2c ? 0 : plan.kernels.size() - 1)) return "the step is not in the kernel the rules say";
  for (std::size_t k = 0; k < plan.kernels.size(); ++k)
    for (std::size_t s = 0; s < plan.kernels[k].subs.size(); ++s) {
      const bool before = k < step_kernel || (k == step_kernel && s < holder.real_position);
      const bool x = plan.kernels[k].subs[s].axis == Axis::x;
      if (before != (r2c ? x : !x))
        return "kernel " + std::to_string(k) + " term " + std::to_string(s) + " (" +
               to_string(plan.kernels[k].subs[s]) + ") is on the wrong side of the step";
    }
  return "";
}

// The plan's stages as a C2C plan of its stage extents: what the DIF chain rules are checked on.
Plan stages_as_c2c(const Plan& plan) {
  Plan stages{stage_extents(plan), plan.arch, {}};
  for (const Kernel& kernel : plan.kernels)
    if (!kernel.subs.empty()) stages.kernels.push_back(Kernel{kernel.subs});
  return stages;
}

void expect_sound_real_plan(const Plan& plan, TransformKind kind, const std::string& name) {
  EXPECT_EQ(kind_of(plan), kind) << name << "\n" << plan;
  EXPECT_EQ(order_rule_violation(plan), "") << name << "\n" << plan;
  EXPECT_NO_THROW(require_legal(stages_as_c2c(plan))) << name << "\n" << plan;
}

const std::vector<Extents> small_sizes = {{16, 16, 16}, {64, 32, 16}, {256, 16, 8}, {8, 64, 4}, {2, 16, 16}};

TEST(RealPlans, TheDefaultPlannerKeepsTheOrderRulesOnEveryProfile) {
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (const Extents& size : small_sizes) {
      const std::string name = std::string(arch) + " " + to_string(size);
      const Plan r2c = default_plan_of_kind(size, arch, TransformKind::r2c);
      const Plan c2r = default_plan_of_kind(size, arch, TransformKind::c2r);
      EXPECT_EQ(r2c.size, size) << name;
      EXPECT_EQ(c2r.size, size) << name;
      expect_sound_real_plan(r2c, TransformKind::r2c, name);
      expect_sound_real_plan(c2r, TransformKind::c2r, name);
      // Each is the real plan of the stage planner's first plan, or one that costs less on the arch's profile
      // (another stage plan's, or the whole-axes plan, also taken where the arch's lowering refuses that one or it
      // would need the reorder pass).
      const Plan planned_r2c = r2c_plan_from(default_plan(stage_extents(r2c), arch), size.nx);
      const Plan planned_c2r = c2r_mirror(planned_r2c);
      for (const auto& [chosen, planned] : {std::pair{r2c, planned_r2c}, std::pair{c2r, planned_c2r}}) {
        if (chosen == planned || chosen == real_whole_axes_plan(size, arch, kind_of(chosen))) continue;
        const std::optional<double> planned_cost = passes_on_its_profile(planned);
        if (planned_cost) EXPECT_LT(passes_on_its_profile(chosen).value_or(*planned_cost), *planned_cost) << name;
      }
    }
}

TEST(RealPlans, C2CPlansAreTheDefaultPlannersOwn) {
  EXPECT_EQ(default_plan_of_kind({64, 32, 16}, "tesla", TransformKind::c2c), default_plan({64, 32, 16}, "tesla"));
}

TEST(RealPlans, TheR2CStepFollowsXStagesThatAllRideInTheFirstKernel) {
  const Plan stages{{32, 16, 16}, "hopper",
                    {Kernel{{{Axis::y, 1, 16, 1, 16, false}, {Axis::x, 1, 32, 1, 32, false}}},
                     Kernel{{{Axis::z, 1, 16, 1, 16, false}}}}};
  const Plan r2c = r2c_plan_from(stages, 64);
  EXPECT_EQ(to_brace_string(r2c.kernels),
            "{X(1, 32, 1, 32, no-tw), R2C(X, 64), Y(1, 16, 1, 16, no-tw)} {Z(1, 16, 1, 16, no-tw)}");
  EXPECT_EQ(r2c.size, (Extents{64, 16, 16}));
  expect_sound_real_plan(r2c, TransformKind::r2c, "hand-made");
}

TEST(RealPlans, XStagesSpreadOverKernelsMergeIntoOneWholeStageInTheFirst) {
  const Plan riding{{16, 16, 16}, "tesla",
                    {Kernel{{{Axis::x, 4, 4, 4, 16, true}, {Axis::y, 1, 16, 1, 16, false}}},
                     Kernel{{{Axis::x, 4, 4, 1, 4, false}, {Axis::z, 1, 16, 1, 16, false}}}}};
  EXPECT_EQ(to_brace_string(r2c_plan_from(riding, 32).kernels),
            "{X(1, 16, 1, 16, no-tw), R2C(X, 32), Y(1, 16, 1, 16, no-tw)} {Z(1, 16, 1, 16, no-tw)}");
  // An X-only kernel after the others empties: it goes.
  const Plan after{{16, 16, 16}, "tesla",
                   {Kernel{{{Axis::y, 1, 16, 1, 16, false}}}, Kernel{{{Axis::z, 1, 16, 1, 16, false}}},
                    Kernel{{{Axis::x, 1, 16, 1, 16, false}}}}};
  const Plan r2c = r2c_plan_from(after, 32);
  EXPECT_EQ(to_brace_string(r2c.kernels),
            "{X(1, 16, 1, 16, no-tw), R2C(X, 32), Y(1, 16, 1, 16, no-tw)} {Z(1, 16, 1, 16, no-tw)}");
  expect_sound_real_plan(r2c, TransformKind::r2c, "merged");
}

// The step's kernel runs backwards; the others keep their order (a split axis's stage first; performance.md L86).
TEST(RealPlans, TheC2RMirrorReversesTheKernelsAndRederivesEachChain) {
  const Plan r2c{{256, 256, 256}, "hopper",
                 {Kernel{{{Axis::x, 1, 128, 1, 128, false}, {Axis::y, 8, 32, 8, 256, true}}},
                  Kernel{{{Axis::y, 32, 8, 1, 8, false}, {Axis::z, 1, 256, 1, 256, false}}}}};
  Plan with_step = r2c;
  with_step.kernels[0].real = RealStep{TransformKind::r2c, Axis::x, 256};
  with_step.kernels[0].real_position = 1;
  const Plan c2r = c2r_mirror(with_step);
  EXPECT_EQ(to_brace_string(c2r.kernels),
            "{Y(32, 8, 32, 256, tw), Z(1, 256, 1, 256, no-tw)} "
            "{Y(8, 32, 1, 32, no-tw), C2R(X, 256), X(1, 128, 1, 128, no-tw)}");
  expect_sound_real_plan(c2r, TransformKind::c2r, "mirror");
}

// Each kernel moves the data in the size it has where it runs: the real volume before the R2C step (after C2R), the
// half spectrum after it (before C2R).
TEST(RealPlans, CostCountsTheRealVolumeAndTheHalfSpectrum) {
  const Extents size{256, 64, 32};
  const Plan r2c = default_plan_of_kind(size, "hopper", TransformKind::r2c);
  const Plan c2r = c2r_mirror(r2c);
  ASSERT_EQ(r2c.kernels.size(), 2u) << r2c;
  const std::int64_t reals = size.elements() * 4, spectrum = 129 * 64 * 32 * 8;
  const PlanCost forward = plan_cost(r2c, 8), inverse = plan_cost(c2r, 8);
  EXPECT_EQ(forward.real_bytes, reals);
  EXPECT_EQ(forward.spectrum_bytes, spectrum);
  EXPECT_EQ(forward.kernels[0].bytes_read, reals);
  EXPECT_EQ(forward.kernels[0].bytes_written, spectrum);
  EXPECT_EQ(forward.kernels[1].bytes_read, spectrum);
  EXPECT_EQ(inverse.kernels[0].bytes_written, spectrum);
  EXPECT_EQ(inverse.kernels[1].bytes_read, spectrum);
  EXPECT_EQ(inverse.kernels[1].bytes_written, reals);
  EXPECT_EQ(forward.bytes_moved, inverse.bytes_moved);
  EXPECT_DOUBLE_EQ(forward.paper_flops, paper_flops(size) / 2);
  EXPECT_GT(forward.counted_flops, forward.paper_flops);
  // C2C is counted as before: the whole volume per kernel.
  const PlanCost c2c = plan_cost(default_plan(size, "hopper"), 8);
  EXPECT_EQ(c2c.kernels[0].bytes_read, size.elements() * 8);
  EXPECT_EQ(c2c.real_bytes, 0);
}

// An odd NX is planned from the C2C plan of (NX, NY, NZ), every X stage in the step's kernel (checks.cpp refuses
// any other place); the multi-GPU slab decomposition refuses it by name.
TEST(RealPlans, AnOddXLengthIsPlannedWithEveryXStageInTheStepsKernel) {
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    const Plan plan = default_plan_of_kind({245, 64, 64}, "hopper", kind);
    EXPECT_TRUE(check_plan(plan).empty()) << plan;
    EXPECT_EQ(kind_of(plan), kind);
    EXPECT_EQ(stage_length(plan, Axis::x), 245);
    for (const Kernel& kernel : plan.kernels)
      for (const SubComputation& sub : kernel.subs)
        if (sub.axis == Axis::x) EXPECT_TRUE(kernel.real.has_value()) << plan;
    EXPECT_NO_THROW(plan_for_size({245, 64, 64}, "hopper", false, {}, kind));
    try {
      require_even_real_rows({245, 64, 64}, kind, "the slab decomposition");
      ADD_FAILURE() << "an odd NX passed require_even_real_rows";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("NX = 245 is odd"), std::string::npos) << e.what();
    }
  }
}

// What the library's checks say of real plans (the real-step checks of checks.cpp): every planned real plan is legal.
TEST(RealPlans, PlannedRealPlansPassTheLibrarysChecks) {
  for (const Extents& size : small_sizes)
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
      const Plan plan = default_plan_of_kind(size, "hopper", kind);
      EXPECT_NO_THROW(require_legal(plan)) << plan;
    }
}

// Measured planning's real candidates: the default planner's plan first, then distinct sound plans of the kind,
// each lowering in natural order with its own pass-equivalents.
TEST(RealPlans, RankedCandidatesStartWithTheDefaultAndAreDistinctAndSound) {
  for (const Extents& size : {Extents{256, 256, 256}, Extents{128, 512, 512}, Extents{64, 32, 16}})
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
      const std::vector<RankedPlan> ranked = ranked_plans_of_kind(size, "hopper", kind, passes_on_its_profile, 4);
      ASSERT_FALSE(ranked.empty()) << to_string(size);
      EXPECT_EQ(ranked.front().plan, default_plan_of_kind(size, "hopper", kind)) << to_string(size);
      for (std::size_t i = 0; i < ranked.size(); ++i) {
        expect_sound_real_plan(ranked[i].plan, kind, to_string(size) + " candidate " + std::to_string(i + 1));
        EXPECT_EQ(ranked[i].passes, passes_on_its_profile(ranked[i].plan).value_or(-1));
        for (std::size_t j = 0; j < i; ++j) EXPECT_NE(ranked[i].plan, ranked[j].plan);
      }
    }
  EXPECT_GT(ranked_plans_of_kind({256, 256, 256}, "hopper", TransformKind::r2c, passes_on_its_profile, 4).size(), 1u);
  EXPECT_EQ(ranked_plans_of_kind({64, 64, 64}, "hopper", TransformKind::c2c, passes_on_its_profile, 3).front().plan,
            default_plan({64, 64, 64}, "hopper"));
  EXPECT_THROW(ranked_plans_of_kind({64, 64, 64}, "hopper", TransformKind::r2c, passes_on_its_profile, 0),
               UsageError);
}

// The bench sizes: the twelve sizes whose hopper C2C plans the table ships (not the 2048^3 one, nor 64x64x256).
const std::vector<Extents> bench_sizes = {
    {128, 128, 128}, {256, 128, 128}, {256, 256, 256},  {512, 256, 256},   {128, 512, 512},    {256, 512, 512},
    {1024, 256, 256}, {128, 512, 1024}, {256, 512, 1024}, {128, 1024, 1024}, {512, 512, 512}, {1024, 1024, 1024}};

Plan syntax_of(const std::string& path) {
  // Syntax only here: the checks are the library's (PlannedRealPlansPassTheLibrarysChecks, ShippedRealPlansLoad).
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_plan_syntax(text, path).plan;
}

TEST(RealPlans, TheHopperTableHasBothRealPlansOfEveryBenchSize) {
  for (const Extents& size : bench_sizes) {
    const std::string name = to_string(size);
    const std::optional<std::string> c2c_path = find_table_plan("hopper", size, false);
    const std::optional<std::string> r2c_path = find_table_plan("hopper", size, false, TransformKind::r2c);
    const std::optional<std::string> c2r_path = find_table_plan("hopper", size, false, TransformKind::c2r);
    ASSERT_TRUE(c2c_path && r2c_path && c2r_path) << name;
    EXPECT_TRUE(r2c_path->ends_with(name + "-r2c.yaml")) << *r2c_path;
    EXPECT_TRUE(c2r_path->ends_with(name + "-c2r.yaml")) << *c2r_path;
    const Plan c2c = syntax_of(*c2c_path), r2c = syntax_of(*r2c_path), c2r = syntax_of(*c2r_path);
    EXPECT_EQ(r2c.size, size);
    EXPECT_EQ(r2c.arch, "hopper");
    expect_sound_real_plan(r2c, TransformKind::r2c, *r2c_path);
    expect_sound_real_plan(c2r, TransformKind::c2r, *c2r_path);
    // Derived from the C2C plan: its passes, its Y and Z stages, and X as one whole stage over the packed rows.
    EXPECT_EQ(r2c.kernels.size(), c2c.kernels.size()) << name;
    for (Axis axis : {Axis::y, Axis::z}) EXPECT_EQ(stages_of(r2c, axis), stages_of(c2c, axis)) << name;
    EXPECT_EQ(stages_of(r2c, Axis::x), dif_stages(Axis::x, size.nx / 2, {size.nx / 2})) << name;
    EXPECT_EQ(c2r, c2r_mirror(r2c)) << name;
  }
  // The in-place C2C variants have no real twins: a real size's one plan serves both placements.
  EXPECT_EQ(find_table_plan("hopper", {512, 512, 512}, true, TransformKind::r2c),
            find_table_plan("hopper", {512, 512, 512}, false, TransformKind::r2c));
}

TEST(RealPlans, ShippedRealPlansLoad) {
  for (const TableEntry& entry : table_entries("hopper", std::nullopt)) {
    if (entry.kind == TransformKind::c2c) continue;
    try {
      const SizedPlan chosen = plan_for_size(entry.size, "hopper", entry.in_place_only, {}, entry.kind);
      EXPECT_EQ(kind_of(chosen.parsed.plan), entry.kind) << entry.path;
    } catch (const std::exception& e) {
      ADD_FAILURE() << entry.path << ": " << e.what();
    }
  }
}

TEST(RealPlans, TableEntriesAreC2COnlyUnlessAskedForOtherKinds) {
  for (const TableEntry& entry : table_entries("hopper")) EXPECT_EQ(entry.kind, TransformKind::c2c) << entry.path;
  int real = 0;
  for (const TableEntry& entry : table_entries("hopper", std::nullopt)) {
    const std::string file = std::filesystem::path(entry.path).filename().string();
    EXPECT_EQ(file, to_string(entry.size) + kind_suffix(entry.kind) + (entry.in_place_only ? "-in-place" : "") +
                        ".yaml");
    real += entry.kind != TransformKind::c2c ? 1 : 0;
  }
  // An R2C and a C2R plan for each bench size, and C2R plans for runs in place beside some of them.
  EXPECT_GE(real, 2 * static_cast<int>(bench_sizes.size()));
  EXPECT_EQ(table_entries("hopper", TransformKind::r2c).size(), bench_sizes.size());
  int c2r_both = 0;
  for (const TableEntry& entry : table_entries("hopper", TransformKind::c2r)) c2r_both += entry.in_place_only ? 0 : 1;
  EXPECT_EQ(c2r_both, static_cast<int>(bench_sizes.size()));
}

}  // namespace
}  // namespace fft3d::testing
