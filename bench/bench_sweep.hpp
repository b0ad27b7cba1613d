// The sweep `fft3d bench` runs: for each size, fft3d and cuFFT in the same process on the same buffers, each result
// checked against the fp64 cuFFT oracle (Z2Z; D2Z and Z2D for real transforms) before any figure is kept, each size
// timed on several buffer pairs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_table.hpp"
#include "bench/driver_probe.hpp"
#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

struct SweepSettings {
  std::vector<Extents> sizes;
  std::string arch = "hopper";  // the profile whose wisdom, table or default planner gives each size's plan
  Order order = Order::natural;
  // c2c, or r2c: a real transform measured in both directions, R2C and C2R (bench/real_sweep.hpp), natural order.
  TransformKind transform = TransformKind::c2c;
  Placement placement = Placement::out_of_place;  // in place: r2c only
  int repeats = 20;             // timed samples per library, size and buffer pair
  int buffer_pairs = 3;         // input/output pairs each size is timed on (fewer where memory runs short)
  std::uint64_t seed = 1;       // of the first size's random input; size i uses seed + i
  // fp64: fft3d's plans in fp64 against cuFFT Z2Z (c2c) or D2Z and Z2D (r2c), within fp64_error_bound.
  Precision precision = Precision::fp32;
  std::int64_t batch = 1;       // packed volumes a run transforms, against cufftPlanMany's batch
};

// Called before each size (done = its index) and once at the end (done = sizes.size()).
using SweepProgress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

// The fp64 sweep's error bound against the fp64 oracle (cuFFT Z2Z's own error is near 1e-15).
constexpr double fp64_error_bound = 1e-13;
double error_bound_of(Precision precision);

// A row's plan column: the plan's source, and the batch where over 1 (the row's figures count every volume).
std::string plan_column(const std::string& source, std::int64_t batch);

// One size: the checked runs of both libraries, then their timings on settings.buffer_pairs input/output pairs (the
// checked pair and fresh ones, all kept allocated so that each lies elsewhere in physical memory; fft3d's output on
// each is checked again before it is timed), the clocks the GPU ran at, and a memcpy. A row over the error bound
// says why in `failure` and holds no timing.
BenchRow measure_size(const Extents& size, const SweepSettings& settings, std::uint64_t seed,
                      const DriverProbe& driver);

// The timed half of measure_size, for any checked run (`Run::time_pairs` times both libraries on the buffer pairs,
// checking fft3d again on each): the pooled times, the clocks and the memcpy speed over `copy_bytes` into `row`,
// which is left unchecked, with time_pairs's failure, where a pair fails.
template <class Run>
void time_checked_size(Run& run, const SweepSettings& settings, const DriverProbe& driver, std::int64_t copy_bytes,
                       BenchRow& row) {
  std::vector<Timing> ours_by_pair, theirs_by_pair;
  if (!run.time_pairs(settings.buffer_pairs, ours_by_pair, theirs_by_pair, row)) return;
  row.clocks = driver.current_clocks();
  row.checked = true;
  row.fft3d = pooled(ours_by_pair);
  row.cufft = pooled(theirs_by_pair);
  row.memcpy_gbs = memcpy_gbytes_per_second(copy_bytes);
}

// Every size of the sweep, on the current device: one row per size, two (R2C, then C2R) for r2c. Throws
// GpuUnavailable where there is none, UsageError for settings the sweep does not measure (c2r, c2c in place, a real
// transform in digit-reversed order).
BenchRun run_sweep(const SweepSettings& settings, const SweepProgress& progress = {});

}  // namespace fft3d::bench
