// The CPU backend: performs exactly a plan's sub-computations, kernel by kernel, over the whole volume. It runs
// anywhere and is the oracle for plan semantics.
#pragma once

#include <complex>
#include <memory>
#include <span>
#include <string>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

namespace cpu {
struct PlanTables;  // twiddle and permutation tables, computed once per backend
}

class CpuTransform {
 public:
  // For a descriptor: the plan of profile `arch` for its size, as the GPU transform picks one (wisdom, then the
  // table, then the default planner); the CPU runs any profile's plan exactly. Throws UsageError (a descriptor not
  // offered yet, a size no plan covers). `threads` = 0: all hardware threads.
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
  std::shared_ptr<const cpu::PlanTables> tables_;
};

}  // namespace fft3d
