// Version 31, third probe (bench/NOTES.md): which relative placement of input and output makes 512^3's first kernel
// fast? On each of `pairs` buffer pairs (allocated with 32 MB to spare and kept alive), the first kernel and its copy
// twin run with the output shifted against the input by offsets from 4 KB to 30 MB, then the input against the
// output. Offsets under 2 MB move the planes within the large pages; multiples of 2 MB move which page holds which
// plane. Median of 10 batched samples each. Timing only, as alloc_spread.cpp: the shipped kernels, checked elsewhere;
// a finite constant input (0x3f3f3f3f), the output not read.
//   .carry/offset_walk [NXxNYxNZ] [pairs]   (built like alloc_spread: bench/experiments/v31/offset_walk.sh)
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/experiments/v31/probe.hpp"
#include "bench/gpu_timing.hpp"
#include "fft3d/cuda_engine.hpp"

namespace {

constexpr std::size_t slack = 32u << 20;
constexpr std::size_t offsets[] = {0, 4u << 10, 64u << 10, 512u << 10, 1u << 20, 2u << 20, 4u << 20, 6u << 20,
                                   8u << 20, 16u << 20, 30u << 20};

}  // namespace

int main(int argc, char** argv) {
  probe::name = "offset_walk";
  const auto [size, pairs] = probe::arguments(argc, argv, 4, "[NXxNYxNZ] [pairs]");
  fft3d::CudaEngine engine = fft3d::CudaEngine::for_size(size);
  const std::size_t bytes = static_cast<std::size_t>(size.elements()) * 8;
  std::vector<char*> buffers;
  for (int p = 0; p < pairs; ++p) {
    char* in = nullptr;
    char* out = nullptr;
    probe::check(cudaMalloc(reinterpret_cast<void**>(&in), bytes + slack), "cudaMalloc (in)");
    probe::check(cudaMalloc(reinterpret_cast<void**>(&out), bytes + slack), "cudaMalloc (out)");
    probe::check(cudaMemset(in, 0x3f, bytes + slack), "cudaMemset");
    buffers.push_back(in);
    buffers.push_back(out);
    std::printf("pair %d, size %ldx%ldx%ld: first kernel / copy twin ms\n", p, size.nx, size.ny, size.nz);
    for (bool shift_output : {true, false}) {
      std::printf("  %s shifted:", shift_output ? "output" : "input ");
      for (std::size_t offset : offsets) {
        const char* from = in + (shift_output ? 0 : offset);
        char* to = out + (shift_output ? offset : 0);
        const double kernel = probe::median_ms([&](void* s) { engine.run_kernel(0, from, to, {}, s); });
        const double twin = probe::median_ms([&](void* s) { engine.run_copy_twin(0, from, to, s); });
        std::printf(" %zuK %.3f/%.3f", offset >> 10, kernel, twin);
        std::fflush(stdout);
      }
      std::printf("\n");
    }
  }
  for (char* b : buffers) cudaFree(b);
  return 0;
}
