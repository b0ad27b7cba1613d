// Instrumentation of a GPU transform, for benchmarks and profilers: each kernel run alone, each kernel's copy twin,
// and where the setup time went. A transform runs without any of it.
//
// A copy twin is generated from the same lowered kernel without its butterflies (same tile loads, shared-memory
// layout and stores, no arithmetic): kernel time over twin time is the measured cost of the FFT work the paper hides
// under memory traffic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/gpu_transform.hpp"

namespace fft3d {

// One launched kernel of a transform, as compiled.
struct GpuKernelInfo {
  std::string entry_name;
  bool reorder_pass = false;   // the digit-reversal pass, after the plan's kernels
  int registers = 0;           // per thread, as the loaded kernel reports (cudaFuncGetAttributes)
  bool from_cache = false;     // loaded from the disk cache rather than compiled by NVRTC in this process
  std::int64_t blocks = 0;     // grid
  int threads = 0;             // per block
  std::int64_t shared_bytes = 0;
};

// Where a transform's setup went (milliseconds, wall clock, in order).
struct GpuSetupTimes {
  double lowering_ms = 0;  // lowering the plan
  double kernels_ms = 0;   // source generation and NVRTC or the disk cache, every kernel at once
  double loading_ms = 0;   // module loads and their attributes
  double total_ms = 0;
};

class GpuProfiler {
 public:
  // `transform` must outlive the profiler.
  explicit GpuProfiler(GpuTransform& transform);

  // The plan's kernels in order (index k is the plan's kernel k), then the reorder pass if the lowering has one.
  const std::vector<GpuKernelInfo>& kernels() const;
  const GpuSetupTimes& setup_times() const;
  // Whether a run in `order` and `placement` ends with the reorder pass.
  bool runs_reorder_pass(Order order, Placement placement) const;
  // Reads and writes of the whole volume (of every volume of a batch) such a run makes.
  std::int64_t volume_passes(Order order, Placement placement) const;

  // Launches kernel `index` of kernels() alone, as an execute() without a caller's workspace would (kernel 0 reads
  // `in`, every kernel writes `out`; the reorder pass reads `out` into the workspace). For timing: it computes
  // nothing meaningful alone. Throws UsageError for a bad index or a null pointer.
  void run_kernel(std::size_t index, const DeviceComplex32* in, DeviceComplex32* out,
                  const TransformOptions& options = {}, Stream stream = nullptr);
  // Launches the copy twin of the plan's kernel `index` (not the reorder pass), compiled on first use.
  void run_copy_twin(std::size_t index, const DeviceComplex32* in, DeviceComplex32* out, Stream stream = nullptr);

 private:
  GpuTransform* transform_;
};

}  // namespace fft3d
