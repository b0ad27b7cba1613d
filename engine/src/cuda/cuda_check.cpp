#include "fft3d/cuda_check.hpp"

#include "fft3d/cuda_errors.hpp"

namespace fft3d {

CudaError::CudaError(const std::string& call, int code, const std::string& what)
    : std::runtime_error(call + " failed: " + what + " (code " + std::to_string(code) + ")"), call_(call),
      code_(code) {}

namespace cuda {

void check(cudaError_t code, const std::string& call) {
  if (code == cudaSuccess) return;
  const std::string what = std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code);
  switch (code) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorDevicesUnavailable:
    case cudaErrorCallRequiresNewerDriver:
      throw GpuUnavailable("no usable GPU: " + call + " reported " + what);
    case cudaErrorMemoryAllocation:
      throw OutOfMemory(call + ": out of device memory (" + what + ")");
    default:
      throw CudaError(call, static_cast<int>(code), what);
  }
}

void check_cufft(cufftResult code, const std::string& call) {
  if (code == CUFFT_ALLOC_FAILED) throw OutOfMemory(call + ": cuFFT could not allocate its work area");
  if (code != CUFFT_SUCCESS) throw CudaError(call, static_cast<int>(code), "cuFFT error");
}

}  // namespace cuda
}  // namespace fft3d
