// The GPU transform: a plan lowered to kernels, each compiled by NVRTC for the current device (through the disk
// cache), run on the caller's stream. CUDA's headers stay out of this one: a stream is a cudaStream_t by its
// runtime name, CUstream_st*.
//
//   fft3d::GpuTransform fft({.extents = {256, 256, 256}});
//   fft.forward(d_in, d_out, stream);                  // std::complex<float>* device pointers
//   fft.inverse(d_out, d_out, fft3d::Scaling::full, stream);
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "fft3d/errors.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

struct CUstream_st;

namespace fft3d {

using Stream = CUstream_st*;  // a cudaStream_t; nullptr: the default stream
using DeviceComplex32 = std::complex<float>;   // layout-compatible with cufftComplex and float2
using DeviceComplex64 = std::complex<double>;  // layout-compatible with cufftDoubleComplex and double2

class GpuProfiler;

class GpuTransform {
 public:
  // For a descriptor, on the profile of the current device's architecture (arch_profile_for_device): the plan
  // remembered as wisdom on this machine, else the profile's table plan, else the default planner's, with the
  // descriptor's batch and batch stride. Throws UsageError (a descriptor not offered yet, a size no plan covers, a
  // batch under 1, a batch stride under a volume or with a real kind, a batch whose size overflows),
  // GpuUnavailable, OutOfMemory (the batch is over the device's memory), CompileError, CudaError.
  explicit GpuTransform(const TransformDesc& desc);
  // For a plan, lowered on its own profile (plan.arch) and compiled for the current device; a batch plan
  // (plan.batch) runs packed volumes. Throws as above, and PlanError, LoweringError.
  explicit GpuTransform(const Plan& plan, std::string plan_name = "<plan>");
  // From a plan file (located errors as PlanError).
  static GpuTransform from_file(const std::string& path);
  ~GpuTransform();
  GpuTransform(GpuTransform&&) noexcept;
  GpuTransform& operator=(GpuTransform&&) noexcept;
  GpuTransform(const GpuTransform&) = delete;
  GpuTransform& operator=(const GpuTransform&) = delete;

  // `in` and `out`: device pointers to plan().size.elements() values, natural order in. in == out: in place. Out of
  // place, `in` is never written. Asynchronous on `stream`. Throws UsageError (a null pointer, a caller's workspace
  // too small for this run), CudaError (a failed launch).
  // The data type is the plan's precision (plan().precision): std::complex<float> for fp32, std::complex<double>
  // for fp64; the other throws UsageError.
  // Batches (plan().batch volumes, each batch stride apart, or packed): every kernel runs the whole batch in one
  // launch (in launches of up to 65535 volumes, the grid's Y limit). Where natural order takes the digit-reversal
  // pass, the tile kernels run in `out` and each volume is then reordered into the one-volume workspace and copied
  // back (2 * batch more launches and two more passes over the batch; the workspace stays one volume's).
  void execute(const DeviceComplex32* in, DeviceComplex32* out, const TransformOptions& options = {},
               Stream stream = nullptr);
  void execute(const DeviceComplex64* in, DeviceComplex64* out, const TransformOptions& options = {},
               Stream stream = nullptr);
  void forward(const DeviceComplex32* in, DeviceComplex32* out, Stream stream = nullptr);
  void forward(const DeviceComplex64* in, DeviceComplex64* out, Stream stream = nullptr);
  // Inverse with 1/N scaling (Scaling::full) unless told otherwise.
  void inverse(const DeviceComplex32* in, DeviceComplex32* out, Scaling scaling = Scaling::full,
               Stream stream = nullptr);
  void inverse(const DeviceComplex64* in, DeviceComplex64* out, Scaling scaling = Scaling::full,
               Stream stream = nullptr);

  // Real transforms (plan().kind: kind_of(plan), or the descriptor's kind), FFTW's and cuFFT's layouts.
  // R2C, forward: `in` holds NX*NY*NZ reals, X contiguous (out of place), or rows padded to 2*(NX/2+1) reals (in
  // place: in and out are one address); `out` receives the half spectrum, (NX/2+1)*NY*NZ complex values in natural
  // order. C2R, inverse (options.direction must say inverse; scaling none or full): `in` holds the half spectrum
  // and is never written out of place; the imaginary parts of the DC and Nyquist terms along X are ignored; `out`
  // receives the reals in the same layouts. Throws UsageError: the plan's kind is not this overload's, a direction
  // that contradicts it, digit-reversed order (real transforms run in natural order), a null pointer.
  // A real batch is packed: volume after volume in each buffer's layout, every kernel over the whole batch in one
  // launch (up to 65535 volumes; a C2R of several kernels out of place, up to NX/2 + 1).
  void execute(const float* in, DeviceComplex32* out, const TransformOptions& options = {}, Stream stream = nullptr);
  void execute(const DeviceComplex32* in, float* out,
               const TransformOptions& options = {.direction = Direction::inverse}, Stream stream = nullptr);
  // The same in fp64 (a plan with precision fp64): double reals, std::complex<double> spectrum.
  void execute(const double* in, DeviceComplex64* out, const TransformOptions& options = {}, Stream stream = nullptr);
  void execute(const DeviceComplex64* in, double* out,
               const TransformOptions& options = {.direction = Direction::inverse}, Stream stream = nullptr);

  // A C2C batch's layout in each buffer, cuFFT's idist and odist: complex values from one volume's start to the
  // next in `in` (what the first kernel loads) and in `out` (every later access), 0: packed. Replaces the
  // descriptor's batch_stride for the runs after it. A run in place needs the two equal (UsageError at execute).
  // Throws UsageError for a real plan (its batches are packed) and for a stride other than 0 under one volume.
  void set_batch_strides(std::int64_t in_stride, std::int64_t out_stride);

  // Device bytes beyond the data that a run in `order` and `placement` needs: 0 for digit-reversed order, and for
  // natural order whenever the plan reaches it inside its kernels; otherwise one volume for the reorder pass (or for
  // the kernels before a last kernel that stores natural order out of it), whatever the batch. A real plan: 0, except a C2R of several kernels out of place, NY*NZ complex values a volume
  // of one launch (at most NX/2 + 1 volumes: within one volume's half spectrum): the half spectrum's Nyquist column
  // between its kernels, which the output's real rows have no room for.
  std::int64_t workspace_bytes(Order order = Order::natural, Placement placement = Placement::out_of_place) const;
  // Runs use `device_memory` (at least the workspace_bytes of each run they make, kept alive by the caller while
  // they run) instead of allocating a workspace of their own at the first run that needs one.
  void set_workspace(void* device_memory, std::int64_t bytes);

  const Plan& plan() const;
  const std::string& plan_source() const;  // the plan's file, or how it was chosen for the descriptor
  int device_arch() const;                 // the current device's compute capability, e.g. 90

 private:
  friend class GpuProfiler;
  explicit GpuTransform(std::pair<Plan, std::string> plan);  // the descriptor's plan and how it was chosen
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The current device's name as the driver gives it ("NVIDIA H100 80GB HBM3"), which names its own tuning table
// (plan_table.hpp, find_gpu_table_plan). Read once a device per process. Throws GpuUnavailable without a device.
std::string current_device_name();

}  // namespace fft3d
