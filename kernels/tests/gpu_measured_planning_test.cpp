// Measured planning on the GPU (measured_planning.hpp): c2c and r2c candidates built, run, checked against the first
// candidate's result and timed; the first is the default planner's plan. Skipped without a GPU.
#include <gtest/gtest.h>

#include "fft3d/measured_planning.hpp"
#include "fft3d/planner.hpp"
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
  ASSERT_FALSE(measured.candidates.empty());
  EXPECT_FALSE(measured.device_name.empty());
  EXPECT_EQ(measured.candidates.front().candidate.plan, default_plan_of_kind(size, "hopper", kind));
  for (const PlanMeasurement& m : measured.candidates) {
    EXPECT_EQ(kind_of(m.candidate.plan), kind);
    EXPECT_GT(m.median_ms, 0);
    EXPECT_LE(m.relative_difference, candidate_agreement_bound(Precision::fp32));
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, GpuMeasuredPlanning, ::testing::Values(TransformKind::c2c, TransformKind::r2c),
                         [](const auto& info) { return to_string(info.param); });

TEST(GpuMeasuredPlanningRefusals, C2rAndR2cInPlaceAreRefusedBeforeAnyGpuWork) {
  MeasureSettings c2r;
  c2r.kind = TransformKind::c2r;
  EXPECT_THROW(measure_plans({64, 64, 64}, "hopper", 2, c2r), UsageError);
  MeasureSettings in_place;
  in_place.kind = TransformKind::r2c;
  in_place.placement = Placement::in_place;
  EXPECT_THROW(measure_plans({64, 64, 64}, "hopper", 2, in_place), UsageError);
}

}  // namespace
}  // namespace fft3d::testing
