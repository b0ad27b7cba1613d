// cuFFT's own multi-GPU transform (cufftXt), the competitor of fft3d's slab decomposition on the same GPUs: C2C, or
// R2C with a C2R plan for the way back, in fp32 or fp64, planned with cufftMakePlan3d, its data in cuFFT's own
// descriptor (cufftXtMalloc, CUFFT_XT_FORMAT_INPLACE: the volume split in natural order, GPU i holding a run of
// whole Z planes; a real volume's rows padded to 2 (NX/2 + 1) reals, as cuFFT's in-place R2C needs). CUDA's and
// cuFFT's types stay out of this header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

// cuFFT's name of a cufftResult ("CUFFT_INTERNAL_ERROR"), or its number.
std::string cufft_result_name(int result);
// cuFFT's name of the plan type that runs `kind` (c2c, r2c, c2r) in `precision`: C2C, R2C, C2R or Z2Z, D2Z, Z2D.
std::string cufft_type_name(TransformKind kind, Precision precision);

class CufftXt {
 public:
  // `kind` c2c, or r2c (both real directions: the C2R plan is made too). Throws CudaError naming the cuFFT call and
  // its result by name (e.g. cufftMakePlan3d: CUFFT_INTERNAL_ERROR).
  CufftXt(const Extents& size, const std::vector<int>& devices, TransformKind kind = TransformKind::c2c,
          Precision precision = Precision::fp32);
  ~CufftXt();
  CufftXt(const CufftXt&) = delete;
  CufftXt& operator=(const CufftXt&) = delete;

  // In place on the descriptor, asynchronous; a real transform's forward is R2C, its inverse C2R. forward leaves
  // cuFFT's shuffled format, which only its inverse reads; the inverse (unscaled) gives the natural format back.
  void execute(Direction direction);
  // Declares the descriptor's data to be in the natural format again, after the caller wrote natural-format data
  // into every share (restoring an input between timed forward transforms).
  void mark_natural();
  // Declares it to be in the shuffled format, after the caller restored a forward transform's output.
  void mark_shuffled();
  // cufftMakePlan3d's work area per GPU, of the plan that runs `direction`.
  const std::vector<std::size_t>& work_area_bytes(Direction direction) const;

  // GPU i's share of the descriptor: `count` complex values of the precision from value `first` of the natural
  // format (a real volume's: its padded rows read as pairs of reals).
  struct Share {
    void* data = nullptr;
    std::int64_t first = 0;
    std::int64_t count = 0;
  };
  std::vector<Share> shares() const;
  TransformKind kind() const { return kind_; }
  Precision precision() const { return precision_; }

 private:
  int forward_ = 0;   // cufftHandle: C2C/Z2Z, or R2C/D2Z
  int inverse_ = 0;   // C2R/Z2D for a real transform; the forward handle for C2C
  void* descriptor_ = nullptr;  // cudaLibXtDesc*
  TransformKind kind_ = TransformKind::c2c;
  Precision precision_ = Precision::fp32;
  std::vector<std::size_t> forward_work_, inverse_work_;
};

}  // namespace fft3d::bench
