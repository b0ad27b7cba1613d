// Checked CUDA runtime and cuFFT calls for the validation and benchmark harnesses, as the library's typed errors.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <string>

#include "fft3d/errors.hpp"

namespace fft3d::validate {

// Throws GpuUnavailable, OutOfMemory or CudaError (fft3d::throw_cuda_error).
inline void check_cuda(cudaError_t code, const std::string& call) {
  if (code != cudaSuccess) throw_cuda_error(static_cast<int>(code), call);
}

// OutOfMemory when cuFFT cannot allocate its work area, CudaError otherwise.
inline void check_cufft(cufftResult code, const std::string& call) {
  if (code == CUFFT_ALLOC_FAILED) throw OutOfMemory(call + ": cuFFT could not allocate its work area");
  if (code != CUFFT_SUCCESS) throw CudaError(call, static_cast<int>(code), "cuFFT error");
}

}  // namespace fft3d::validate
