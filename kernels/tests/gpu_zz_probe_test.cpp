// TEMPORARY timing probe (not committed): fft3d R2C/C2R vs cuFFT R2C/C2R, out of place and in place.
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>
#include "fft3d/gpu_transform.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/profiling.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::testing {
namespace {
double time_ms(const std::function<void()>& run) {
  try { run(); } catch (const std::exception& e) { std::printf("(%s)\n", e.what()); return -1; }
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) run();
  std::vector<float> t;
  for (int s = 0; s < 15; ++s) {
    cudaEventRecord(a);
    for (int i = 0; i < 10; ++i) run();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms / 10);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
std::string read(const std::string& p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); }

TEST(ZZProbe, RealTimes) {
  if (validate::gpu_count() == 0) GTEST_SKIP();
  const char* list = std::getenv("PROBE_PLANS");
  if (!list) GTEST_SKIP();
  std::stringstream names(list);
  std::string r2c_path, c2r_path;
  while (names >> r2c_path >> c2r_path) {
    GpuTransform r2c(parse_plan(read(r2c_path)).plan, r2c_path);
    GpuTransform c2r(parse_plan(read(c2r_path)).plan, c2r_path);
    const Extents n = r2c.plan().size;
    const long long h = n.nx / 2 + 1, rows = n.ny * n.nz;
    void *a, *b, *ws;
    cudaMalloc(&a, h * rows * 8); cudaMalloc(&b, h * rows * 8); cudaMalloc(&ws, rows * 8 + 1024);
    cudaMemset(a, 0, h * rows * 8); cudaMemset(b, 0, h * rows * 8);
    c2r.set_workspace(ws, rows * 8 + 1024);
    cufftHandle pr, pc;
    cufftPlan3d(&pr, n.nz, n.ny, n.nx, CUFFT_R2C);
    cufftPlan3d(&pc, n.nz, n.ny, n.nx, CUFFT_C2R);
    const double bytes = n.nx * rows * 4.0 + h * rows * 8.0;
    const double copy = time_ms([&] { cudaMemcpyAsync(b, a, bytes / 2, cudaMemcpyDeviceToDevice); });
    const double f_r2c = time_ms([&] { r2c.execute(static_cast<const float*>(a), static_cast<DeviceComplex32*>(b)); });
    const double f_r2c_ip = time_ms([&] { r2c.execute(static_cast<const float*>(b), static_cast<DeviceComplex32*>(b)); });
    const double c_r2c = time_ms([&] { cufftExecR2C(pr, (cufftReal*)a, (cufftComplex*)b); });
    const double f_c2r = time_ms([&] { c2r.execute(static_cast<const DeviceComplex32*>(b), static_cast<float*>(a)); });
    const double f_c2r_ip = time_ms([&] { c2r.execute(static_cast<const DeviceComplex32*>(b), static_cast<float*>(b)); });
    const double c_c2r = time_ms([&] { cufftExecC2R(pc, (cufftComplex*)b, (cufftReal*)a); });
    std::printf("PROBE %s: floor(memcpy of half the bytes) %.4f ms | R2C fft3d %.4f (ip %.4f) cuFFT %.4f -> %.2fx, pass-eq %.2f | "
                "C2R fft3d %.4f (ip %.4f) cuFFT %.4f -> %.2fx, pass-eq %.2f\n",
                to_string(n).c_str(), copy, f_r2c, f_r2c_ip, c_r2c, c_r2c / f_r2c, f_r2c / copy, f_c2r, f_c2r_ip, c_c2r,
                c_c2r / f_c2r, f_c2r / copy);
    for (int dir = 0; dir < 2; ++dir) {
      GpuProfiler prof(dir == 0 ? r2c : c2r);
      const TransformOptions o{.direction = dir == 0 ? Direction::forward : Direction::inverse};
      for (std::size_t k = 0; k < prof.kernels().size(); ++k) {
        if (prof.kernels()[k].reorder_pass) continue;
        const double t = time_ms([&] { prof.run_kernel(k, static_cast<DeviceComplex32*>(a), static_cast<DeviceComplex32*>(b), o); });
        std::printf("  %s kernel %zu: %.4f ms (%lld blocks x %d threads, %lld B smem, %d regs)\n", dir == 0 ? "R2C" : "C2R", k, t,
                    (long long)prof.kernels()[k].blocks, prof.kernels()[k].threads, (long long)prof.kernels()[k].shared_bytes, prof.kernels()[k].registers);
      }
    }
    {  // the same stages as a complex plan of the stage extents: aligned rows, no Nyquist column, no real step
      Plan stages = r2c.plan();
      stages.size = stage_extents(stages);
      for (Kernel& k : stages.kernels) { k.real.reset(); k.real_position = 0; }
      GpuTransform twin(stages, "stages");
      GpuProfiler prof(twin);
      for (std::size_t k = 0; k < prof.kernels().size(); ++k) {
        if (prof.kernels()[k].reorder_pass) continue;
        const double t = time_ms([&] { prof.run_kernel(k, static_cast<DeviceComplex32*>(a), static_cast<DeviceComplex32*>(b), {}); });
        std::printf("  C2C-of-stages kernel %zu: %.4f ms (%lld blocks, %d regs)\n", k, t, (long long)prof.kernels()[k].blocks, prof.kernels()[k].registers);
      }
    }
    cufftDestroy(pr); cufftDestroy(pc);
    cudaFree(a); cudaFree(b); cudaFree(ws);
  }
}
}  // namespace
}  // namespace fft3d::testing
