// A real transform (R2C or C2R) checked on the GPU against the fp64 cuFFT oracle (D2Z, Z2D): for the GPU tests of
// real plans and `fft3d bench --transform r2c`. CUDA types stay out of this header.
//
// Layouts are FFTW's and cuFFT's: out of place the real array is unpadded (NX reals a row); in place each real row
// is padded to 2*(NX/2+1) reals and the half spectrum, (NX/2+1)*NY*NZ complex values in natural order, overwrites it.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {

// The input spectrum of a C2R check.
enum class SpectrumInput {
  // The R2C of random reals, rounded to fp32 and exactly Hermitian (each term of the planes kx = 0 and kx = NX/2 the
  // conjugate of its mirror, the self-conjugate terms real).
  hermitian,
  // That plus a random anti-Hermitian part, as large as the spectrum's rms, on the planes kx = 0 and kx = NX/2: the
  // imaginary parts of the self-conjugate terms (the DC and Nyquist terms of every axis) are arbitrary, and every
  // other term of these planes differs from the conjugate of its mirror. FFTW's and numpy's convention (inverse
  // along Z and Y, then the imaginary parts of the X DC and Nyquist columns dropped) takes this input to the same
  // reals as its Hermitian part, so that is what the reference transforms (cuFFT's result for a non-Hermitian input
  // is unspecified, so cuFFT never sees this one).
  non_hermitian_x_planes,
};

// One input/output pair of device buffers in a check's layouts. Out of place a run reads `in` and writes `out`; in
// place it runs in `out` alone (both are one size), which check() first fills with a copy of `in`.
struct RealBuffers {
  DeviceBuffer in;
  DeviceBuffer out;
};

// The device pointers one run takes, typed for both kinds and the check's real type (float for fp32, double for
// fp64): an R2C run takes reals_in() and spectrum_out(), a C2R run spectrum_in() and reals_out(). In place `in` and
// `out` are one address.
struct RealRun {
  void* in = nullptr;
  void* out = nullptr;
  template <class Real = float>
  const Real* reals_in() const { return static_cast<const Real*>(in); }
  template <class Real = float>
  std::complex<Real>* spectrum_out() const { return static_cast<std::complex<Real>*>(out); }
  template <class Real = float>
  const std::complex<Real>* spectrum_in() const { return static_cast<const std::complex<Real>*>(in); }
  template <class Real = float>
  Real* reals_out() const { return static_cast<Real*>(out); }
};

// Random input rounded to the precision's reals (so the oracle transforms exactly what the GPU reads) in device
// buffers of the placement's layout and precision (fp32: float reals and complex<float>; fp64: double and
// complex<double>), and its fp64 cuFFT transform as the reference. R2C: NX*NY*NZ random reals in [-1, 1) (the
// padding of in-place rows holds NaN, so a transform that reads it into a result fails). C2R: a half spectrum as
// `spectrum` says. A batch is `batch` volumes packed one after another on both sides (each volume's real array in
// the placement's layout, each half spectrum (NX/2+1)*NY*NZ values), each volume's input drawn afresh and checked
// against its own reference; the reports are the worst volume's. Throws UsageError for c2c, an odd NX or a batch
// under 1; OutOfMemory, CudaError.
class RealCheck {
 public:
  RealCheck(const Extents& size, TransformKind kind, Placement placement, std::uint64_t seed,
            SpectrumInput spectrum = SpectrumInput::hermitian, Precision precision = Precision::fp32,
            std::int64_t batch = 1);

  const Extents& size() const { return size_; }  // one volume's
  std::int64_t batch() const { return batch_; }
  TransformKind kind() const { return kind_; }
  Placement placement() const { return placement_; }
  Precision precision() const { return precision_; }
  std::size_t input_bytes() const { return buffers_.in.bytes(); }
  std::size_t output_bytes() const { return buffers_.out.bytes(); }

  // The check's own buffers (the first pair a benchmark times).
  RealBuffers& buffers() { return buffers_; }
  // The pointers a run on the check's own buffers, or on `buffers`, takes.
  RealRun run() const { return run(buffers_); }
  RealRun run(const RealBuffers& buffers) const;

  // Prepares the output (poisoned with NaN out of place; a copy of the input in place), runs `transform` (which
  // writes run().out on the default stream, or synchronizes), and compares the output with the reference, scaled by
  // 1/(NX*NY*NZ) for Scaling::full: the half spectrum for R2C, the NX*NY*NZ reals for C2R (padding ignored), volume
  // by volume; the worst volume's report.
  ErrorReport check(const std::function<void()>& transform, Scaling scaling = Scaling::none);
  ErrorReport check(RealBuffers& buffers, const std::function<void()>& transform, Scaling scaling = Scaling::none);

  // R2C in fp32 only (UsageError otherwise). The round trip: `transforms(reals_back)` runs the R2C of run() and
  // then the C2R (full scaling) of its spectrum into `reals_back`, in the check's layout: out of place a buffer of
  // its own (poisoned first), in place run().out itself. The reals are compared with the input.
  ErrorReport check_round_trip(const std::function<void(float* reals_back)>& transforms);

  // Whether the input buffer holds the input byte for byte (a C2R out of place must leave it so; cuFFT's need not).
  bool input_unchanged() const { return input_unchanged(buffers_); }
  bool input_unchanged(const RealBuffers& buffers) const;
  // Uploads the input again (after a run that may write its input, such as cuFFT's multi-dimensional C2R).
  void restore_input() { restore_input(buffers_); }
  void restore_input(RealBuffers& buffers) const;
  // A new pair of buffers (another place in physical memory), the input uploaded.
  RealBuffers make_buffers() const;

 private:
  template <class Real>
  void make_r2c_input(std::uint64_t seed);
  template <class Real>
  void make_c2r_input(std::uint64_t seed, SpectrumInput spectrum);
  template <class Real>
  ErrorReport compare_output(Scaling scaling) const;
  // The reals of every volume of `got` (the real array's layout) against reals_ times `scale`; the worst volume's.
  template <class Real>
  ErrorReport compare_real_volumes(const Real* got, double scale) const;

  Extents size_;
  std::int64_t batch_;
  TransformKind kind_;
  Placement placement_;
  Precision precision_;
  std::vector<std::byte> input_;                      // the device input's bytes
  std::vector<double> reals_;                         // R2C: the input; C2R: the reference, unpadded, all volumes
  std::vector<std::complex<double>> spectrum_;        // R2C: the reference half spectrum
  std::vector<std::byte> got_;                        // the output's bytes, downloaded
  RealBuffers buffers_;
};

// The layout of a real transform's real array: reals a row, padded in place to 2*(NX/2+1).
std::int64_t real_row_pitch(const Extents& size, Placement placement);
// Bytes of the real array (reals of `precision`) and of the half spectrum (complex values of `precision`).
std::size_t real_array_bytes(const Extents& size, Placement placement, Precision precision = Precision::fp32);
std::size_t half_spectrum_bytes(const Extents& size, Precision precision = Precision::fp32);

}  // namespace fft3d::validate
