// cufftXt measured as fft3d's multi-GPU runs are measured: first checked by its round trip (forward, then its
// unscaled inverse, over N) on plane waves (conjugate pairs of real ones for a real transform), every element, then
// timed in place on its own descriptor, each timed run starting from its input (a saved copy written back where one
// fits beside cuFFT's buffers). What `bench --gpus` and `run --gpus` print as cuFFT's own multi-GPU time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

struct CufftXtRequest {
  Extents size;
  std::vector<int> devices;
  TransformKind kind = TransformKind::c2c;  // c2c, or r2c / c2r (R2C timed forward, C2R inverse)
  Precision precision = Precision::fp32;
  Direction direction = Direction::forward;  // the timed direction (c2c); a real kind's is its own
  double bound = 0;                          // relative L2 of the round trip
  int warmup = 3;
  int repeats = 20;
  std::uint64_t seed = 1;
};

struct CufftXtResult {
  bool checked = false;          // the round trip passed; only then is `time` filled
  std::string failure;           // why there is no time
  double round_trip_error = 0;   // relative L2
  Timing time;
  std::int64_t work_area_bytes = 0;  // per GPU, of the timed direction's plan
  // Each timed run's input was copied back from a saved copy; else (no room beside cuFFT's buffers) cuFFT's
  // opposite transform undid the run before it.
  bool input_saved = false;
};

// How each timed run got its input back, in words (`run --gpus` and `bench --gpus` print it).
std::string restore_text(const CufftXtResult& result);

// Throws what CufftXt throws (CudaError naming the cuFFT call: cufftMakePlan3d fails at 2048^3), OutOfMemory.
CufftXtResult measure_cufftxt(const CufftXtRequest& request);

}  // namespace fft3d::bench
