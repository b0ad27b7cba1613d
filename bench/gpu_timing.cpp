#include "bench/gpu_timing.hpp"

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "validate/cuda/cuda_calls.hpp"
#include "fft3d/errors.hpp"

namespace fft3d::bench {
namespace {

// Events that are destroyed on every path.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    validate::check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    validate::check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

}  // namespace

GpuInfo gpu_info() {
  int device = 0;
  validate::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp properties{};
  validate::check_cuda(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  GpuInfo info;
  info.name = properties.name;
  info.multiprocessors = properties.multiProcessorCount;
  info.memory_gib = static_cast<double>(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess) info.sm_clock_mhz = khz / 1000;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess)
    info.memory_clock_mhz = khz / 1000;
  validate::check_cuda(cudaDriverGetVersion(&info.cuda_driver_version), "cudaDriverGetVersion");
  validate::check_cuda(cudaRuntimeGetVersion(&info.runtime_version), "cudaRuntimeGetVersion");
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) == cudaSuccess) info.pci_bus_id = bus_id;
  return info;
}

double create_cuda_context_ms() {
  const auto start = std::chrono::steady_clock::now();
  validate::check_cuda(cudaFree(nullptr), "cudaFree(nullptr) (CUDA context creation)");
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

namespace {

struct BatchTime {
  double gpu_ms = 0;      // between the events around the runs
  double enqueue_ms = 0;  // host time to issue the runs
};

// `runs` back-to-back runs of `body`, timed with `events` on `s`.
BatchTime time_batch(const std::function<void(void* stream)>& body, int runs, cudaStream_t s,
                     const EventPair& events) {
  validate::check_cuda(cudaEventRecord(events.start, s), "cudaEventRecord");
  const auto issue = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) body(s);
  const auto issued = std::chrono::steady_clock::now();
  validate::check_cuda(cudaEventRecord(events.stop, s), "cudaEventRecord");
  validate::check_cuda(cudaEventSynchronize(events.stop), "cudaEventSynchronize");
  float ms = 0;
  validate::check_cuda(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
  return {ms, std::chrono::duration<double, std::milli>(issued - issue).count()};
}

}  // namespace

Timing time_on_gpu(const std::function<void(void* stream)>& body, int warmup, int repeats, void* stream,
                   const std::function<void(void* stream)>& before_each, double min_sample_ms) {
  const auto s = static_cast<cudaStream_t>(stream);
  for (int i = 0; i < warmup; ++i) {
    if (before_each) before_each(stream);
    body(stream);
  }
  validate::check_cuda(cudaStreamSynchronize(s), "cudaStreamSynchronize (warm-up)");
  EventPair events;
  Timing timing;
  if (min_sample_ms > 0 && !before_each) {
    const double single_ms = std::max(time_batch(body, 1, s, events).gpu_ms, 1e-3);
    timing.batch = static_cast<int>(std::clamp(std::ceil(min_sample_ms / single_ms), 1.0, 4096.0));
    const int warm_up_runs = static_cast<int>(std::min(std::ceil(warm_up_ms / single_ms), 1e5));
    time_batch(body, warm_up_runs, s, events);
  }
  std::vector<double> times, enqueue;
  for (int i = 0; i < repeats; ++i) {
    if (before_each) before_each(stream);
    const BatchTime sample = time_batch(body, timing.batch, s, events);
    times.push_back(sample.gpu_ms / timing.batch);
    enqueue.push_back(sample.enqueue_ms / timing.batch);
  }
  std::sort(enqueue.begin(), enqueue.end());
  timing.enqueue_ms = enqueue[enqueue.size() / 2];
  validate::check_cuda(cudaGetLastError(), "a timed launch");
  std::sort(times.begin(), times.end());
  timing.median_ms = times[times.size() / 2];
  timing.min_ms = times.front();
  timing.max_ms = times.back();
  timing.samples_ms = std::move(times);
  return timing;
}

Timing pooled(const std::vector<Timing>& parts) {
  Timing all;
  std::vector<double> enqueue;
  for (const Timing& part : parts) {
    all.samples_ms.insert(all.samples_ms.end(), part.samples_ms.begin(), part.samples_ms.end());
    enqueue.push_back(part.enqueue_ms);
  }
  if (all.samples_ms.empty()) throw std::invalid_argument("bench::pooled: no samples");
  std::sort(all.samples_ms.begin(), all.samples_ms.end());
  std::sort(enqueue.begin(), enqueue.end());
  all.median_ms = all.samples_ms[all.samples_ms.size() / 2];
  all.min_ms = all.samples_ms.front();
  all.max_ms = all.samples_ms.back();
  all.batch = parts.front().batch;
  all.enqueue_ms = enqueue[enqueue.size() / 2];
  return all;
}

double memcpy_gbytes_per_second(std::int64_t bytes, int repeats) {
  void* a = nullptr;
  void* b = nullptr;
  validate::check_cuda(cudaMalloc(&a, bytes), "cudaMalloc (memcpy source)");
  const cudaError_t second = cudaMalloc(&b, bytes);
  if (second != cudaSuccess) cudaFree(a);
  validate::check_cuda(second, "cudaMalloc (memcpy destination)");
  cudaMemset(a, 0x3C, bytes);
  double ms = 0;
  try {
    ms = time_on_gpu([&](void* stream) {
      validate::check_cuda(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream)),
                  "cudaMemcpyAsync");
    }, 3, repeats).median_ms;
  } catch (...) {
    cudaFree(a);
    cudaFree(b);
    throw;
  }
  cudaFree(a);
  cudaFree(b);
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

