#include "bench/cufftxt.hpp"

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

// cuFFT's plan types: {forward, inverse} of a kind and precision (C2C's inverse is its forward plan's type).
std::pair<cufftType, cufftType> plan_types(TransformKind kind, Precision precision) {
  const bool fp64 = precision == Precision::fp64;
  if (kind == TransformKind::c2c) return fp64 ? std::pair{CUFFT_Z2Z, CUFFT_Z2Z} : std::pair{CUFFT_C2C, CUFFT_C2C};
  return fp64 ? std::pair{CUFFT_D2Z, CUFFT_Z2D} : std::pair{CUFFT_R2C, CUFFT_C2R};
}

constexpr std::pair<cufftType, const char*> type_names[] = {
    {CUFFT_C2C, "C2C"}, {CUFFT_R2C, "R2C"}, {CUFFT_C2R, "C2R"},
    {CUFFT_Z2Z, "Z2Z"}, {CUFFT_D2Z, "D2Z"}, {CUFFT_Z2D, "Z2D"},
};

// A plan of `type` for `size` over `devices`; fills `work` (per GPU). Throws CudaError, the handle destroyed.
cufftHandle make_plan(const Extents& size, const std::vector<int>& devices, cufftType type,
                      std::vector<std::size_t>& work) {
  cufftHandle handle = 0;
  check(cufftCreate(&handle), "cufftCreate");
  try {
    std::vector<int> gpus(devices);
    work.assign(devices.size(), 0);
    check(cufftXtSetGPUs(handle, static_cast<int>(gpus.size()), gpus.data()), "cufftXtSetGPUs");
    check(cufftMakePlan3d(handle, static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx),
                          type, work.data()),
          "cufftMakePlan3d (cufftXt, " + to_string(size) + " on " + std::to_string(devices.size()) + " GPUs)");
  } catch (...) {
    cufftDestroy(handle);
    throw;
  }
  return handle;
}

}  // namespace

std::string cufft_result_name(int result) {
  for (const auto& [code, name] : result_names)
    if (static_cast<int>(code) == result) return name;
  return "cufftResult " + std::to_string(result);
}

std::string cufft_type_name(TransformKind kind, Precision precision) {
  const auto [forward, inverse] = plan_types(kind, precision);
  const cufftType type = kind == TransformKind::c2r ? inverse : forward;
  for (const auto& [code, name] : type_names)
    if (code == type) return name;
  return "cufftType " + std::to_string(static_cast<int>(type));
}

CufftXt::CufftXt(const Extents& size, const std::vector<int>& devices, TransformKind kind, Precision precision)
    : kind_(kind == TransformKind::c2c ? kind : TransformKind::r2c), precision_(precision) {
  const auto [forward_type, inverse_type] = plan_types(kind_, precision);
  forward_ = make_plan(size, devices, forward_type, forward_work_);
  inverse_ = forward_;
  inverse_work_ = forward_work_;
  try {
    if (kind_ != TransformKind::c2c) inverse_ = make_plan(size, devices, inverse_type, inverse_work_);
    cudaLibXtDesc* descriptor = nullptr;
    check(cufftXtMalloc(forward_, &descriptor, CUFFT_XT_FORMAT_INPLACE), "cufftXtMalloc");
    descriptor_ = descriptor;
  } catch (...) {
    if (inverse_ != forward_) cufftDestroy(inverse_);
    cufftDestroy(forward_);
    throw;
  }
}

CufftXt::~CufftXt() {
  if (descriptor_) cufftXtFree(as_descriptor(descriptor_));
  if (inverse_ != forward_) cufftDestroy(inverse_);
  cufftDestroy(forward_);
}

void CufftXt::execute(Direction direction) {
  cudaLibXtDesc* d = as_descriptor(descriptor_);
  const bool forward = direction == Direction::forward;
  check(cufftXtExecDescriptor(forward ? forward_ : inverse_, d, d, forward ? CUFFT_FORWARD : CUFFT_INVERSE),
        "cufftXtExecDescriptor");
}

void CufftXt::mark_natural() { as_descriptor(descriptor_)->subFormat = CUFFT_XT_FORMAT_INPLACE; }
void CufftXt::mark_shuffled() { as_descriptor(descriptor_)->subFormat = CUFFT_XT_FORMAT_INPLACE_SHUFFLED; }

const std::vector<std::size_t>& CufftXt::work_area_bytes(Direction direction) const {
  return direction == Direction::forward ? forward_work_ : inverse_work_;
}

std::vector<CufftXt::Share> CufftXt::shares() const {
  const cudaXtDesc* d = as_descriptor(descriptor_)->descriptor;
  const std::size_t value_bytes = complex_value_bytes(precision_);
  std::vector<Share> shares;
  std::int64_t first = 0;
  for (int i = 0; i < d->nGPUs; ++i) {
    const auto count = static_cast<std::int64_t>(d->size[i] / value_bytes);
    shares.push_back({d->data[i], first, count});
    first += count;
  }
  return shares;
}

}  // namespace fft3d::bench
