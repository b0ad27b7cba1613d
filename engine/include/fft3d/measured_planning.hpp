// Measured planning: the planner's best candidates for a size, each built, checked and timed on this machine's GPU,
// as FFTW's FFTW_MEASURE does. The caller keeps the fastest (as wisdom, wisdom.hpp, if it wants it remembered).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

// A candidate whose result disagrees with the first candidate's: a plan that computes the wrong transform is a
// defect, not a slow candidate.
class MeasurementError : public Error {
 public:
  using Error::Error;
};

struct MeasureSettings {
  Placement placement = Placement::out_of_place;  // in place: the input is restored before each run, untimed
  int warmup_runs = 3;
  int timed_samples = 20;                         // the median of these is the candidate's time
  // Out of place, a sample is a batch of back-to-back runs lasting at least this long (sized from one timed run),
  // so a short transform is timed as a stream of runs, not by its first launch's latency. In place: single runs.
  double min_sample_ms = 1.0;
  std::uint64_t seed = 1;                         // of the random input every candidate transforms
  Precision precision = Precision::fp32;          // the candidates' (fp64: ranked as they lower in fp64)
  // c2c; r2c (out of place: random reals in, the half spectrum out); or c2r (out of place, inverse: the half
  // spectrum of random reals, made once by the default R2C plan, in, the reals out; a Hermitian input, so that the
  // candidates compute one transform).
  TransformKind kind = TransformKind::c2c;
  // Packed volumes each run transforms: the candidates are ranked as the batch's grid fills the GPU
  // (passes_in_batch, as plan_for_size ranks a batch) and each runs over the whole batch, checked over all of it.
  std::int64_t batch = 1;
  // The plan runs of this size take today (plan_for_size's: the table's, or wisdom), where the caller has one:
  // timed first, before the planner's candidates, unless they hold it, so that each is weighed against it. Why:
  // the planner ranks by its cost model, and a table's plan tuned by hand may rank outside its best `count`.
  std::optional<Plan> incumbent;
};

// Two fp32 results of one transform, each within 2e-6 relative L2 of the exact one, differ by at most the sum; two
// fp64 results, each within the fp64 bound the GPU checks keep (1e-13 against cuFFT Z2Z), likewise.
constexpr double candidate_agreement_bound_fp32 = 4e-6;
constexpr double candidate_agreement_bound_fp64 = 2e-13;
double candidate_agreement_bound(Precision precision);

struct PlanMeasurement {
  RankedPlan candidate;            // the plan and the model's pass-equivalents
  double median_ms = 0;            // per run (forward; inverse for c2r), natural order, unscaled
  double relative_difference = 0;  // relative L2 distance of its output from the first candidate's (0 for the first)
};

// The measurements of one call, in the planner's order.
struct PlanMeasurements {
  std::string device_name;  // the GPU they ran on, as the driver names it
  std::vector<PlanMeasurement> candidates;
  // The fastest candidate (the first of equals).
  const PlanMeasurement& fastest() const;
};

// The first `count` of ranked_plans_of_kind(size, arch, settings.kind, passes_on_its_profile, count) (in fp64 ranked
// as they lower in fp64, and run in fp64; with settings.batch ranked and run for the batch), in the planner's order,
// with settings.incumbent first (put before them, or moved to the front where they hold it); each compiled for the
// current device, run on one input (random; for c2r the half spectrum of random reals) and timed with CUDA events
// (median of timed_samples). The check needs no reference FFT: every candidate's output must lie within
// candidate_agreement_bound of the first candidate's, so the candidates are checked against each other (a caller
// wanting the first checked against an oracle runs it through validate/). Throws MeasurementError on a
// disagreement; UsageError for count < 1, a batch under 1, a size no plan covers (no candidate), an incumbent of
// another size or kind, or r2c or c2r in place; and the GpuTransform errors (GpuUnavailable, OutOfMemory,
// CompileError, CudaError).
PlanMeasurements measure_plans(const Extents& size, const std::string& arch, int count,
                               const MeasureSettings& settings = {});

}  // namespace fft3d
