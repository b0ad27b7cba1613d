// What the multi-GPU suites share: the devices they run on, per-device buffers, the tolerance against the fp64
// oracle, and the skips without a GPU or NCCL.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::testing {

using Volume = std::vector<std::complex<double>>;

// Rel L2 against the fp64 oracle, as the other GPU suites: fp32's, and fp64's (gpu_fp64_test.cpp's bound).
template <class Real>
constexpr double multi_gpu_tolerance = std::is_same_v<Real, float> ? 2e-6 : 1e-13;

template <class Real>
constexpr Precision precision_of = std::is_same_v<Real, float> ? Precision::fp32 : Precision::fp64;

double relative_l2(const Volume& got, const Volume& want);

// Random values already rounded to Real, so that the oracle transforms exactly what the GPUs read.
template <class Real = float>
Volume random_volume(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Volume v(count);
  for (auto& value : v)
    value = {static_cast<Real>(uniform(random)), static_cast<Real>(uniform(random))};
  return v;
}

// The whole spectrum (d.spectrum()) scattered over the buffers in `layout` (volume_index), and gathered back.
// Buffer g is on device g (first_devices).
template <class Real = float>
void upload(const SlabDecomposition& d, SlabLayout layout, const Volume& whole,
            std::vector<validate::DeviceBuffer>& buffers) {
  std::vector<std::complex<Real>> local(d.local_elements());
  for (int g = 0; g < d.gpus; ++g) {
    for (std::int64_t i = 0; i < d.local_elements(); ++i)
      local[i] = std::complex<Real>(whole[volume_index(d, layout, g, i)]);
    validate::check_cuda(cudaSetDevice(g), "cudaSetDevice");
    buffers[g].upload(local.data());
  }
}

template <class Real = float>
Volume gather(const SlabDecomposition& d, SlabLayout layout, const std::vector<validate::DeviceBuffer>& buffers) {
  Volume whole(d.spectrum().elements());
  std::vector<std::complex<Real>> local(d.local_elements());
  for (int g = 0; g < d.gpus; ++g) {
    validate::check_cuda(cudaSetDevice(g), "cudaSetDevice");
    buffers[g].download(local.data());
    for (std::int64_t i = 0; i < d.local_elements(); ++i) whole[volume_index(d, layout, g, i)] = local[i];
  }
  return whole;
}

template <class Real = float>
std::vector<const std::complex<Real>*> inputs(const std::vector<validate::DeviceBuffer>& buffers) {
  std::vector<const std::complex<Real>*> pointers;
  for (const validate::DeviceBuffer& b : buffers)
    pointers.push_back(static_cast<const std::complex<Real>*>(b.get()));
  return pointers;
}

template <class Real = float>
std::vector<std::complex<Real>*> outputs(const std::vector<validate::DeviceBuffer>& buffers) {
  std::vector<std::complex<Real>*> pointers;
  for (const validate::DeviceBuffer& b : buffers) pointers.push_back(static_cast<std::complex<Real>*>(b.get()));
  return pointers;
}

// Devices 0 to count - 1.
std::vector<int> first_devices(int count);

// One buffer of `bytes` per device, each allocated with its device current.
std::vector<validate::DeviceBuffer> allocate_bytes(const std::vector<int>& devices, std::int64_t bytes);

// `values` complex Real values per device.
template <class Real = float>
std::vector<validate::DeviceBuffer> allocate(const std::vector<int>& devices, std::int64_t values) {
  return allocate_bytes(devices, values * static_cast<std::int64_t>(sizeof(std::complex<Real>)));
}

// NaN in every buffer, each with its device current.
void poison(const std::vector<int>& devices, std::vector<validate::DeviceBuffer>& buffers);

// Skips the test (GTEST_SKIP) without a GPU or without NCCL in the build; call it from SetUp.
void skip_without_gpu_or_nccl();

// The largest power of two of visible GPUs up to max_slab_gpus: a G that divides every size here.
int several_gpus();

// MultiGpuDesc::min_chunk_bytes of the small-chunk suites: a 64³ volume then runs 8 slab chunks and 8 row chunks
// (natural layout; with peer stores 8/G, the kernel's copies a launch), every chunked path of the schedule.
inline constexpr std::int64_t small_chunk_bytes = 4096;

// One case of a parameterized multi-GPU suite, and its test name ("64x64x64_natural_copy_engines").
using MultiGpuCase = std::tuple<Extents, SlabLayout, SlabExchange>;
std::string multi_gpu_case_name(const ::testing::TestParamInfo<MultiGpuCase>& info);

// The cases of `sizes` in every layout with every exchange.
inline auto every_layout_and_exchange(const std::vector<Extents>& sizes) {
  return ::testing::Combine(::testing::ValuesIn(sizes), ::testing::Values(SlabLayout::natural, SlabLayout::y_slabs),
                            ::testing::Values(SlabExchange::copy_engines, SlabExchange::peer_stores,
                                              SlabExchange::nccl));
}

// A parameterized multi-GPU suite whose cases run `check(size, layout, exchange, gpus)`: skipped without a GPU or
// NCCL; check_on_every_visible_gpu skips with fewer than 2 GPUs.
template <void (*check)(const Extents&, SlabLayout, SlabExchange, int)>
class MultiGpuCaseTest : public ::testing::TestWithParam<MultiGpuCase> {
 protected:
  void SetUp() override { skip_without_gpu_or_nccl(); }
  void check_on(int gpus) { check(std::get<0>(GetParam()), std::get<1>(GetParam()), std::get<2>(GetParam()), gpus); }
  void check_on_every_visible_gpu() {
    const int gpus = several_gpus();
    if (gpus < 2)
      GTEST_SKIP() << validate::gpu_count() << " CUDA GPU visible: the several-GPU case needs at least 2, skipped";
    check_on(gpus);
  }
};

}  // namespace fft3d::testing
