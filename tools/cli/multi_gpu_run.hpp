// `fft3d run --gpus G` and `fft3d bench --gpus G`: the multi-GPU slab transform run once and checked (against the
// fp64 oracle where its volumes fit the host, else in closed form), and the multi-GPU benchmark. The options are
// read and checked by run_command.cpp and bench_command.cpp, which need no GPU for that.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/transform.hpp"
#include "validate/oracle.hpp"

namespace fft3d::cli {

struct MultiGpuRunSettings {
  Extents size;
  int gpus = 1;                              // devices 0..G-1
  SlabLayout layout = SlabLayout::natural;   // the spectrum's layout
  SlabExchange exchange = SlabExchange::automatic;
  Precision precision = Precision::fp32;     // fp64: checked against the oracle only
  TransformKind kind = TransformKind::c2c;   // r2c (forward) and c2r (inverse): checked against the oracle only
  TransformOptions options;                  // natural order only
  bool in_place = false;
  int repeats = 1;
  std::uint64_t seed = 1;
  std::string check = "auto";                // oracle, plane-waves (forward, unscaled), auto
  std::string arch = "hopper";
  double bound = validate::fp32_error_bound;  // the precision's (cuda_error_bound)
  bool cufftxt = true;                        // measure cufftXt after fft3d (report_cufftxt)
};

// Throws UsageError for settings the multi-GPU run refuses whatever the machine (G out of range or not dividing
// NY and NZ, a real kind's odd NX or a direction against it, digit-reversed order, a check that cannot apply); no
// GPU is touched.
void check_multi_gpu_run_settings(const MultiGpuRunSettings& settings);

// Runs, checks and reports, then (settings.cufftxt) reports cufftXt beside it; returns fft3d's exit code. Throws
// GpuUnavailable (fewer than G GPUs, no NCCL, a build without CUDA), UsageError (G does not divide the size),
// OutOfMemory, CudaError.
int run_multi_gpu(const MultiGpuRunSettings& settings);

// What one fft3d run on several GPUs gave: its exit code and, where it was timed, its median time.
struct MultiGpuOutcome {
  int exit_code = 0;
  double median_ms = 0;
};

// run_multi_gpu for a real kind, on `devices` (present): R2C or C2R against the fp64 oracle, then timed.
MultiGpuOutcome run_multi_gpu_real(const MultiGpuRunSettings& settings, const std::vector<int>& devices);

// After fft3d's run, with its buffers freed: cufftXt of the same size, kind, precision and direction on the same
// devices, checked by its round trip and timed in place in its own format, and the fft3d/cufftXt speed ratio. A
// cufftXt failure (cufftMakePlan3d at 2048^3) is reported as its line; fft3d's result stands.
void report_cufftxt(const MultiGpuRunSettings& settings, const std::vector<int>& devices, double fft3d_median_ms);

}  // namespace fft3d::cli
