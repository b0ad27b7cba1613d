// What one fft3d_handle holds behind the C API: a transform of either backend, seen through one interface, so that
// fft3d_c.cpp translates arguments and errors and never asks which backend it holds.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>

#include "fft3d/errors.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::c_api {

enum class Backend { gpu, cpu };

class TransformHandle {
 public:
  virtual ~TransformHandle() = default;
  // Runs the handle's transform on untyped pointers, typed by desc().kind and desc().precision (typed_execute).
  // `stream`: a cudaStream_t for a GPU handle; nullptr (the only value accepted) for a CPU one.
  virtual void execute(const void* in, void* out, const TransformOptions& options, void* stream) = 0;
  virtual std::int64_t workspace_bytes(Placement placement) const = 0;
  // GPU handles only; a CPU handle throws UsageError.
  virtual void set_workspace(void* device_memory, std::int64_t bytes) = 0;
  virtual const Plan& plan() const = 0;
  virtual Backend backend() const = 0;
  virtual int device() const = 0;  // the CUDA ordinal; -1 for the CPU

  // What was asked for (for a plan file: the plan's size, kind, precision and batch, packed).
  const TransformDesc& desc() const { return desc_; }
  // to_yaml(plan()), kept so that its address outlives the call that returns it.
  const std::string& plan_text() const;

 protected:
  explicit TransformHandle(const TransformDesc& desc) : desc_(desc) {}

 private:
  TransformDesc desc_;
  mutable std::string plan_text_;
};

// The descriptor a plan file's transform answers to: its size, kind, precision and batch, packed, out of place.
TransformDesc desc_of(const Plan& plan);

// Calls `run(in, out)` with the pointers typed for `kind` and `Real`: complex to complex (C2C), real to complex
// (R2C), complex to real (C2R), the argument types of every backend's execute overloads.
template <class Real, class Run>
void typed_execute(TransformKind kind, const void* in, void* out, Run&& run) {
  using Complex = std::complex<Real>;
  switch (kind) {
    case TransformKind::c2c:
      run(static_cast<const Complex*>(in), static_cast<Complex*>(out));
      return;
    case TransformKind::r2c:
      run(static_cast<const Real*>(in), static_cast<Complex*>(out));
      return;
    case TransformKind::c2r:
      run(static_cast<const Complex*>(in), static_cast<Real*>(out));
      return;
  }
  throw UsageError("unknown transform kind");
}

// Each throws what the C++ constructors throw.
std::unique_ptr<TransformHandle> make_cpu_handle(const TransformDesc& desc, int threads);
std::unique_ptr<TransformHandle> make_cpu_handle_from_file(const std::string& path, int threads);
// `device` < 0: the current device. Without the CUDA toolkit in the build they throw GpuUnavailable.
std::unique_ptr<TransformHandle> make_gpu_handle(const TransformDesc& desc, int device);
std::unique_ptr<TransformHandle> make_gpu_handle_from_file(const std::string& path, int device);

}  // namespace fft3d::c_api
