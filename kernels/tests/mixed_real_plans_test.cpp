// Real transforms of sizes with factors 3, 5 and 7 (NX even, NX/2 any supported length): the default planner's
// R2C and C2R plans are the fused plans made from the C2C plan of (NX/2, NY, NZ) and lower in both placements
// (the whole-axes plan only where the fused one would need the reorder pass or a real-step rule refuses it);
// where a kernel's maps are not bit fields its real step divides by constants; every kernel compiles with NVRTC
// for sm_90 without spills. The GPU test (gpu_real_plans_test.cpp, MixedRealPlans) runs such sizes against cuFFT.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::testing {
namespace {

const std::string arch = "hopper";

// Sizes whose X half-length NX/2 has factors 3, 5 or 7 (6, 12, 48, 50, 60, 96, 120, 192, 243), one with NZ = 1.
const std::vector<Extents> mixed_real_sizes = {{12, 10, 9},     {192, 100, 1},   {24, 18, 15},   {96, 96, 96},
                                               {100, 100, 100}, {120, 36, 20},
                                               {240, 240, 240}, {384, 384, 256}, {486, 36, 20}};

struct PlannedReal {
  std::string name;
  Plan plan;
};

// Planned once for the tests below (the planner lowers its candidates).
const std::vector<PlannedReal>& planned_real_plans() {
  static std::vector<PlannedReal> plans;
  if (!plans.empty()) return plans;
  for (const Extents& size : mixed_real_sizes)
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
      for (bool in_place : {false, true})
        plans.push_back({to_string(size) + " " + to_string(kind) + (in_place ? " in place" : " out of place"),
                         default_plan_of_kind(size, arch, kind, {}, in_place)});
  return plans;
}

// The default real plan is ranked by its own cost, not by its stage plan's: no real plan made from the stage
// extents' first ranked plans, nor the whole-axes plan, costs half a pass less on the profile (the planner's
// displacing margin, real_plans.cpp). At 240x240x240 the stage planner's first plan once stored its real kernel
// through the sorted layout and cost about two passes more.
constexpr double displacing_margin = 0.5;
TEST(MixedRealPlans, DefaultRealPlanCostsNoMoreThanTheRealPlansOfTheFirstStagePlans) {
  for (const Extents& size : {Extents{240, 240, 240}, Extents{24, 18, 16}})
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
      const double chosen = passes_on_its_profile(default_plan_of_kind(size, arch, kind)).value_or(-1);
      ASSERT_GT(chosen, 0) << to_string(size);
      const Extents stages = planned_stage_extents(size, kind);
      for (const RankedPlan& stage : ranked_plans(stages, arch, passes_on_its_profile, 4)) {
        const Plan r2c = r2c_plan_from(stage.plan, size.nx);
        const Plan real = kind == TransformKind::r2c ? r2c : c2r_mirror(r2c);
        try {
          if (lower_plan(real, *find_arch_profile(arch)).reorders(true)) continue;  // real plans run no reorder pass
        } catch (const LoweringError&) {
          continue;
        }
        EXPECT_LE(chosen, passes_on_its_profile(real).value_or(chosen) + displacing_margin)
            << to_string(size) << " " << real;
      }
      EXPECT_LE(chosen,
                passes_on_its_profile(real_whole_axes_plan(size, arch, kind)).value_or(chosen) + displacing_margin);
    }
}

// The planner's real plans lower: the real step rides in one kernel; the plan made from the stage planner's first
// plan is taken unless another real plan costs less or it does not lower in natural order in this placement (it
// needs the digit-reversal pass, which real transforms do not run, or a rule of real_step.cpp refuses it by name);
// no plan needs the digit-reversal pass.
TEST(MixedRealPlans, ThePlannersRealPlansLowerInBothPlacements) {
  for (const PlannedReal& planned : planned_real_plans()) {
    SCOPED_TRACE(planned.name);
    const Plan& plan = planned.plan;
    const TransformKind kind = kind_of(plan);
    const bool in_place = planned.name.ends_with("in place");
    const Plan r2c = r2c_plan_from(default_plan(stage_extents(plan), arch), plan.size.nx);
    const Plan fused = kind == TransformKind::r2c ? r2c : c2r_mirror(r2c);
    if (plan != fused) {
      std::string why;
      try {
        if (lower_plan(fused, *find_arch_profile(arch)).reorders(!in_place)) why = "needs the reorder pass";
      } catch (const LoweringError& e) {
        why = e.what();
      }
      const double cost = passes_on_its_profile(plan).value_or(-1), fused_cost = passes_on_its_profile(fused).value_or(-1);
      if (why.empty()) {
        EXPECT_LT(cost, fused_cost) << "left the first stage plan's real plan for one that costs no less\n" << fused;
        why = "costs " + std::to_string(fused_cost) + " against " + std::to_string(cost);
      }
      std::cout << planned.name << ": not the first stage plan's real plan (that one " << why << ")\n";
    }
    const LoweredPlan lowered = lower_plan(plan, *find_arch_profile(arch));
    EXPECT_FALSE(lowered.reorders(!in_place)) << plan;
    int steps = 0;
    for (const KernelSpec& spec : lowered.kernels) {
      EXPECT_EQ(spec.real.kind, kind);
      EXPECT_EQ(spec.real.half, plan.size.nx / 2);
      if (spec.real.has_step()) ++steps;
      std::cout << planned.name << " kernel " << spec.kernel_index << ": " << to_string(spec.kernel)
                << (spec.real.has_step() ? " (step)" : "") << ", nyquist tiles " << spec.real.nyquist_tiles << "\n";
    }
    EXPECT_EQ(steps, 1) << plan;
  }
}

// Where a kernel's maps are not bit fields, the real step and the side array address rows by multiplying and
// dividing by the X extent, never by shifts of its logarithm.
TEST(MixedRealPlans, TheRealStepIndexesRowsByDivisionWhereMapsAreNotBitFields) {
  const Plan plan = default_plan_of_kind({100, 100, 100}, arch, TransformKind::r2c);
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile(arch));
  const KernelSpec& spec = lowered.kernels.front();
  ASSERT_TRUE(spec.real.has_step());
  ASSERT_FALSE(tile::bit_fields(spec));
  const std::string source = emit_cuda_source(spec);
  const std::string ex = std::to_string(spec.axes[0].extent());
  EXPECT_NE(source.find("const unsigned ek = row * " + ex + "u + "), std::string::npos);
  EXPECT_NE(source.find("(50u - k) % 50u"), std::string::npos);
  EXPECT_EQ(source.find("row <<"), std::string::npos);
}

// Every kernel of the planned mixed real plans compiles for sm_90 without spills, within the profile's registers.
TEST(MixedRealPlans, EveryKernelCompilesForSm90WithoutSpills) {
  for (const PlannedReal& planned : planned_real_plans()) {
    const LoweredPlan lowered = lower_plan(planned.plan, *find_arch_profile(arch), planned.name);
    for (const KernelSpec& spec : lowered.kernels) {
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << planned.name << " kernel " << spec.kernel_index;
      EXPECT_FALSE(compiled.report.spills()) << planned.name << " " << spec.entry_name() << "\n" << compiled.report.log;
      const int limit = find_arch_profile(spec.profile)->max_registers_per_thread;
      EXPECT_LE(compiled.report.registers, (limit + 7) / 8 * 8) << planned.name << " " << spec.entry_name();
      std::cout << planned.name << " kernel " << spec.kernel_index << ": " << compiled.report.registers
                << " registers, " << spec.shared_bytes << " B shared\n";
    }
  }
}

}  // namespace
}  // namespace fft3d::testing
