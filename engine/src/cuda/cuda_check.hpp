// Turning CUDA runtime return codes into the typed errors of fft3d/errors.hpp, inside the engine.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "fft3d/errors.hpp"

namespace fft3d::cuda {

// Throws GpuUnavailable (no device, no or old driver), OutOfMemory (allocation) or CudaError.
inline void check(cudaError_t code, const std::string& call) {
  if (code != cudaSuccess) throw_cuda_error(static_cast<int>(code), call);
}

// The compute capability of `device` as one number (9.0 -> 90). Two attributes rather than
// cudaGetDeviceProperties, which reads every property (slow for a warm start).
inline int compute_capability(int device) {
  int major = 0, minor = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute");
  return major * 10 + minor;
}

}  // namespace fft3d::cuda
