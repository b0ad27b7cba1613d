// The slab decomposition run on the CPU backend: G host buffers stand for the G GPUs' memory, each runs the same
// local plans (CpuTransform), and the exchanges are copies of the very blocks MultiGpuTransform hands NCCL, in the
// same order of steps. What CI checks the whole decomposition with; for tests, not for speed.
//
//   fft3d::CpuSlabTransform fft(fft3d::slab_decomposition({64, 64, 64}, 4, "hopper"));
//   fft.execute(ins, outs, {});   // ins[g], outs[g]: host buffers of local_elements() values each
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

class CpuSlabTransform {
 public:
  // `layout`: the spectrum's, as MultiGpuDesc::layout. `threads` per local transform (0: all hardware threads).
  explicit CpuSlabTransform(SlabDecomposition decomposition, SlabLayout layout = SlabLayout::natural,
                            int threads = 1);

  // MultiGpuTransform::execute's contract on host buffers: ins[g], outs[g] hold local_elements() values in the
  // layouts the direction and the layout say (forward: z slabs in; inverse: z slabs out); ins[g] == outs[g] for
  // every g: in place; out of place, inputs are never written. Natural order only. Throws UsageError (a wrong count
  // of pointers, a null pointer, in place on some buffers only, digit-reversed order).
  void execute(const std::vector<const std::complex<double>*>& ins, const std::vector<std::complex<double>*>& outs,
               const TransformOptions& options = {}) const;
  void execute(const std::vector<const std::complex<float>*>& ins, const std::vector<std::complex<float>*>& outs,
               const TransformOptions& options = {}) const;
  // A real decomposition (kind r2c), MultiGpuTransform's real overloads: R2C from z slabs of reals
  // (local_reals(in place) each) to the half spectrum in the layout; C2R back, using its input as scratch out of
  // place. Throws UsageError as above, and for a decomposition of the other kind.
  void execute(const std::vector<const double*>& ins, const std::vector<std::complex<double>*>& outs,
               const TransformOptions& options = {}) const;
  void execute(const std::vector<const float*>& ins, const std::vector<std::complex<float>*>& outs,
               const TransformOptions& options = {}) const;
  void execute(const std::vector<std::complex<double>*>& ins, const std::vector<double*>& outs,
               const TransformOptions& options = {.direction = Direction::inverse}) const;
  void execute(const std::vector<std::complex<float>*>& ins, const std::vector<float*>& outs,
               const TransformOptions& options = {.direction = Direction::inverse}) const;

  const SlabDecomposition& decomposition() const { return d_; }
  SlabLayout layout() const { return layout_; }

 private:
  // Every buffer addressed as complex values; `scratch`: the inputs, writable (a real inverse out of place).
  template <class Real>
  void run(const std::vector<const std::complex<Real>*>& ins, const std::vector<std::complex<Real>*>& outs,
           const TransformOptions& options, TransformKind kind,
           const std::vector<std::complex<Real>*>& scratch = {}) const;
  template <class Real>
  void run_slab(const std::complex<Real>* from, std::complex<Real>* to, const TransformOptions& options) const;

  SlabDecomposition d_;
  SlabLayout layout_;
  CpuTransform slab_;
  std::optional<CpuTransform> slab_c2r_;  // a real decomposition's
  CpuTransform column_;
};

}  // namespace fft3d
