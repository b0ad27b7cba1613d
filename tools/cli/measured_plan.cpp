#include "measured_plan.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/wisdom.hpp"
#ifdef FFT3D_HAVE_CUDA
#include "fft3d/gpu_transform.hpp"
#include "fft3d/measured_planning.hpp"
#endif

namespace fft3d::cli {

void require_measurable(TransformKind kind, bool in_place) {
  if (kind != TransformKind::c2c && in_place)
    throw UsageError("--measure --transform " + to_string(kind) + " times its candidates out of place (drop "
                     "--in-place)");
}

#ifndef FFT3D_HAVE_CUDA
MeasuredChoice measured_plan(const Extents&, const std::string&, int, bool, TransformKind, Precision,
                             const std::string&, const MeasureRounds&, std::int64_t) {
  throw GpuUnavailable("--measure: this build has no CUDA backend (no CUDA toolkit was found at build time)");
}
#else
namespace {

// One line per candidate on stderr: the model's estimate, the measured time and the agreement with candidate 1.
void print_measurements(const PlanMeasurements& measured) {
  for (std::size_t i = 0; i < measured.candidates.size(); ++i) {
    const PlanMeasurement& m = measured.candidates[i];
    std::cerr << "candidate " << i + 1 << "  " << std::fixed << std::setprecision(1) << m.candidate.passes
              << " pass-equivalents (model)  " << std::setprecision(4) << m.median_ms << " ms  relative L2 to "
              << "candidate 1 " << std::scientific << std::setprecision(2) << m.relative_difference
              << std::defaultfloat << "  " << to_brace_string(m.candidate.plan.kernels) << "\n";
  }
}

// Each candidate's slowest round.
std::vector<double> slowest_rounds(const std::vector<PlanMeasurements>& rounds) {
  std::vector<double> slowest(rounds.front().candidates.size(), 0.0);
  for (const PlanMeasurements& round : rounds)
    for (std::size_t i = 0; i < slowest.size(); ++i) slowest[i] = std::max(slowest[i], round.candidates[i].median_ms);
  return slowest;
}

// The plan runs of `size` take on this GPU now, where a table or wisdom gives it (the planner's own first choice is
// the first candidate anyway); its source in `source`.
std::optional<Plan> incumbent_plan(const Extents& size, const std::string& arch, bool in_place, TransformKind kind,
                                   Precision precision, std::int64_t batch, std::string& source) {
  const SizedPlan now = plan_for_size(size, arch, in_place, passes_on_its_profile_in(in_place), kind, precision,
                                      batch, current_device_name());
  if (now.from_planner) return std::nullopt;
  source = now.source;
  return now.parsed.plan;
}

}  // namespace

MeasuredChoice measured_plan(const Extents& size, const std::string& arch, int count, bool in_place,
                             TransformKind kind, Precision precision, const std::string& command,
                             const MeasureRounds& rounds, std::int64_t batch) {
  MeasureSettings settings;
  settings.batch = batch;
  settings.placement = in_place ? Placement::in_place : Placement::out_of_place;
  settings.precision = precision;
  settings.kind = kind;
  MeasuredChoice choice;
  std::vector<PlanMeasurements> measured;
  try {
    settings.incumbent = incumbent_plan(size, arch, in_place, kind, precision, batch, choice.incumbent_source);
    for (int r = 0; r < std::max(1, rounds.rounds); ++r) {
      measured.push_back(measure_plans(size, arch, count, settings));
      print_measurements(measured.back());
    }
  } catch (const GpuUnavailable& e) {
    throw GpuUnavailable(std::string("--measure: no CUDA device (or no driver) on this machine: ") + e.what());
  }
  const std::vector<double> slowest = slowest_rounds(measured);
  const std::size_t fastest = std::min_element(slowest.begin(), slowest.end()) - slowest.begin();
  const std::size_t chosen = slowest[fastest] <= (1.0 - rounds.margin) * slowest.front() ? fastest : 0;
  choice.plan = measured.front().candidates[chosen].candidate.plan;
  choice.kept_incumbent = settings.incumbent && chosen == 0;
  const std::string first = settings.incumbent ? "the plan runs took before (" + choice.incumbent_source + ")"
                                               : "the planner's first choice";
  std::ostringstream text;
  text << "# Written by `" << command << "`: the fastest of the default planner's " << count << " best"
       << (precision == Precision::fp64 ? " fp64" : "") << (kind == TransformKind::c2c ? "" : " " + to_string(kind))
       << " candidates" << (settings.incumbent ? " and the plan runs took before" : "")
       << (batch > 1 ? " for a batch of " + std::to_string(batch) + " volumes" : "") << " on "
       << measured.front().device_name << ", " << slowest[chosen] << " ms (median of " << settings.timed_samples << " "
       << (in_place ? "single runs in place" : "samples of back-to-back runs out of place") << ", natural order";
  if (measured.size() > 1)
    text << "; the slowest of " << measured.size() << " rounds, a candidate other than " << first
         << " taken where at least " << 100 * rounds.margin << "% faster";
  text << "; " << first << " " << slowest.front() << " ms).\n";
  choice.header = text.str();
  return choice;
}
#endif

}  // namespace fft3d::cli