namespace {

// A cuFFT plan of `batch` packed 3D transforms of `type` in FFTW's layouts (cufftPlanMany's basic layout for a
// batch); the handle, destroyed again if planning fails.
int make_cufft_plan(const Extents& size, cufftType type, std::size_t& workspace, const std::string& what,
                    std::int64_t batch = 1) {
  cufftHandle handle;
  validate::check_cufft(cufftCreate(&handle), "cufftCreate");
  // Volumes of 2^31 elements and more, and batches, take the 64-bit planner.
  long long lengths[3] = {size.nz, size.ny, size.nx};
  const cufftResult made =
      size.elements() < (std::int64_t{1} << 31) && batch == 1
          ? cufftMakePlan3d(handle, static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx),
                            type, &workspace)
          : cufftMakePlanMany64(handle, 3, lengths, nullptr, 1, 0, nullptr, 1, 0, type, batch, &workspace);
  if (made != CUFFT_SUCCESS) cufftDestroy(handle);
  validate::check_cufft(made, "cufftMakePlan3d (" + what + ")");
  return handle;
}

}  // namespace

CufftC2C::CufftC2C(const Extents& size, Precision precision, std::int64_t batch)
    : precision_(precision),
      handle_(precision == Precision::fp64 ? make_cufft_plan(size, CUFFT_Z2Z, workspace_, "Z2Z", batch)
                                           : make_cufft_plan(size, CUFFT_C2C, workspace_, "C2C", batch)) {}

CufftC2C::~CufftC2C() { cufftDestroy(handle_); }

void CufftC2C::execute(const void* in, void* out, Direction direction, void* stream) {
  validate::check_cufft(cufftSetStream(handle_, static_cast<cudaStream_t>(stream)), "cufftSetStream");
  const int sign = direction == Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  if (precision_ == Precision::fp64) {
    validate::check_cufft(cufftExecZ2Z(handle_, static_cast<cufftDoubleComplex*>(const_cast<void*>(in)),
                                       static_cast<cufftDoubleComplex*>(out), sign),
                          "cufftExecZ2Z");
    return;
  }
  validate::check_cufft(cufftExecC2C(handle_, static_cast<cufftComplex*>(const_cast<void*>(in)),
                                 static_cast<cufftComplex*>(out),
                                 direction == Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE),
                    "cufftExecC2C");
}

