// GPU smoke tests of the real kernels on hand-written plans (the shipped real plans have their own suite): R2C against
// cuFFT D2Z, C2R back to the reals, in place and out of place, outputs poisoned with NaN first. Skipped without a GPU.
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/plan_text.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::testing {
namespace {

using validate::check_cuda;
using validate::check_cufft;

struct RealCase {
  const char* r2c;
  const char* c2r;
};

const RealCase cases[] = {
    {"size: [32, 16, 8]\narch: hopper\nkernels:\n  - \"X(1, 16, 1, 16, no-tw), R2C(X, 32), Y(1, 16, 1, 16, no-tw)\"\n"
     "  - \"Z(1, 8, 1, 8, no-tw)\"\n",
     "size: [32, 16, 8]\narch: hopper\nkernels:\n  - \"Z(1, 8, 1, 8, no-tw)\"\n"
     "  - \"Y(1, 16, 1, 16, no-tw), C2R(X, 32), X(1, 16, 1, 16, no-tw)\"\n"},
    {"size: [256, 256, 256]\narch: hopper\nkernels:\n"
     "  - \"X(1, 128, 1, 128, no-tw), R2C(X, 256), Y(8, 32, 8, 256, tw)\"\n"
     "  - \"Y(32, 8, 1, 8, no-tw), Z(1, 256, 1, 256, no-tw)\"\n",
     "size: [256, 256, 256]\narch: hopper\nkernels:\n  - \"Z(1, 256, 1, 256, no-tw), Y(32, 8, 32, 256, tw)\"\n"
     "  - \"Y(8, 32, 1, 32, no-tw), C2R(X, 256), X(1, 128, 1, 128, no-tw)\"\n"},
};

template <class T>
T* device_alloc(std::size_t count) {
  void* p = nullptr;
  check_cuda(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
  return static_cast<T*>(p);
}

double relative_l2(const std::vector<double>& got, const std::vector<double>& want) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num += (got[i] - want[i]) * (got[i] - want[i]);
    den += want[i] * want[i];
  }
  return std::sqrt(num / den);
}

class GpuRealSmoke : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (validate::gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped";
  }
};

TEST_P(GpuRealSmoke, R2CMatchesD2ZAndC2RReturnsTheReals) {
  const RealCase& c = cases[GetParam()];
  GpuTransform r2c(parse_plan(c.r2c).plan);
  GpuTransform c2r(parse_plan(c.c2r).plan);
  const Extents n = r2c.plan().size;
  const std::int64_t h = n.nx / 2 + 1, rows = n.ny * n.nz, reals = n.nx * rows, spectrum = h * rows;
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<float> x(reals);
  for (float& v : x) v = static_cast<float>(uniform(random));
  // The fp64 reference: cuFFT D2Z of the same reals.
  std::vector<double> xd(x.begin(), x.end());
  double* dx = device_alloc<double>(reals);
  cufftDoubleComplex* dref = device_alloc<cufftDoubleComplex>(spectrum);
  check_cuda(cudaMemcpy(dx, xd.data(), reals * 8, cudaMemcpyHostToDevice), "copy");
  cufftHandle plan;
  check_cufft(cufftPlan3d(&plan, static_cast<int>(n.nz), static_cast<int>(n.ny), static_cast<int>(n.nx), CUFFT_D2Z), "plan");
  check_cufft(cufftExecD2Z(plan, dx, dref), "D2Z");
  std::vector<std::complex<double>> ref(spectrum);
  check_cuda(cudaMemcpy(ref.data(), dref, spectrum * 16, cudaMemcpyDeviceToHost), "copy");
  cufftDestroy(plan);
  cudaFree(dx);
  cudaFree(dref);
  std::vector<double> want(2 * spectrum);
  std::memcpy(want.data(), ref.data(), spectrum * 16);

  for (bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    const std::int64_t pitch = in_place ? 2 * h : n.nx;  // reals per row
    std::vector<float> padded(pitch * rows, 0.f);
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < n.nx; ++i) padded[r * pitch + i] = x[r * n.nx + i];
    float* din = device_alloc<float>(2 * spectrum);
    auto* dout = in_place ? reinterpret_cast<DeviceComplex32*>(din) : device_alloc<DeviceComplex32>(spectrum);
    check_cuda(cudaMemcpy(din, padded.data(), padded.size() * 4, cudaMemcpyHostToDevice), "copy");
    if (!in_place) check_cuda(cudaMemset(dout, 0xff, spectrum * 8), "poison");  // NaN
    r2c.execute(din, dout);
    check_cuda(cudaDeviceSynchronize(), "r2c");
    std::vector<std::complex<float>> got(spectrum);
    check_cuda(cudaMemcpy(got.data(), dout, spectrum * 8, cudaMemcpyDeviceToHost), "copy");
    std::vector<double> gotd(2 * spectrum);
    for (std::int64_t i = 0; i < spectrum; ++i) gotd[2 * i] = got[i].real(), gotd[2 * i + 1] = got[i].imag();
    EXPECT_LE(relative_l2(gotd, want), 2e-6) << "R2C";

    // C2R of the spectrum (fp32) with full scaling returns the reals.
    std::vector<std::complex<float>> spec32(spectrum);
    for (std::int64_t i = 0; i < spectrum; ++i) spec32[i] = std::complex<float>(ref[i]);
    auto* dspec = device_alloc<DeviceComplex32>(spectrum);
    check_cuda(cudaMemcpy(dspec, spec32.data(), spectrum * 8, cudaMemcpyHostToDevice), "copy");
    float* dreal = in_place ? reinterpret_cast<float*>(dspec) : device_alloc<float>(reals);
    if (!in_place) check_cuda(cudaMemset(dreal, 0xff, reals * 4), "poison");
    c2r.execute(dspec, dreal, {.direction = Direction::inverse, .scaling = Scaling::full});
    check_cuda(cudaDeviceSynchronize(), "c2r");
    std::vector<float> back(pitch * rows);
    check_cuda(cudaMemcpy(back.data(), dreal, back.size() * 4, cudaMemcpyDeviceToHost), "copy");
    std::vector<double> backd(reals), xd2(reals);
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < n.nx; ++i) backd[r * n.nx + i] = back[r * pitch + i], xd2[r * n.nx + i] = x[r * n.nx + i];
    EXPECT_LE(relative_l2(backd, xd2), 2e-6) << "C2R";
    if (!in_place) {
      std::vector<std::complex<float>> after(spectrum);
      check_cuda(cudaMemcpy(after.data(), dspec, spectrum * 8, cudaMemcpyDeviceToHost), "copy");
      EXPECT_EQ(std::memcmp(after.data(), spec32.data(), spectrum * 8), 0) << "C2R out of place wrote its input";
      cudaFree(dreal);
      cudaFree(dout);
    }
    cudaFree(dspec);
    cudaFree(din);
  }
  EXPECT_THROW(r2c.execute(static_cast<const DeviceComplex32*>(nullptr), static_cast<float*>(nullptr)), UsageError);
}

INSTANTIATE_TEST_SUITE_P(Plans, GpuRealSmoke, ::testing::Values(0, 1));

}  // namespace
}  // namespace fft3d::testing
