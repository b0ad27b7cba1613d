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
  if (in.size() != out.size() || in.empty() || in.size() % elements != 0)
    throw UsageError("cufft_reference: buffers must hold a whole number of volumes of " + std::to_string(elements) +
                     " values");
  const std::size_t volumes = in.size() / elements;
  DeviceBuffer data(in.size() * sizeof(cufftDoubleComplex));
  data.upload(in.data());
  cufftHandle plan;
  // cuFFT takes the slowest dimension first: Z, Y, X.
  int lengths[3] = {static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx)};
  if (volumes == 1)
    check_cufft(cufftPlan3d(&plan, lengths[0], lengths[1], lengths[2], CUFFT_Z2Z), "cufftPlan3d (Z2Z)");
  else
    check_cufft(cufftPlanMany(&plan, 3, lengths, nullptr, 1, 0, nullptr, 1, 0, CUFFT_Z2Z, static_cast<int>(volumes)),
                "cufftPlanMany (Z2Z)");
  const cufftResult run = cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(data.get()),
                                       static_cast<cufftDoubleComplex*>(data.get()),
                                       direction == Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE);
  cufftDestroy(plan);
  check_cufft(run, "cufftExecZ2Z");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuFFT Z2Z)");
  data.download(out.data());
  if (scaling != Scaling::none) {
    const double factor = scale_factor(scaling, elements);
    for (std::complex<double>& v : out) v *= factor;
  }
}

namespace {

// A cuFFT plan destroyed on every path.
class CufftPlan {
 public:
  // `volumes` packed 3D transforms of `type` on `size` (the 64-bit planner: any volume the device holds), FFTW's
  // layouts out of place.
  CufftPlan(const Extents& size, cufftType type, const std::string& what, std::int64_t volumes = 1) {
    check_cufft(cufftCreate(&handle_), "cufftCreate (" + what + ")");
    // cuFFT takes the slowest dimension first: Z, Y, X.
    long long lengths[3] = {size.nz, size.ny, size.nx};
    std::size_t workspace = 0;
    const cufftResult made =
        cufftMakePlanMany64(handle_, 3, lengths, nullptr, 1, 0, nullptr, 1, 0, type, volumes, &workspace);
    if (made != CUFFT_SUCCESS) cufftDestroy(handle_);
    check_cufft(made, "cufftMakePlanMany64 (" + what + ")");
  }
  ~CufftPlan() { cufftDestroy(handle_); }
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  cufftHandle get() const { return handle_; }

 private:
  cufftHandle handle_ = 0;
};

// The element counts of a real transform's two sides, over a whole number of packed volumes, after checking the
// buffers hold them.
struct RealSides {
  std::size_t reals = 0;     // NX*NY*NZ a volume, times volumes
  std::size_t spectrum = 0;  // (NX/2+1)*NY*NZ a volume, times volumes
  std::int64_t volumes = 0;
};
RealSides real_and_half_spectrum(const Extents& size, std::size_t reals, std::size_t spectrum,
                                 const std::string& what) {
  const std::size_t n = static_cast<std::size_t>(size.elements());
  const std::size_t half = static_cast<std::size_t>((size.nx / 2 + 1) * size.ny * size.nz);
  if (reals == 0 || reals % n != 0 || spectrum != reals / n * half)
    throw UsageError(what + ": buffers must hold " + std::to_string(n) + " reals and " + std::to_string(half) +
                     " complex values a volume, for one or more volumes");
  return {reals, spectrum, static_cast<std::int64_t>(reals / n)};
}

}  // namespace

void cufft_r2c_reference(const Extents& size, std::span<const double> reals,
                         std::span<std::complex<double>> spectrum) {
  const RealSides sides = real_and_half_spectrum(size, reals.size(), spectrum.size(), "cufft_r2c_reference");
  DeviceBuffer in(sides.reals * sizeof(double)), out(sides.spectrum * sizeof(cufftDoubleComplex));
  in.upload(reals.data());
  const CufftPlan plan(size, CUFFT_D2Z, "D2Z", sides.volumes);
  check_cufft(cufftExecD2Z(plan.get(), static_cast<cufftDoubleReal*>(in.get()),
                           static_cast<cufftDoubleComplex*>(out.get())),
              "cufftExecD2Z");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuFFT D2Z)");
  out.download(spectrum.data());
}

void cufft_c2r_reference(const Extents& size, std::span<const std::complex<double>> spectrum,
                         std::span<double> reals) {
  const RealSides sides = real_and_half_spectrum(size, reals.size(), spectrum.size(), "cufft_c2r_reference");
  DeviceBuffer in(sides.spectrum * sizeof(cufftDoubleComplex)), out(sides.reals * sizeof(double));
  in.upload(spectrum.data());  // the device copy that Z2D may overwrite
  const CufftPlan plan(size, CUFFT_Z2D, "Z2D", sides.volumes);
  check_cufft(cufftExecZ2D(plan.get(), static_cast<cufftDoubleComplex*>(in.get()),
                           static_cast<cufftDoubleReal*>(out.get())),
              "cufftExecZ2D");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuFFT Z2D)");
  out.download(reals.data());
}

}  // namespace fft3d::validate