std::size_t CufftC2C::workspace_bytes() const { return workspace_; }

namespace {

TransformKind real_kind(TransformKind kind) {
  if (kind == TransformKind::c2c) throw UsageError("CufftReal: a real transform's competitor (r2c or c2r)");
  return kind;
}

}  // namespace

namespace {

// A cuFFT plan of `batch` packed real transforms of `type`, both layouts spelled out (cuFFT's basic layout leaves a
// batch's padded in-place rows to its own reading): the real array's rows `real_pitch` reals apart, the half
// spectrum's NX/2+1 values; each side's volumes one after another.
int make_cufft_real_batch_plan(const Extents& size, cufftType type, std::int64_t real_pitch, std::int64_t batch,
                               const std::string& what) {
  cufftHandle handle;
  validate::check_cufft(cufftCreate(&handle), "cufftCreate");
  long long lengths[3] = {size.nz, size.ny, size.nx};
  long long reals[3] = {size.nz, size.ny, real_pitch};
  long long half[3] = {size.nz, size.ny, size.nx / 2 + 1};
  const long long real_distance = size.nz * size.ny * real_pitch, half_distance = size.nz * size.ny * half[2];
  const bool r2c = type == CUFFT_R2C || type == CUFFT_D2Z;
  std::size_t workspace = 0;
  const cufftResult made =
      cufftMakePlanMany64(handle, 3, lengths, r2c ? reals : half, 1, r2c ? real_distance : half_distance,
                          r2c ? half : reals, 1, r2c ? half_distance : real_distance, type, batch, &workspace);
  if (made != CUFFT_SUCCESS) cufftDestroy(handle);
  validate::check_cufft(made, "cufftMakePlanMany64 (" + what + ", batch of " + std::to_string(batch) + ")");
  return handle;
}

}  // namespace

CufftReal::CufftReal(const Extents& size, TransformKind kind, Precision precision, Placement placement,
                     std::int64_t batch)
    : kind_(real_kind(kind)), precision_(precision) {
  std::size_t workspace = 0;
  const bool fp64 = precision == Precision::fp64;
  const cufftType type = kind == TransformKind::r2c ? (fp64 ? CUFFT_D2Z : CUFFT_R2C) : (fp64 ? CUFFT_Z2D : CUFFT_C2R);
  const std::string what = to_string(kind) + (fp64 ? " fp64" : "");
  const std::int64_t real_pitch = placement == Placement::in_place ? 2 * (size.nx / 2 + 1) : size.nx;
  handle_ = batch == 1 ? make_cufft_plan(size, type, workspace, what)
                       : make_cufft_real_batch_plan(size, type, real_pitch, batch, what);
}

CufftReal::~CufftReal() { cufftDestroy(handle_); }

void CufftReal::execute(const void* in, void* out, void* stream) {
  validate::check_cufft(cufftSetStream(handle_, static_cast<cudaStream_t>(stream)), "cufftSetStream");
  void* input = const_cast<void*>(in);  // cuFFT's signatures are not const
  if (precision_ == Precision::fp64) {
    if (kind_ == TransformKind::r2c)
      validate::check_cufft(cufftExecD2Z(handle_, static_cast<cufftDoubleReal*>(input),
                                         static_cast<cufftDoubleComplex*>(out)),
                            "cufftExecD2Z");
    else
      validate::check_cufft(cufftExecZ2D(handle_, static_cast<cufftDoubleComplex*>(input),
                                         static_cast<cufftDoubleReal*>(out)),
                            "cufftExecZ2D");
    return;
  }
  if (kind_ == TransformKind::r2c)
    validate::check_cufft(
        cufftExecR2C(handle_, static_cast<cufftReal*>(input), static_cast<cufftComplex*>(out)), "cufftExecR2C");
  else
    validate::check_cufft(
        cufftExecC2R(handle_, static_cast<cufftComplex*>(input), static_cast<cufftReal*>(out)), "cufftExecC2R");
}

}  // namespace fft3d::bench
