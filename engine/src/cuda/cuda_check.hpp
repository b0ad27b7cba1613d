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

}  // namespace fft3d::cuda
