// 1D real transforms whose row no block holds (lowering rule real_step.cpp, LoweredPlan::real_pass): the planner
// keeps the packed row's X stages split across kernels with the step after them (R2C) or before them (C2R); the
// lowering runs those kernels and their digit-reversal pass as the packed row's complex plan and the step as a pass
// of its own; the CPU backend runs such plans exactly; the pass's source compiles for sm_90 and waits for the
// kernel before it. (The GPU runs them against cuFFT in gpu_real_plans_test and gpu_fp64_test.)
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "lowering/cost_model.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

const ArchProfile& hopper() {
  static const ArchProfile profile = *find_arch_profile("hopper");  // find_arch_profile returns a copy
  return profile;
}

Plan hopper_plan(const std::string& size, const std::string& kernels) {
  return parse_plan("size: [" + size + "]\narch: hopper\nplan: \"" + kernels + "\"\n").plan;
}

// 4096 reals: the packed row's 2048 values in two kernels, the step after the second.
const char* r2c_4096 = "{X(64, 32, 64, 2048, tw)} {X(32, 64, 1, 64, no-tw), R2C(X, 4096)}";
const char* c2r_4096 = "{C2R(X, 4096), X(32, 64, 32, 2048, tw)} {X(64, 32, 1, 32, no-tw)}";

TEST(RealPass, APlanWithTheStepApartFromItsSplitXStagesIsMadeOnlyFor1DEvenRows) {
  const Plan split = hopper_plan("2048, 1, 1", "{X(64, 32, 64, 2048, tw)} {X(32, 64, 1, 64, no-tw)}");
  const std::optional<Plan> r2c = r2c_plan_with_step_apart(split, 4096);
  ASSERT_TRUE(r2c);
  EXPECT_EQ(to_brace_string(r2c->kernels), r2c_4096);
  EXPECT_EQ(to_brace_string(c2r_mirror(*r2c).kernels), c2r_4096);
  EXPECT_FALSE(r2c_plan_with_step_apart(split, 4097)) << "an odd NX keeps every X stage in the step's kernel";
  EXPECT_FALSE(r2c_plan_with_step_apart(hopper_plan("2048, 1, 1", "{X(1, 2048, 1, 2048, no-tw)}"), 4096));
  EXPECT_FALSE(r2c_plan_with_step_apart(
      hopper_plan("64, 4, 1", "{X(8, 8, 8, 64, tw), Y(1, 4, 1, 4, no-tw)} {X(8, 8, 1, 8, no-tw)}"), 128));
}

// The planner takes the form only where no plan holds the row in one block: 65536 reals (32768 packed values,
// 256 KB) in fp32, and in fp64 from 32768; 32768 fp32 keeps its one kernel.
TEST(RealPass, ThePlannerSetsTheStepApartOnlyWhereTheRowFitsNoBlock) {
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    SCOPED_TRACE(to_string(kind));
    const Plan fits = default_plan_of_kind({32768, 1, 1}, "hopper", kind);
    EXPECT_EQ(fits.kernels.size(), 1u) << to_brace_string(fits.kernels);
    EXPECT_FALSE(lower_plan(fits, hopper()).real_pass);
    const Plan over = default_plan_of_kind({65536, 1, 1}, "hopper", kind);
    ASSERT_GT(over.kernels.size(), 1u) << to_brace_string(over.kernels);
    const Kernel& step = kind == TransformKind::r2c ? over.kernels.back() : over.kernels.front();
    ASSERT_TRUE(step.real) << to_brace_string(over.kernels);
    EXPECT_EQ(step.real_position, kind == TransformKind::r2c ? step.subs.size() : 0u);
    EXPECT_TRUE(lower_plan(over, hopper()).real_pass) << to_brace_string(over.kernels);
  }
}

