// cuFFT's own multi-GPU transform (cufftXt), the competitor of fft3d's slab decomposition on the same GPUs: C2C
// fp32, planned once with cufftMakePlan3d, its data in cuFFT's own descriptor (cufftXtMalloc,
// CUFFT_XT_FORMAT_INPLACE: the volume split in natural order, GPU i holding a run of whole Z planes). CUDA's and
// cuFFT's types stay out of this header.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

// cuFFT's name of a cufftResult ("CUFFT_INTERNAL_ERROR"), or its number.
std::string cufft_result_name(int result);

class CufftXtC2C {
 public:
  // Throws CudaError naming the cuFFT call and its result by name (e.g. cufftMakePlan3d: CUFFT_INTERNAL_ERROR).
  CufftXtC2C(const Extents& size, const std::vector<int>& devices);
  ~CufftXtC2C();
  CufftXtC2C(const CufftXtC2C&) = delete;
  CufftXtC2C& operator=(const CufftXtC2C&) = delete;

  // In place on the descriptor, asynchronous. forward leaves cuFFT's shuffled format, which only its inverse reads;
  // the inverse (unscaled) gives the natural format back.
  void execute(Direction direction);
  // Declares the descriptor's data to be in the natural format again, after the caller wrote natural-format data
  // into every share (restoring an input between timed forward transforms).
  void mark_natural();
  // cufftMakePlan3d's work area, per GPU.
  const std::vector<std::size_t>& work_area_bytes() const { return work_area_; }

  // GPU i's share of the volume in the natural format: `count` values from natural index `first`.
  struct Share {
    std::complex<float>* data = nullptr;
    std::int64_t first = 0;
    std::int64_t count = 0;
  };
  std::vector<Share> shares() const;

 private:
  int handle_ = 0;
  void* descriptor_ = nullptr;  // cudaLibXtDesc*
  std::vector<std::size_t> work_area_;
};

}  // namespace fft3d::bench
