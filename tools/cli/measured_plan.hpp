// Measured planning from the command line, shared by `fft3d plan --measure` and `fft3d table --measure`.
#pragma once

#include <cstdint>
#include <string>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::cli {

// How sure a measured choice must be. One round takes the fastest candidate. Several rounds time every candidate
// again and judge each by its slowest round, and another candidate replaces the first one (the incumbent, or the
// planner's first choice) only where it is faster by `margin` (a fraction): a table kept for a GPU model must not
// file a plan that won by one noisy sample (transforms of a few microseconds move by 10-40% between runs,
// docs/performance.md L80).
struct MeasureRounds {
  int rounds = 1;
  double margin = 0;
};

// Throws UsageError for what measured planning does not time: r2c or c2r in place (the command-line check, before
// any GPU work).
void require_measurable(TransformKind kind, bool in_place);

// What measured_plan chose: the plan, the plan file's comment line (`header`), and whether it is the incumbent, the
// plan runs of the size took before from a table or wisdom (`incumbent_source` says which), kept as no candidate
// beat it: a GPU's table then needs no file of its own for the size.
struct MeasuredChoice {
  Plan plan;
  std::string header;
  bool kept_incumbent = false;
  std::string incumbent_source;
};

// The fastest of the default planner's `count` best candidates of `kind` (c2c; r2c and c2r out of place) in
// `precision` for `size` on this machine's GPU, and of the incumbent (what plan_for_size gives this GPU now, where
// that is a table's or wisdom's plan), timed out of place or in place (measure_plans, each candidate checked against
// the first one's result), each candidate's time printed on stderr. The header says what `command` measured, on
// which GPU, in what time against the first candidate. A batch over 1 ranks and times the candidates over that
// many packed volumes (the plan is one volume's, with Plan::batch). GpuUnavailable without a CUDA build or device.
MeasuredChoice measured_plan(const Extents& size, const std::string& arch, int count, bool in_place,
                             TransformKind kind, Precision precision, const std::string& command,
                             const MeasureRounds& rounds = {}, std::int64_t batch = 1);

}  // namespace fft3d::cli
