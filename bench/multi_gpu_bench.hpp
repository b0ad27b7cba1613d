// `fft3d bench --gpus G`: on the GPUs 0..G-1 of one process, for each size, fft3d's MultiGpuTransform forward (each
// layout and placement asked for), cuFFT's own multi-GPU C2C (cufftXt) and the exchange alone (NCCL's grouped
// send/receive of the slab blocks, and NCCL's all-to-all of the same bytes). Each transform's result is checked in
// closed form (plane waves, every element, and the round trip) before it is timed; a row that fails its check or
// throws (cufftXt at 2048^3) says why and holds no time.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

struct MultiGpuSettings {
  std::vector<Extents> sizes;
  int gpus = 2;                                              // devices 0..G-1
  std::vector<SlabLayout> layouts = {SlabLayout::natural, SlabLayout::y_slabs};
  std::vector<Placement> placements = {Placement::out_of_place};
  std::string arch = "hopper";                               // the profile of the slab and column plans
  int repeats = 20;                                          // timed samples per row, the median reported
  std::uint64_t seed = 1;                                    // of the plane waves; size i uses seed + i
  double exchange_timeout_s = 60;
};

struct MultiGpuRow {
  std::string library;       // fft3d, cufftXt, NCCL
  std::string variant;       // e.g. "natural, out of place"; "slab blocks"; "all-to-all"
  Extents size;
  int gpus = 1;
  bool checked = false;      // the result passed its check; only then is `time` filled
  std::string failure;       // why there is no time: a failed check, or the error that stopped it
  Timing time;
  double error = 0;          // relative L2 of the check (fft3d: the spectrum; cufftXt: the round trip)
  std::int64_t extra_bytes_per_gpu = 0;  // device memory beyond the data: exchange buffer, work area
  double pass_equivalents = 0;           // median over one read+write of the local volume at memcpy speed
  double gbs = 0;            // exchanges: local bytes per GPU over the time (algorithm bandwidth)
  double bus_gbs = 0;        // exchanges: the bytes crossing to other GPUs over the time (bus bandwidth)
};

struct MultiGpuRun {
  GpuInfo gpu;               // device 0's
  int gpus = 1;
  std::vector<MultiGpuRow> rows;
};

// Called before each row is measured.
using MultiGpuProgress = std::function<void(const std::string& what)>;

// Throws GpuUnavailable (fewer than G GPUs, no NCCL) and UsageError (G out of range); every error of a row's own
// measurement goes into that row. The cufftXt rows run after every other row, so that a cufftXt failure that loses
// the CUDA context (as at 2048^3) cannot take the other measurements with it.
MultiGpuRun run_multi_gpu_bench(const MultiGpuSettings& settings, const MultiGpuProgress& progress = {});

void print_multi_gpu_table(const MultiGpuRun& run, std::ostream& out);
void write_multi_gpu_csv(const MultiGpuRun& run, std::ostream& out);

}  // namespace fft3d::bench
