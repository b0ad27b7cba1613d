#include "gpu_multi_gpu_support.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "fft3d/errors.hpp"
#include "fft3d/multi_gpu_transform.hpp"

namespace fft3d::testing {

using validate::check_cuda;
using validate::DeviceBuffer;

double relative_l2(const Volume& got, const Volume& want) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num += std::norm(got[i] - want[i]);
    den += std::norm(want[i]);
  }
  return std::sqrt(num / den);
}

std::vector<int> first_devices(int count) {
  std::vector<int> devices;
  for (int d = 0; d < count; ++d) devices.push_back(d);
  return devices;
}

std::vector<DeviceBuffer> allocate_bytes(const std::vector<int>& devices, std::int64_t bytes) {
  std::vector<DeviceBuffer> buffers;
  for (int device : devices) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    buffers.emplace_back(bytes);
  }
  return buffers;
}

void poison(const std::vector<int>& devices, std::vector<DeviceBuffer>& buffers) {
  for (std::size_t g = 0; g < buffers.size(); ++g) {
    check_cuda(cudaSetDevice(devices[g]), "cudaSetDevice");
    buffers[g].poison_nan();
  }
}

namespace {

// Whether this build has NCCL: a device listed twice is bad input with it, and every construction is refused as
// unavailable without it.
bool built_with_nccl() {
  try {
    MultiGpuTransform({.extents = {2, 2, 2}, .devices = {0, 0}});
  } catch (const GpuUnavailable&) {
    return false;
  } catch (const UsageError&) {
  }
  return true;
}

}  // namespace

void skip_without_gpu_or_nccl() {
  if (validate::gpu_count() == 0) GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped";
  if (!built_with_nccl()) GTEST_SKIP() << "fft3d was built without NCCL: multi-GPU tests skipped";
}

std::string multi_gpu_case_name(const ::testing::TestParamInfo<MultiGpuCase>& info) {
  const bool natural = std::get<1>(info.param) == SlabLayout::natural;
  std::string exchange = exchange_name(std::get<2>(info.param));
  std::replace(exchange.begin(), exchange.end(), ' ', '_');
  return to_string(std::get<0>(info.param)) + (natural ? "_natural" : "_y_slabs") + "_" + exchange;
}

int several_gpus() {
  int g = 1;
  while (2 * g <= validate::gpu_count() && 2 * g <= max_slab_gpus) g *= 2;
  return g;
}

}  // namespace fft3d::testing
