#include "cuda/cuda_check.hpp"

#include "fft3d/errors.hpp"

namespace fft3d {

CudaError::CudaError(const std::string& call, int code, const std::string& what)
    : Error(call + " failed: " + what + " (code " + std::to_string(code) + ")"), call_(call), code_(code) {}

void throw_cuda_error(int code, const std::string& call) {
  const auto error = static_cast<cudaError_t>(code);
  const std::string what = std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
  switch (error) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorDevicesUnavailable:
    case cudaErrorCallRequiresNewerDriver:
      throw GpuUnavailable("no usable GPU: " + call + " reported " + what);
    case cudaErrorMemoryAllocation:
      throw OutOfMemory(call + ": out of device memory (" + what + ")");
    default:
      throw CudaError(call, code, what);
  }
}

}  // namespace fft3d