// The kernels and the reorder pass are the packed row's complex plan's; the pass pairs k with 2048 - k for k up to
// 1024, one thread a pair; a run moves the half spectrum once more, and the model charges the reorder and the pass.
TEST(RealPass, TheLoweringRunsTheComplexPlanOfThePackedRowThenThePass) {
  const Plan r2c = hopper_plan("4096, 1, 1", r2c_4096);
  const LoweredPlan lowered = lower_plan(r2c, hopper());
  const LoweredPlan complex = lower_plan(hopper_plan("2048, 1, 1", "{X(64, 32, 64, 2048, tw)} {X(32, 64, 1, 64, no-tw)}"),
                                         hopper());
  ASSERT_EQ(lowered.kernels.size(), complex.kernels.size());
  for (std::size_t k = 0; k < lowered.kernels.size(); ++k)
    EXPECT_EQ(to_string(lowered.kernels[k]), to_string(complex.kernels[k])) << "kernel " << k;
  ASSERT_TRUE(lowered.reorder);
  ASSERT_TRUE(lowered.real_pass);
  const KernelSpec& pass = *lowered.real_pass;
  EXPECT_EQ(pass.role, KernelRole::real_pass);
  EXPECT_EQ(pass.real.kind, TransformKind::r2c);
  EXPECT_EQ(pass.real.half, 2048);
  EXPECT_GE(pass.launch_blocks() * pass.threads, 2048 / 2 + 1);
  EXPECT_EQ(lowered.volume_passes(true, true), 2 + 1 + 1);
  const lowering::ModelTerms terms = lowering::model_terms(r2c, lowered, hopper(), false);
  EXPECT_EQ(terms.reorder, 1.0);
  EXPECT_EQ(terms.real_pass, 1.0);
  EXPECT_NE(to_string(pass).find("R2C step along X of 4096 reals"), std::string::npos) << to_string(pass);
  EXPECT_EQ(lower_plan(hopper_plan("4096, 1, 1", c2r_4096), hopper()).real_pass->real.kind, TransformKind::c2r);
}

TEST(RealPass, ItsSourceCompilesForSm90AndWaitsForThePreviousKernelFirst) {
  for (const char* kernels : {r2c_4096, c2r_4096})
    for (Precision precision : {Precision::fp32, Precision::fp64}) {
      Plan plan = hopper_plan("4096, 1, 1", kernels);
      plan.precision = precision;
      const KernelSpec pass = *lower_plan(plan, hopper()).real_pass;
      const std::string source = emit_cuda_source(pass);
      const std::size_t body = source.find('{', source.find("extern \"C\" __global__"));
      const std::size_t wait = source.find("fft3d_wait_for_previous_kernel();", body);
      ASSERT_NE(wait, std::string::npos) << source;
      const std::string before = source.substr(body, wait - body);
      EXPECT_EQ(before.find("in["), std::string::npos) << "global memory touched before the wait\n" << source;
      EXPECT_EQ(before.find("out["), std::string::npos) << "global memory touched before the wait\n" << source;
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(pass, 90)) << kernels;
      EXPECT_FALSE(compiled.report.spills()) << compiled.report.log;
    }
}

// The CPU backend runs the plans as their terms say, in both placements, within 1e-12 of FFTW's r2c and c2r.
TEST(RealPass, TheCpuBackendRunsThePlansWithinFftwsBound) {
  const Extents size{4096, 1, 1};
  std::vector<double> reals(4096);
  std::mt19937_64 generator(41);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double& value : reals) value = uniform(generator);
  std::vector<std::complex<double>> spectrum(2049), got(2049);
  validate::fftw_r2c_reference(size, reals, spectrum);
  const CpuTransform r2c(hopper_plan("4096, 1, 1", r2c_4096));
  got.assign(2049, {std::nan(""), 0.0});
  r2c.execute(reals.data(), got.data());
  EXPECT_LE(validate::compare(got, spectrum).relative_l2, 1e-12) << "R2C out of place";
  std::vector<std::complex<double>> buffer(2049, {std::nan(""), 0.0});
  std::copy(reals.begin(), reals.end(), reinterpret_cast<double*>(buffer.data()));
  r2c.execute(reinterpret_cast<const double*>(buffer.data()), buffer.data());
  EXPECT_LE(validate::compare(buffer, spectrum).relative_l2, 1e-12) << "R2C in place";
  const CpuTransform c2r(hopper_plan("4096, 1, 1", c2r_4096));
  std::vector<double> want(4096), back(4096, std::nan(""));
  validate::fftw_c2r_reference(size, spectrum, want);
  c2r.execute(spectrum.data(), back.data(), {.direction = Direction::inverse});
  EXPECT_LE(validate::compare(back, want).relative_l2, 1e-12) << "C2R out of place";
  buffer = spectrum;
  c2r.execute(buffer.data(), reinterpret_cast<double*>(buffer.data()), {.direction = Direction::inverse});
  const std::vector<double> in_place(reinterpret_cast<double*>(buffer.data()),
                                     reinterpret_cast<double*>(buffer.data()) + 4096);
  EXPECT_LE(validate::compare(in_place, want).relative_l2, 1e-12) << "C2R in place";
}

}  // namespace
}  // namespace fft3d::testing
