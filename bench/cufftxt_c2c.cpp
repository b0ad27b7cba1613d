#include "bench/cufftxt_c2c.hpp"

#include <cufftXt.h>

#include <utility>

#include "fft3d/errors.hpp"

namespace fft3d::bench {
namespace {

constexpr std::pair<cufftResult, const char*> result_names[] = {
    {CUFFT_SUCCESS, "CUFFT_SUCCESS"},           {CUFFT_INVALID_PLAN, "CUFFT_INVALID_PLAN"},
    {CUFFT_ALLOC_FAILED, "CUFFT_ALLOC_FAILED"}, {CUFFT_INVALID_TYPE, "CUFFT_INVALID_TYPE"},
    {CUFFT_INVALID_VALUE, "CUFFT_INVALID_VALUE"}, {CUFFT_INTERNAL_ERROR, "CUFFT_INTERNAL_ERROR"},
    {CUFFT_EXEC_FAILED, "CUFFT_EXEC_FAILED"},   {CUFFT_SETUP_FAILED, "CUFFT_SETUP_FAILED"},
    {CUFFT_INVALID_SIZE, "CUFFT_INVALID_SIZE"}, {CUFFT_UNALIGNED_DATA, "CUFFT_UNALIGNED_DATA"},
    {CUFFT_INVALID_DEVICE, "CUFFT_INVALID_DEVICE"}, {CUFFT_NO_WORKSPACE, "CUFFT_NO_WORKSPACE"},
    {CUFFT_NOT_IMPLEMENTED, "CUFFT_NOT_IMPLEMENTED"}, {CUFFT_NOT_SUPPORTED, "CUFFT_NOT_SUPPORTED"},
};

void check(cufftResult result, const std::string& call) {
  if (result != CUFFT_SUCCESS) throw CudaError(call, static_cast<int>(result), cufft_result_name(result));
}

cudaLibXtDesc* as_descriptor(void* d) { return static_cast<cudaLibXtDesc*>(d); }

}  // namespace

std::string cufft_result_name(int result) {
  for (const auto& [code, name] : result_names)
    if (static_cast<int>(code) == result) return name;
  return "cufftResult " + std::to_string(result);
}

CufftXtC2C::CufftXtC2C(const Extents& size, const std::vector<int>& devices) : work_area_(devices.size()) {
  cufftHandle handle = 0;
  check(cufftCreate(&handle), "cufftCreate");
  handle_ = handle;
  try {
    std::vector<int> gpus(devices);
    check(cufftXtSetGPUs(handle, static_cast<int>(gpus.size()), gpus.data()), "cufftXtSetGPUs");
    check(cufftMakePlan3d(handle, static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx),
                          CUFFT_C2C, work_area_.data()),
          "cufftMakePlan3d (cufftXt, " + to_string(size) + " on " + std::to_string(devices.size()) + " GPUs)");
    cudaLibXtDesc* descriptor = nullptr;
    check(cufftXtMalloc(handle, &descriptor, CUFFT_XT_FORMAT_INPLACE), "cufftXtMalloc");
    descriptor_ = descriptor;
  } catch (...) {
    cufftDestroy(handle);
    throw;
  }
}

CufftXtC2C::~CufftXtC2C() {
  if (descriptor_) cufftXtFree(as_descriptor(descriptor_));
  cufftDestroy(handle_);
}

void CufftXtC2C::execute(Direction direction) {
  cudaLibXtDesc* d = as_descriptor(descriptor_);
  check(cufftXtExecDescriptorC2C(handle_, d, d, direction == Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE),
        "cufftXtExecDescriptorC2C");
}

void CufftXtC2C::mark_natural() { as_descriptor(descriptor_)->subFormat = CUFFT_XT_FORMAT_INPLACE; }

std::vector<CufftXtC2C::Share> CufftXtC2C::shares() const {
  const cudaXtDesc* d = as_descriptor(descriptor_)->descriptor;
  std::vector<Share> shares;
  std::int64_t first = 0;
  for (int i = 0; i < d->nGPUs; ++i) {
    const auto count = static_cast<std::int64_t>(d->size[i] / sizeof(std::complex<float>));
    shares.push_back({static_cast<std::complex<float>*>(d->data[i]), first, count});
    first += count;
  }
  return shares;
}

}  // namespace fft3d::bench
