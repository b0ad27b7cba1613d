// The CUDA engine: a plan lowered to KernelSpecs, each compiled by NVRTC (through the disk cache) and run on the
// caller's stream. CUDA types stay out of this header (streams are void*), so users compile it without CUDA.
//
//   fft3d::CudaEngine engine(fft3d::load_plan_file("plans/tesla/256x256x256.yaml").plan);
//   engine.execute(d_in, d_out, {.direction = fft3d::Direction::forward}, stream);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_compiler.hpp"
#include "fft3d/errors.hpp"
#include "lowering/kernel_spec.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

// One launched kernel: its spec (explain) and what the compiler reported.
struct CudaKernelInfo {
  KernelSpec spec;
  CompileReport compile;
};

// Where a plan's setup went (milliseconds, wall clock, in order).
struct CudaSetupTimes {
  double lowering_ms = 0;  // lower_plan, the kernels on threads of their own
  double kernels_ms = 0;   // source generation and NVRTC or the disk cache, every kernel at once
  double loading_ms = 0;   // module loads and their shared-memory attribute
};

class CudaEngine {
 public:
  // Lowers `plan` for its own arch profile (plan.arch) and compiles every kernel for the current device.
  // Throws PlanError, LoweringError, GpuUnavailable, OutOfMemory (volume over device memory), CompileError,
  // CudaError.
  explicit CudaEngine(const Plan& plan, std::string plan_name = "<plan>");
  // From a plan file (located errors as PlanError).
  static CudaEngine from_file(const std::string& path);
  // For a size: the plan remembered as wisdom on this machine for the arch, size and placement (wisdom.hpp), else
  // the arch's table plan if it has one, else the default planner's plan whose kernels lower on the profile. Throws
  // UsageError when none exists.
  static CudaEngine for_size(const Extents& size, const std::string& arch = "hopper", bool in_place = false);
  ~CudaEngine();
  CudaEngine(CudaEngine&&) noexcept;
  CudaEngine& operator=(CudaEngine&&) noexcept;
  CudaEngine(const CudaEngine&) = delete;
  CudaEngine& operator=(const CudaEngine&) = delete;

  // Device pointers to plan().size.elements() values of std::complex<float> (float2), natural order in.
  // in == out: in place. Out of place: `in` is never written. `stream` is a cudaStream_t (nullptr: default stream).
  // Asynchronous; throws UsageError (null pointer), CudaError (a failed launch).
  void execute(const void* in, void* out, const TransformOptions& options = {}, void* stream = nullptr);
  void forward(const void* in, void* out, void* stream = nullptr);
  // Inverse with 1/N scaling (Scaling::full) unless told otherwise.
  void inverse(const void* in, void* out, Scaling scaling = Scaling::full, void* stream = nullptr);

  // Device bytes beyond the data that `order` needs, in place or out of place (0 for digit-reversed, and for
  // natural order whenever every axis is reordered inside a tile, or out of place by the sorted layout). The
  // engine allocates it itself at the first run that needs it.
  std::int64_t workspace_bytes(Order order = Order::natural, bool out_of_place = false) const;

  // Launches only kernel `index` of kernels() as an in-place or out-of-place execute() without a workspace would
  // (kernel 0 reads `in`, every kernel writes `out`; the reorder pass reads `out` into the workspace). For timing.
  void run_kernel(std::size_t index, const void* in, void* out, const TransformOptions& options = {},
                  void* stream = nullptr);

  // Launches the copy twin of tile kernel `index`: generated from the same KernelSpec without its stages (same
  // tile loads, shared-memory layout and stores, no arithmetic). Kernel time over twin time is the measured cost
  // of the X work the paper hides under memory traffic. Compiled on first use.
  void run_copy_twin(std::size_t index, const void* in, void* out, void* stream = nullptr);

  // The tile kernels in plan order, then the digit-reversal pass if the plan has one.
  const std::vector<CudaKernelInfo>& kernels() const;
  const Plan& plan() const;
  int arch() const;             // e.g. 90
  double setup_ms() const;      // lowering + compilation (or cache loads) + module loads
  const CudaSetupTimes& setup_times() const;
  // Whether a run in `order`, in place or out of place, ends with the reorder pass.
  bool runs_reorder_pass(Order order, bool out_of_place) const;
  // Reads and writes of the whole volume such a run makes (LoweredPlan::volume_passes).
  std::int64_t volume_passes(Order order, bool out_of_place) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fft3d
