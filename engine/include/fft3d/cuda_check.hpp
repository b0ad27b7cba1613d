// Turning CUDA runtime return codes into the typed errors of cuda_errors.hpp. For code built against the CUDA
// runtime (it includes cuda_runtime_api.h); the engine's public API (cuda_engine.hpp) does not need it.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <string>

namespace fft3d::cuda {

// Throws GpuUnavailable (no device, no or old driver), OutOfMemory (allocation) or CudaError.
void check(cudaError_t code, const std::string& call);
// The same for cuFFT's results (the oracle and the competitor): OutOfMemory when cuFFT cannot allocate its work
// area, CudaError otherwise. Uses only cufft.h's constants: no link dependency on cuFFT.
void check_cufft(cufftResult code, const std::string& call);

}  // namespace fft3d::cuda
