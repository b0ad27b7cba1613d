// What the version 31 probes (alloc_spread.cpp, offset_walk.cpp) share: the exit on a CUDA error, the timing of
// one body (median of 10 batched samples, as `fft3d bench`), and the size and pair count from the command line.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <functional>

#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"

namespace probe {

inline const char* name = "probe";  // set by main, for the messages

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s: %s\n", name, what, cudaGetErrorString(status));
  std::exit(1);
}

inline double median_ms(const std::function<void(void*)>& body) {
  return fft3d::bench::time_on_gpu(body, 3, 10, nullptr, {}, fft3d::bench::batched_sample_ms).median_ms;
}

// argv[1] NXxNYxNZ (default 512^3) and argv[2] the pair count (default `pairs`); exits 2 with `usage` on a bad size.
struct Arguments {
  fft3d::Extents size{512, 512, 512};
  int pairs = 0;
};
inline Arguments arguments(int argc, char** argv, int pairs, const char* usage) {
  Arguments parsed;
  if (argc > 1 && std::sscanf(argv[1], "%ldx%ldx%ld", &parsed.size.nx, &parsed.size.ny, &parsed.size.nz) != 3) {
    std::fprintf(stderr, "usage: %s %s\n", name, usage);
    std::exit(2);
  }
  parsed.pairs = argc > 2 ? std::atoi(argv[2]) : pairs;
  return parsed;
}

}  // namespace probe
