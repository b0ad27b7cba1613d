// The CPU backend: performs exactly a plan's sub-computations, kernel by kernel, over the whole volume. It runs
// anywhere and is the oracle for plan semantics.
#pragma once

#include <complex>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

namespace cpu {
struct PlanTables;  // twiddle and permutation tables, computed once per backend
}

// Batches (plan().batch volumes): every buffer and span holds the whole batch, volume after volume, and each volume
// is transformed as the plan says. A C2C batch's volumes lie the descriptor's batch stride apart (values from one
// volume's start to the next; 0, or a transform built from a plan: packed), and a buffer holds (batch - 1) strides
// and one volume (the values between volumes are left as they are); a real batch is packed in each buffer's layout
// (batch times the sizes below).
class CpuTransform {
 public:
  // For a descriptor: the plan of profile `arch` for its size, as the GPU transform picks one (wisdom, then the
  // table, then the default planner); the CPU runs any profile's plan exactly. Throws UsageError (a descriptor not
  // offered yet, a size no plan covers). `threads` = 0: all hardware threads.
  // With the descriptor's batch and batch stride (UsageError as require_supported says).
  explicit CpuTransform(const TransformDesc& desc, int threads = 0, const std::string& arch = "hopper");
  // For a plan. Throws PlanError if the plan is not legal.
  explicit CpuTransform(Plan plan, int threads = 0);
  // From a plan file (located errors as PlanError).
  static CpuTransform from_file(const std::string& path, int threads = 0);

  // The GPU transform's shape on host memory: `in` and `out` hold plan().size.elements() values, natural order in;
  // in == out: in place; out of place, `in` is never written. fp64 and fp32 data.
  void execute(const std::complex<double>* in, std::complex<double>* out, const TransformOptions& options = {}) const;
  void execute(const std::complex<float>* in, std::complex<float>* out, const TransformOptions& options = {}) const;
  template <class Real>
  void forward(const std::complex<Real>* in, std::complex<Real>* out) const {
    execute(in, out, {});
  }
  // Inverse with 1/N scaling (Scaling::full) unless told otherwise.
  template <class Real>
  void inverse(const std::complex<Real>* in, std::complex<Real>* out, Scaling scaling = Scaling::full) const {
    execute(in, out, {.direction = Direction::inverse, .scaling = scaling});
  }

  // The same on spans, whose sizes are checked (UsageError when one is not plan().size.elements()).
  // In place: `data` holds the input and receives the result in options.order.
  void execute(std::span<std::complex<double>> data, const TransformOptions& options) const;
  void execute(std::span<std::complex<float>> data, const TransformOptions& options) const;
  // Out of place: `in` is left untouched.
  void execute(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
               const TransformOptions& options) const;
  void execute(std::span<const std::complex<float>> in, std::span<std::complex<float>> out,
               const TransformOptions& options) const;

  // Real transforms (kind_of(plan()) r2c or c2r), the layouts of GpuTransform's real overloads: R2C (forward) from
  // NX*NY*NZ reals (out of place) or rows padded to 2*(NX/2+1) reals (in place: `in` and `out` one address) to the
  // half spectrum, (NX/2+1)*NY*NZ complex values in natural order; C2R (options.direction inverse) back, never
  // writing its input out of place and ignoring the imaginary parts of the DC and Nyquist terms along X. Throws
  // UsageError: the plan's kind is not the overload's, a contradicting direction, digit-reversed order.
  void execute(const double* in, std::complex<double>* out, const TransformOptions& options = {}) const;
  void execute(const float* in, std::complex<float>* out, const TransformOptions& options = {}) const;
  void execute(const std::complex<double>* in, double* out,
               const TransformOptions& options = {.direction = Direction::inverse}) const;
  void execute(const std::complex<float>* in, float* out,
               const TransformOptions& options = {.direction = Direction::inverse}) const;
  // The same on spans, whose sizes are checked (UsageError naming the expected and given counts): out of place the
  // real span holds NX*NY*NZ values, in place (one span viewed both ways) the padded rows.
  void execute(std::span<const double> in, std::span<std::complex<double>> out, const TransformOptions& options = {}) const;
  void execute(std::span<const float> in, std::span<std::complex<float>> out, const TransformOptions& options = {}) const;
  void execute(std::span<const std::complex<double>> in, std::span<double> out,
               const TransformOptions& options = {.direction = Direction::inverse}) const;
  void execute(std::span<const std::complex<float>> in, std::span<float> out,
               const TransformOptions& options = {.direction = Direction::inverse}) const;

  // Host bytes beyond the data: none (the transform works in the output buffer), except an out-of-place C2R,
  // which keeps the Nyquist column of its half spectrum, NY*NZ complex values, beside the output during the call.
  std::int64_t workspace_bytes() const { return 0; }
  const Plan& plan() const { return plan_; }

 private:
  // Complex values from one volume of a C2C batch to the next, and the values the batch spans, in the input or in
  // the output (output_batch_stride_ where set).
  std::int64_t volume_stride(bool output) const;
  std::int64_t batch_values(bool output) const;
  // body(volume, threads) for every volume of the batch: one after another on the threads a volume of
  // `volume_values` takes, or, where a volume is too small to share out, the volumes spread over the threads.
  void for_each_volume(std::int64_t volume_values, const std::function<void(std::int64_t, int)>& body) const;
  template <class Real>
  void transform_volume(std::complex<Real>* data, const TransformOptions& options, int threads) const;
  template <class Real>
  void execute_pointers(const std::complex<Real>* in, std::complex<Real>* out, const TransformOptions& options) const;
  template <class Real>
  void execute_in_place(std::span<std::complex<Real>> data, const TransformOptions& options) const;
  template <class Real>
  void execute_out_of_place(std::span<const std::complex<Real>> in, std::span<std::complex<Real>> out,
                            const TransformOptions& options) const;
  template <class Real>
  void execute_r2c(std::span<const Real> in, std::span<std::complex<Real>> out, const TransformOptions& options) const;
  template <class Real>
  void execute_c2r(std::span<const std::complex<Real>> in, std::span<Real> out, const TransformOptions& options) const;

  Plan plan_;
  int threads_;
  std::int64_t batch_stride_ = 0;         // 0: packed
  std::int64_t output_batch_stride_ = 0;  // 0: as batch_stride_
  std::shared_ptr<const cpu::PlanTables> tables_;
};

}  // namespace fft3d
