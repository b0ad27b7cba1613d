// The rows `fft3d bench` measures and the files it writes: a table for the terminal, CSV and JSON.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bench/driver_probe.hpp"
#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::bench {

// The flops a transform is credited with: the paper's 5 N log2 N for c2c (N = NX*NY*NZ), half that, 2.5 N log2 N,
// for r2c and c2r (the usual convention for real transforms).
double credited_flops(TransformKind transform, const Extents& size);
// The floor of a transform's traffic: one read of its input and one write of its output, in values of `precision`
// (fp32: c2c 8N + 8N; r2c reads 4N bytes of reals and writes 8 (NX/2+1) NY NZ bytes of half spectrum; c2r the
// reverse; fp64 twice each).
double floor_bytes(TransformKind transform, const Extents& size, Precision precision = Precision::fp32);
// The bytes of the complex volume a pass between kernels reads and writes: the volume for c2c, the half spectrum for
// r2c and c2r.
double complex_volume_bytes(TransformKind transform, const Extents& size, Precision precision = Precision::fp32);

struct BenchRow {
  Extents size;
  std::int64_t batch = 1;  // volumes of `size` each run transforms; every figure counts them all
  TransformKind transform = TransformKind::c2c;  // c2c, or one direction of a real transform: r2c or c2r
  Precision precision = Precision::fp32;  // of the data both libraries read and write: the bytes of every figure
  std::string plan;      // where the plan came from: a table file or "default planner"
  int passes = 0;        // reads and writes of the volume (GpuProfiler::volume_passes: the reorder pass included)
  bool checked = false;  // both results within the bound of the fp64 oracle; no figure is written otherwise
  std::string failure;   // why not, when !checked
  double fft3d_l2 = 0, cufft_l2 = 0;
  Timing fft3d, cufft;    // pooled over the buffer pairs (bench::pooled)
  // Each buffer pair's median, in the order measured. The time of a kernel can depend on where its buffers lie in
  // physical memory (bench/NOTES.md version 31: 512^3's first kernel 0.77-0.91 ms by pair), so a size is timed on
  // several pairs, both libraries on each.
  std::vector<double> fft3d_pair_ms, cufft_pair_ms;
  double memcpy_gbs = 0;  // device-to-device copy of this volume, read + write, in the same run
  ClockReading clocks;    // the GPU's clocks right after the last timed sample (DriverProbe; 0 where not known)

  double fft3d_gflops() const;       // credited_flops / t
  double cufft_gflops() const;
  // Bytes fft3d moves over t: the floor, plus a read and a write of the complex volume for each pass after the first.
  double fft3d_gbs() const;
  double volume_gbs(const Timing& t) const;  // floor_bytes / t, comparable across libraries
  double pass_equivalents(const Timing& t) const;  // t over the floor at memcpy speed
};

// (largest - smallest) / median of one library's per-pair medians, 0 for one pair.
double pair_spread(const std::vector<double>& pair_ms);

struct BenchRun {
  GpuInfo gpu;
  std::string order;  // natural or digit-reversed
  std::string placement = "out of place";  // of every row (to_string(Placement))
  int repeats = 0;        // samples per library and buffer pair
  int buffer_pairs = 1;   // asked for; a row has fewer where the device had no memory for more
  std::vector<BenchRow> rows;
};

void print_table(const BenchRun& run, std::ostream& out);
void write_csv(const BenchRun& run, std::ostream& out);
void write_json(const BenchRun& run, std::ostream& out);

}  // namespace fft3d::bench
