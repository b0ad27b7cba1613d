// The competitor's measurement (bench/cufftxt_run.hpp) on the GPUs: cufftXt of every kind and precision passes its
// round trip on plane waves and gets a time, over 2 GPUs. Skipped visibly with fewer than 2 GPUs (CI has none).
#include <gtest/gtest.h>

#include "bench/cufftxt_run.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::bench {
namespace {

constexpr double fp64_round_trip_bound = 1e-13;  // the CLI's fp64 bound on the GPU

TEST(CufftXtMeasure, EveryKindAndPrecisionPassesItsRoundTripOnTwoGpus) {
  if (validate::gpu_count() < 2)
    GTEST_SKIP() << validate::gpu_count() << " CUDA GPU visible: cufftXt's multi-GPU transform needs 2, skipped";
  for (TransformKind kind : {TransformKind::c2c, TransformKind::r2c, TransformKind::c2r})
    for (Precision precision : {Precision::fp32, Precision::fp64}) {
      SCOPED_TRACE(to_string(kind) + " " + to_string(precision));
      const double bound =
          precision == Precision::fp64 ? fp64_round_trip_bound : validate::fp32_error_bound;
      const CufftXtResult r = measure_cufftxt({.size = {64, 64, 64}, .devices = {0, 1}, .kind = kind,
                                               .precision = precision, .bound = bound, .warmup = 1, .repeats = 3});
      EXPECT_TRUE(r.checked) << r.failure;
      EXPECT_LT(r.round_trip_error, bound);
      EXPECT_GT(r.time.median_ms, 0.0);
    }
}

}  // namespace
}  // namespace fft3d::bench
