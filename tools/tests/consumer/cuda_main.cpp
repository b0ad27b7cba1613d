// With the installed CUDA engine: lowers a shipped plan and generates its kernels (no GPU needed), then builds a
// CudaEngine, which either runs (GPU present) or says clearly that no GPU is available.
#include <fft3d/cuda_engine.hpp>
#include <fft3d/cuda_errors.hpp>
#include <fft3d/cuda_source.hpp>
#include <fft3d/kernel_spec.hpp>
#include <fft3d/plan_text.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const fft3d::Plan plan = fft3d::load_plan_file(argv[1]).plan;
  const fft3d::LoweredPlan lowered = fft3d::lower_plan(plan, *fft3d::find_arch_profile(plan.arch));
  const std::string source = fft3d::emit_cuda_source(lowered.kernels.front());
  if (source.find("__global__") == std::string::npos) return 1;
  try {
    fft3d::CudaEngine engine(plan);
    std::cout << "consumer_cuda: engine ready, " << engine.kernels().size() << " kernels\n";
  } catch (const fft3d::GpuUnavailable& e) {
    std::cout << "consumer_cuda: " << lowered.kernels.size() << " kernels lowered and generated; " << e.what()
              << "\n";
  }
  return 0;
}
