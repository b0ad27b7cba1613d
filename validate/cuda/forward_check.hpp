// A forward transform checked on the GPU against the fp64 oracle, for the commands that check before they time
// (`fft3d bench`, `fft3d plan --measure`). CUDA types stay out of this header.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {

// A random input rounded to fp32 (so the oracle transforms exactly what the GPU reads; kept in fp64 for an fp64
// check) in a device buffer of the precision's complex values, its forward fp64 cuFFT Z2Z transform as the
// reference, and an output buffer of the same size.
class ForwardCheck {
 public:
  // `batch` packed volumes (each checked against its own reference), in `precision`.
  ForwardCheck(const Extents& size, std::uint64_t seed, Precision precision = Precision::fp32,
               std::int64_t batch = 1);
  ForwardCheck(const Extents& size, std::uint64_t seed, std::int64_t batch)
      : ForwardCheck(size, seed, Precision::fp32, batch) {}
  // fp32 checks: the buffers as complex float.
  std::complex<float>* input() const { return in_.complex32(); }
  std::complex<float>* output() const { return out_.complex32(); }
  // fp64 checks: the buffers as complex double.
  std::complex<double>* input64() const { return static_cast<std::complex<double>*>(in_.get()); }
  std::complex<double>* output64() const { return static_cast<std::complex<double>*>(out_.get()); }
  Precision precision() const { return precision_; }
  // Copies the input into the output buffer (asynchronously on `stream`): what a run in place transforms there.
  void copy_input_to_output(void* stream = nullptr) { out_.copy_from(in_, stream); }
  // Poisons the output with NaN, runs `transform` (which writes output()), and compares the output with the
  // reference; a digit-reversed output is first permuted by `digit_reversed_plan`.
  ErrorReport check(const std::function<void()>& transform, const Plan* digit_reversed_plan = nullptr);
  // The same for a transform that writes `output`, a buffer of the caller's (the benchmark's other buffer pairs).
  ErrorReport check(DeviceBuffer& output, const std::function<void()>& transform,
                    const Plan* digit_reversed_plan = nullptr);
  // The input, copied into a new allocation of its own.
  DeviceBuffer input_copy() const;

 private:
  Precision precision_;
  std::int64_t volume_ = 0;  // values of one volume
  std::vector<std::complex<double>> reference_, result_;
  std::vector<std::complex<float>> got_;  // fp32 downloads (fp64 ones land in result_)
  DeviceBuffer in_, out_;
};

}  // namespace fft3d::validate
