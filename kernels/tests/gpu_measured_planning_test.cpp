// Measured planning on the GPU (measured_planning.hpp): c2c, r2c and c2r candidates built, run, checked against the
// first candidate's result and timed; the first is the default planner's plan, or the incumbent where one is given.
// Skipped without a GPU.
#include <gtest/gtest.h>

#include "fft3d/measured_planning.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::testing {
namespace {

class GpuMeasuredPlanning : public ::testing::TestWithParam<TransformKind> {
 protected:
  void SetUp() override {
    if (validate::gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped";
  }
};

TEST_P(GpuMeasuredPlanning, EveryCandidateAgreesWithTheFirstAndIsTimed) {
  const TransformKind kind = GetParam();
  const Extents size{128, 64, 32};
  MeasureSettings settings;
  settings.kind = kind;
  settings.timed_samples = 3;
  const PlanMeasurements measured = measure_plans(size, "hopper", 3, settings);
  ASSERT_GE(measured.candidates.size(), 2u);  // else no candidate is checked against another
  EXPECT_FALSE(measured.device_name.empty());
  EXPECT_EQ(measured.candidates.front().candidate.plan, default_plan_of_kind(size, "hopper", kind));
  for (const PlanMeasurement& m : measured.candidates) {
    EXPECT_EQ(kind_of(m.candidate.plan), kind);
    EXPECT_GT(m.median_ms, 0);
    EXPECT_LE(m.relative_difference, candidate_agreement_bound(Precision::fp32));
  }
  const PlanMeasurement& fastest = measured.fastest();
  for (const PlanMeasurement& m : measured.candidates) EXPECT_LE(fastest.median_ms, m.median_ms);
}

// The incumbent (the plan runs take now) is timed first: put before the candidates where they do not hold it, moved
// to the front where one of them is it.
TEST_P(GpuMeasuredPlanning, TheIncumbentIsTimedFirst) {
  const TransformKind kind = GetParam();
  const Extents size{128, 64, 32};
  const std::vector<RankedPlan> ranked = ranked_plans_of_kind(size, "hopper", kind, passes_on_its_profile, 3);
  ASSERT_EQ(ranked.size(), 3u);
  MeasureSettings settings;
  settings.kind = kind;
  settings.timed_samples = 3;
  settings.incumbent = ranked[2].plan;
  const PlanMeasurements outside = measure_plans(size, "hopper", 2, settings);
  ASSERT_EQ(outside.candidates.size(), 3u);
  EXPECT_EQ(outside.candidates[0].candidate.plan, ranked[2].plan);
  EXPECT_EQ(outside.candidates[1].candidate.plan, ranked[0].plan);
  settings.incumbent = ranked[1].plan;
  const PlanMeasurements inside = measure_plans(size, "hopper", 2, settings);
  ASSERT_EQ(inside.candidates.size(), 2u);
  EXPECT_EQ(inside.candidates[0].candidate.plan, ranked[1].plan);
  EXPECT_EQ(inside.candidates[1].candidate.plan, ranked[0].plan);
  for (const PlanMeasurement& m : inside.candidates)
    EXPECT_LE(m.relative_difference, candidate_agreement_bound(Precision::fp32));
}

// A batch: the candidates ranked for it and run over every volume (each one's output checked against the first's
// over the whole batch), each a plan of the batch.
TEST_P(GpuMeasuredPlanning, ABatchIsRankedAndRunOverEveryVolume) {
  const TransformKind kind = GetParam();
  const Extents size{32, 32, 32};
  MeasureSettings settings;
  settings.kind = kind;
  settings.timed_samples = 3;
  settings.batch = 6;
  const PlanMeasurements measured = measure_plans(size, "hopper", 3, settings);
  ASSERT_GE(measured.candidates.size(), 2u);
  Plan first = default_plan_of_kind(size, "hopper", kind, passes_in_batch(passes_on_its_profile, settings.batch));
  first.batch = settings.batch;
  EXPECT_EQ(measured.candidates.front().candidate.plan, first);
  for (const PlanMeasurement& m : measured.candidates) {
    EXPECT_EQ(m.candidate.plan.batch, settings.batch);
    EXPECT_GT(m.median_ms, 0);
    EXPECT_LE(m.relative_difference, candidate_agreement_bound(Precision::fp32));
  }
  settings.batch = 0;
  EXPECT_THROW(measure_plans(size, "hopper", 2, settings), UsageError);
}

INSTANTIATE_TEST_SUITE_P(Kinds, GpuMeasuredPlanning,
                         ::testing::Values(TransformKind::c2c, TransformKind::r2c, TransformKind::c2r),
                         [](const auto& info) { return to_string(info.param); });

TEST(GpuMeasuredPlanningRefusals, RealKindsInPlaceAreRefusedBeforeAnyGpuWork) {
  for (const TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    MeasureSettings in_place;
    in_place.kind = kind;
    in_place.placement = Placement::in_place;
    EXPECT_THROW(measure_plans({64, 64, 64}, "hopper", 2, in_place), UsageError) << to_string(kind);
  }
}

TEST(GpuMeasuredPlanningRefusals, AnIncumbentOfAnotherSizeOrKindIsRefusedBeforeAnyGpuWork) {
  MeasureSettings settings;
  settings.incumbent = default_plan_of_kind({64, 64, 32}, "hopper", TransformKind::c2c);
  EXPECT_THROW(measure_plans({64, 64, 64}, "hopper", 2, settings), UsageError);
  settings.incumbent = default_plan_of_kind({64, 64, 64}, "hopper", TransformKind::r2c);
  EXPECT_THROW(measure_plans({64, 64, 64}, "hopper", 2, settings), UsageError);
}

}  // namespace
}  // namespace fft3d::testing
