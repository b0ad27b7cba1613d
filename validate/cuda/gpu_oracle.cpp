#include "validate/cuda/gpu_oracle.hpp"

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <string>
#include <utility>

#include "validate/cuda/cuda_calls.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/diagnostics.hpp"

namespace fft3d::validate {
int gpu_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  const cudaError_t status = cudaMalloc(&data_, bytes);
  // A failed allocation leaves the runtime's last error set; clear it, so that a caller who goes on with less
  // memory is not failed by the next cudaGetLastError().
  if (status != cudaSuccess) cudaGetLastError();
  check_cuda(status, "cudaMalloc(" + std::to_string(bytes) + " bytes)");
}
DeviceBuffer::~DeviceBuffer() {
  if (data_) cudaFree(data_);
}
DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(bytes_, other.bytes_);
  return *this;
}
void DeviceBuffer::upload(const void* host) {
  check_cuda(cudaMemcpy(data_, host, bytes_, cudaMemcpyHostToDevice), "cudaMemcpy (upload)");
}
void DeviceBuffer::download(void* host) const {
  check_cuda(cudaMemcpy(host, data_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy (download)");
}
void DeviceBuffer::upload(const void* host, std::size_t offset, std::size_t bytes) {
  if (offset > bytes_ || bytes > bytes_ - offset) throw UsageError("DeviceBuffer::upload: range past the buffer");
  check_cuda(cudaMemcpy(static_cast<char*>(data_) + offset, host, bytes, cudaMemcpyHostToDevice),
              "cudaMemcpy (upload)");
}
void DeviceBuffer::download(void* host, std::size_t offset, std::size_t bytes) const {
  if (offset > bytes_ || bytes > bytes_ - offset) throw UsageError("DeviceBuffer::download: range past the buffer");
  check_cuda(cudaMemcpy(host, static_cast<const char*>(data_) + offset, bytes, cudaMemcpyDeviceToHost),
              "cudaMemcpy (download)");
}
void DeviceBuffer::copy_from(const DeviceBuffer& other, void* stream) {
  if (other.bytes_ != bytes_) throw UsageError("DeviceBuffer::copy_from: the buffers differ in size");
  check_cuda(cudaMemcpyAsync(data_, other.data_, bytes_, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)),
              "cudaMemcpyAsync (device to device)");
}
void DeviceBuffer::poison_nan() { check_cuda(cudaMemset(data_, 0xFF, bytes_), "cudaMemset (NaN poison)"); }

void cufft_reference(const Extents& size, std::span<const std::complex<double>> in,
                     std::span<std::complex<double>> out, Direction direction, Scaling scaling) {
  const std::size_t elements = static_cast<std::size_t>(size.elements());
  if (in.size() != elements || out.size() != elements)
    throw UsageError("cufft_reference: buffers must hold " + std::to_string(elements) + " values");
  DeviceBuffer data(elements * sizeof(cufftDoubleComplex));
  data.upload(in.data());
  cufftHandle plan;
  // cuFFT takes the slowest dimension first: Z, Y, X.
  check_cufft(cufftPlan3d(&plan, static_cast<int>(size.nz), static_cast<int>(size.ny),
                                static_cast<int>(size.nx), CUFFT_Z2Z),
                    "cufftPlan3d (Z2Z)");
  const cufftResult run = cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(data.get()),
                                       static_cast<cufftDoubleComplex*>(data.get()),
                                       direction == Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE);
  cufftDestroy(plan);
  check_cufft(run, "cufftExecZ2Z");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuFFT Z2Z)");
  data.download(out.data());
  if (scaling == Scaling::full) {
    const double factor = 1.0 / static_cast<double>(elements);
    for (std::complex<double>& v : out) v *= factor;
  }
}

}  // namespace fft3d::validate
