// Real transforms of an odd NX (RealStep, RealKernel::odd): the default planner's R2C and C2R plans lower in both
// placements with every X stage in the step's kernel, that kernel on rows of NX complex values and the others on the
// half spectrum's NX/2 + 1 columns padded to whole runs of 16; the step kernel reads (R2C) or writes (C2R) the reals
// as scalars and the C2R one fills each row's upper half by conjugation; every kernel compiles for sm_90 without
// spills. The GPU test (gpu_real_plans_test.cpp, OddRealPlans) runs such sizes against cuFFT.
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

namespace fft3d::testing {
namespace {

const std::string arch = "hopper";

// Odd NX of every odd factor, with NX = 1 and a plane (NZ = 1) among them; 243 and 343 are issue 29's sizes.
const std::vector<Extents> odd_real_sizes = {{1, 16, 8},   {7, 16, 8},   {3, 5, 7},      {15, 12, 10},   {125, 64, 1},
                                             {105, 24, 10}, {243, 243, 243}, {343, 343, 343}};

// The half spectrum's columns rounded up to whole runs of 16 (itself where it is no more).
std::int64_t padded_columns(std::int64_t columns) { return columns <= 16 ? columns : (columns + 15) / 16 * 16; }

struct PlannedReal {
  std::string name;
  Plan plan;
};

const std::vector<PlannedReal>& planned_odd_plans() {
  static std::vector<PlannedReal> plans;
  if (!plans.empty()) return plans;
  for (const Extents& size : odd_real_sizes)
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
      for (bool in_place : {false, true})
        plans.push_back({to_string(size) + " " + to_string(kind) + (in_place ? " in place" : " out of place"),
                         default_plan_of_kind(size, arch, kind, {}, in_place)});
  return plans;
}

TEST(OddRealPlans, ThePlannersPlansKeepEveryXStageInTheStepKernelAndLowerInBothPlacements) {
  for (const PlannedReal& planned : planned_odd_plans()) {
    SCOPED_TRACE(planned.name);
    const Plan& plan = planned.plan;
    ASSERT_TRUE(odd_real_rows(plan));
    const bool in_place = planned.name.ends_with("in place");
    const LoweredPlan lowered = lower_plan(plan, *find_arch_profile(arch));
    EXPECT_FALSE(lowered.reorders(!in_place)) << plan;
    int steps = 0;
    for (std::size_t k = 0; k < lowered.kernels.size(); ++k) {
      const KernelSpec& spec = lowered.kernels[k];
      EXPECT_TRUE(spec.real.odd);
      EXPECT_EQ(spec.real.half, plan.size.nx / 2);
      EXPECT_EQ(spec.side_elements(), 0);
      if (spec.real.has_step()) {
        ++steps;
        EXPECT_EQ(spec.size.nx, plan.size.nx);
        EXPECT_EQ(spec.axes[0].extent(), plan.size.nx);
        EXPECT_EQ(spec.real.nyquist_tiles, 0);
      } else {
        EXPECT_EQ(spec.size.nx, padded_columns(plan.size.nx / 2 + 1));
        EXPECT_EQ(spec.real.nyquist_tiles, 0);
        for (const SubComputation& sub : plan.kernels[k].subs) EXPECT_NE(sub.axis, Axis::x);
      }
      std::cout << planned.name << " kernel " << k << ": " << to_string(plan.kernels[k])
                << (spec.real.has_step() ? " (step)" : "") << ", nyquist tiles " << spec.real.nyquist_tiles << "\n";
    }
    EXPECT_EQ(steps, 1) << plan;
  }
}

// A step kernel with Y stages: R2C loads each real as a scalar and stores columns 0 .. NX/2 only; C2R conjugates
// column k into NX - k and stores real parts as scalars; neither pairs frequencies nor keeps a side array.
TEST(OddRealPlans, TheStepKernelsReadAndWriteRealsAsScalars) {
  const Extents size{105, 24, 10};
  const std::string r2c = emit_cuda_source(
      lower_plan(default_plan_of_kind(size, arch, TransformKind::r2c), *find_arch_profile(arch)).kernels.front());
  EXPECT_NE(r2c.find("make_float2(((const float*)in)["), std::string::npos);
  EXPECT_NE(r2c.find("< 52LL)"), std::string::npos) << "columns past NX/2 = 52 are not stored";
  EXPECT_EQ(r2c.find("fft3d_real_pair"), std::string::npos);
  EXPECT_EQ(r2c.find("side_re"), std::string::npos);
  const std::string c2r = emit_cuda_source(
      lower_plan(default_plan_of_kind(size, arch, TransformKind::c2r), *find_arch_profile(arch)).kernels.back());
  EXPECT_NE(c2r.find("((float*)out)["), std::string::npos);
  EXPECT_NE(c2r.find("+ 105u - k"), std::string::npos);
  EXPECT_EQ(c2r.find("fft3d_real_pair"), std::string::npos);
  EXPECT_EQ(c2r.find("side_re"), std::string::npos);
}

// A step kernel of X stages only runs on paired rows (RealKernel::paired_rows): R2C loads rows 2p and 2p + 1 as one
// complex row and splits its Z into both rows' frequencies; C2R forms Z = A + iB from both rows' half spectra and
// stores real and imaginary parts to the two rows; rows past NY * NZ (odd here: 12 * 5) are masked.
TEST(OddRealPlans, StepKernelsOfXStagesOnlyPairRows) {
  const Extents size{15, 12, 5};
  const Plan r2c_plan = real_whole_axes_plan(size, arch, TransformKind::r2c);
  const LoweredPlan r2c_lowered = lower_plan(r2c_plan, *find_arch_profile(arch));
  const KernelSpec& step = r2c_lowered.kernels.front();
  ASSERT_TRUE(step.real.paired_rows) << r2c_plan;
  EXPECT_EQ(step.real.volume_rows, 60);
  EXPECT_EQ(step.size, (Extents{15, 32, 1}));  // 30 pairs, rounded up to 16
  const std::string r2c = emit_cuda_source(step);
  EXPECT_NE(r2c.find("(2LL * row + 1LL) < 60LL ? ((const float*)in)["), std::string::npos);
  EXPECT_NE(r2c.find("paired rows): A[k] = (Z[k] + conj Z[15-k]) / 2"), std::string::npos);
  EXPECT_NE(r2c.find("if (2LL * row + 1LL < 60LL) {"), std::string::npos);
  const Plan c2r_plan = real_whole_axes_plan(size, arch, TransformKind::c2r);
  const KernelSpec c2r_step = lower_plan(c2r_plan, *find_arch_profile(arch)).kernels.back();
  ASSERT_TRUE(c2r_step.real.paired_rows) << c2r_plan;
  const std::string c2r = emit_cuda_source(c2r_step);
  EXPECT_NE(c2r.find("loads (C2R, NX = 15 odd, paired rows)"), std::string::npos);
  EXPECT_NE(c2r.find("((float*)out)[x + rows.out_pitch * (2LL * row + 1LL)] = v.y;"), std::string::npos);
}

// NX = 1: the half spectrum's one column is its last; the kernels off the step reach it through their masked
// tiles, one column wide.
TEST(OddRealPlans, NxOfOneLowersInSeveralKernels) {
  Kernel y{{{Axis::y, 1, 16, 1, 16, false}}};
  y.real = RealStep{TransformKind::r2c, Axis::x, 1};
  const Kernel z{{{Axis::z, 1, 8, 1, 8, false}}};
  const LoweredPlan lowered = lower_plan(Plan{{1, 16, 8}, arch, {y, z}}, *find_arch_profile(arch));
  ASSERT_EQ(lowered.kernels.size(), 2u);
  EXPECT_EQ(lowered.kernels[1].size.nx, 1);
  EXPECT_EQ(lowered.kernels[1].real.nyquist_tiles, 0);
}

TEST(OddRealPlans, EveryKernelCompilesForSm90WithoutSpills) {
  for (const PlannedReal& planned : planned_odd_plans()) {
    const LoweredPlan lowered = lower_plan(planned.plan, *find_arch_profile(arch), planned.name);
    for (const KernelSpec& spec : lowered.kernels) {
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << planned.name << " kernel " << spec.kernel_index;
      EXPECT_FALSE(compiled.report.spills()) << planned.name << " " << spec.entry_name() << "\n" << compiled.report.log;
      std::cout << planned.name << " kernel " << spec.kernel_index << ": " << compiled.report.registers
                << " registers, " << spec.shared_bytes << " B shared\n";
    }
  }
}

}  // namespace
}  // namespace fft3d::testing
