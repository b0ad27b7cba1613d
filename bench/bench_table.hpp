// The rows `fft3d bench` measures and the files it writes: a table for the terminal, CSV and JSON.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bench/driver_probe.hpp"
#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::bench {

struct BenchRow {
  Extents size;
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

  double fft3d_gflops() const;       // 5 N log2 N / t
  double cufft_gflops() const;
  double fft3d_gbs() const;          // bytes fft3d moves (passes x read + write) / t
  double volume_gbs(const Timing& t) const;  // one read + write of the volume / t, comparable across libraries
  double pass_equivalents(const Timing& t) const;  // t over one read + write at memcpy speed
};

// (largest - smallest) / median of one library's per-pair medians, 0 for one pair.
double pair_spread(const std::vector<double>& pair_ms);

struct BenchRun {
  GpuInfo gpu;
  std::string order;  // natural or digit-reversed
  int repeats = 0;        // samples per library and buffer pair
  int buffer_pairs = 1;   // asked for; a row has fewer where the device had no memory for more
  std::vector<BenchRow> rows;
};

void print_table(const BenchRun& run, std::ostream& out);
void write_csv(const BenchRun& run, std::ostream& out);
void write_json(const BenchRun& run, std::ostream& out);

}  // namespace fft3d::bench
