// The CPU backend: performs exactly a plan's sub-computations, kernel by kernel, over the whole volume. It runs
// anywhere and is the oracle for plan semantics.
#pragma once

#include <complex>
#include <memory>
#include <span>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

namespace cpu {
struct PlanTables;  // twiddle and permutation tables, computed once per backend
}

class CpuBackend {
 public:
  // Throws PlanError if the plan is not legal. `threads` = 0: all hardware threads. Buffers whose size is not
  // plan.size.elements() throw UsageError.
  explicit CpuBackend(Plan plan, int threads = 0);

  // In place: `data` holds plan.size.elements() values in natural order and receives the result in options.order.
  void execute(std::span<std::complex<double>> data, const TransformOptions& options) const;
  void execute(std::span<std::complex<float>> data, const TransformOptions& options) const;
  // Out of place: `in` is left untouched.
  void execute(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
               const TransformOptions& options) const;
  void execute(std::span<const std::complex<float>> in, std::span<std::complex<float>> out,
               const TransformOptions& options) const;

  const Plan& plan() const { return plan_; }

 private:
  template <class Real>
  void execute_in_place(std::span<std::complex<Real>> data, const TransformOptions& options) const;
  template <class Real>
  void execute_out_of_place(std::span<const std::complex<Real>> in, std::span<std::complex<Real>> out,
                            const TransformOptions& options) const;

  Plan plan_;
  int threads_;
  std::shared_ptr<const cpu::PlanTables> tables_;
};

}  // namespace fft3d
