// Turning CUDA runtime return codes into the typed errors of cuda_errors.hpp. For code built against the CUDA
// runtime (it includes cuda_runtime_api.h); the engine's public API (cuda_engine.hpp) does not need it.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace fft3d::cuda {

// Throws GpuUnavailable (no device, no or old driver), OutOfMemory (allocation) or CudaError.
void check(cudaError_t code, const std::string& call);

}  // namespace fft3d::cuda
