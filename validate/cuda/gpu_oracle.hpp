// The GPU side of validation: device buffers and the fp64 cuFFT oracle (Z2Z, and D2Z/Z2D for real transforms).
// CUDA types stay out of this header.
#pragma once

#include <complex>
#include <cstddef>
#include <span>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::validate {

// How many CUDA devices the runtime sees: 0 without a GPU or a driver. Never throws.
int gpu_count();

// Device memory owned by a value. Throws OutOfMemory or CudaError (fft3d/errors.hpp).
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return data_; }
  std::complex<float>* complex32() const { return static_cast<std::complex<float>*>(data_); }  // fp32 complex data
  std::size_t bytes() const { return bytes_; }
  void upload(const void* host);
  void download(void* host) const;
  // `bytes` from byte `offset` of the buffer (a chunk of a volume too large to stage whole on the host).
  void upload(const void* host, std::size_t offset, std::size_t bytes);
  void download(void* host, std::size_t offset, std::size_t bytes) const;
  // Asynchronous on `stream` (a cudaStream_t; nullptr: the default stream, ordered with the other calls).
  void copy_from(const DeviceBuffer& other, void* stream = nullptr);
  void poison_nan();  // every byte 0xFF: every float and double a NaN

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// The 3D DFT of `in` computed by cuFFT Z2Z in fp64 on the GPU: natural order, options.scaling applied. The same
// contract as fftw_reference (oracle.hpp), for volumes where the CPU oracle is too slow. Buffers of several packed
// volumes are a batch, transformed volume by volume (cufftPlanMany).
void cufft_reference(const Extents& size, std::span<const std::complex<double>> in,
                     std::span<std::complex<double>> out, Direction direction, Scaling scaling = Scaling::none);

// The real transforms of `size` (NX even) by cuFFT in fp64, unscaled, FFTW's layouts out of place: `reals` holds
// NX*NY*NZ values (X contiguous, unpadded), `spectrum` the half spectrum of (NX/2+1)*NY*NZ values in natural order.
// cufft_c2r_reference reads a copy of `spectrum` (cuFFT's multi-dimensional Z2D may overwrite its input) and is
// defined for a Hermitian-consistent spectrum only (cuFFT's result for any other is unspecified). Buffers of several
// packed volumes on both sides are a batch, transformed volume by volume (cufftPlanMany). Throws UsageError for
// buffers that are not a whole number of volumes on both sides, or an odd NX.
void cufft_r2c_reference(const Extents& size, std::span<const double> reals,
                         std::span<std::complex<double>> spectrum);
void cufft_c2r_reference(const Extents& size, std::span<const std::complex<double>> spectrum,
                         std::span<double> reals);

}  // namespace fft3d::validate
