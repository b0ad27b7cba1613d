#include "bench/multi_gpu_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>

#include "validate/cuda/cuda_calls.hpp"

namespace fft3d::bench {
namespace {

using validate::check_cuda;

constexpr int nan_byte = 0xFF;  // every byte 0xFF: every float a NaN

void set_device(int device) { check_cuda(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")"); }

// One start and one stop event per device, destroyed on every path.
struct DeviceEvents {
  std::vector<int> devices;
  std::vector<cudaEvent_t> start, stop;
  explicit DeviceEvents(const std::vector<int>& on) : devices(on), start(on.size()), stop(on.size()) {
    for (std::size_t i = 0; i < on.size(); ++i) {
      set_device(on[i]);
      check_cuda(cudaEventCreate(&start[i]), "cudaEventCreate");
      check_cuda(cudaEventCreate(&stop[i]), "cudaEventCreate");
    }
  }
  ~DeviceEvents() {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      cudaSetDevice(devices[i]);
      cudaEventDestroy(start[i]);
      cudaEventDestroy(stop[i]);
    }
  }
  void record(std::vector<cudaEvent_t>& events) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      set_device(devices[i]);
      check_cuda(cudaEventRecord(events[i], cudaStreamLegacy), "cudaEventRecord");
    }
  }
  // The longest device's time between its two events, in ms.
  double longest_ms() {
    double longest = 0;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      set_device(devices[i]);
      check_cuda(cudaEventSynchronize(stop[i]), "cudaEventSynchronize");
      float ms = 0;
      check_cuda(cudaEventElapsedTime(&ms, start[i], stop[i]), "cudaEventElapsedTime");
      longest = std::max(longest, static_cast<double>(ms));
    }
    return longest;
  }
};

}  // namespace

PerDeviceBuffers::PerDeviceBuffers(const std::vector<int>& devices, std::int64_t elements, Precision precision)
    : devices_(devices), elements_(elements), precision_(precision) {
  for (int device : devices) {
    set_device(device);
    void* data = nullptr;
    const cudaError_t status = cudaMalloc(&data, bytes_of(elements));
    if (status != cudaSuccess) {
      cudaGetLastError();  // a failed allocation leaves the last error set; later calls must not see it
      release();
      check_cuda(status, "cudaMalloc(" + std::to_string(bytes_of(elements)) + " bytes) on device " +
                             std::to_string(device));
    }
    data_.push_back(data);
  }
}

PerDeviceBuffers::~PerDeviceBuffers() { release(); }

void PerDeviceBuffers::release() {
  for (std::size_t i = 0; i < data_.size(); ++i) {
    cudaSetDevice(devices_[i]);
    cudaFree(data_[i]);
  }
  data_.clear();
}

void PerDeviceBuffers::upload(std::size_t i, const void* host, std::int64_t offset, std::int64_t count) {
  check_cuda(cudaMemcpy(static_cast<char*>(data_.at(i)) + bytes_of(offset), host, bytes_of(count), cudaMemcpyDefault),
             "cudaMemcpy (upload)");
}

void PerDeviceBuffers::download(std::size_t i, void* host, std::int64_t offset, std::int64_t count) const {
  check_cuda(cudaMemcpy(host, static_cast<const char*>(data_.at(i)) + bytes_of(offset), bytes_of(count),
                        cudaMemcpyDefault),
             "cudaMemcpy (download)");
}

void PerDeviceBuffers::poison_nan() {
  for (std::size_t i = 0; i < data_.size(); ++i) {
    set_device(devices_[i]);
    check_cuda(cudaMemset(data_[i], nan_byte, bytes_of(elements_)), "cudaMemset (NaN poison)");
  }
  synchronize_devices(devices_);
}

void PerDeviceBuffers::copy_from(const PerDeviceBuffers& other) {
  for (std::size_t i = 0; i < data_.size(); ++i)
    check_cuda(cudaMemcpy(data_[i], other.data_.at(i), bytes_of(elements_), cudaMemcpyDefault), "cudaMemcpy (copy)");
}

void synchronize_devices(const std::vector<int>& devices) {
  for (int device : devices) {
    set_device(device);
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
}

Timing time_on_devices(const std::vector<int>& devices, const std::function<void()>& body, int warmup, int repeats,
                       const std::function<void()>& before_each) {
  for (int i = 0; i < warmup; ++i) {
    if (before_each) before_each();
    body();
  }
  synchronize_devices(devices);
  DeviceEvents events(devices);
  Timing timing;
  for (int i = 0; i < repeats; ++i) {
    if (before_each) before_each();
    synchronize_devices(devices);
    events.record(events.start);
    body();
    events.record(events.stop);
    timing.samples_ms.push_back(events.longest_ms());
  }
  std::sort(timing.samples_ms.begin(), timing.samples_ms.end());
  timing.median_ms = timing.samples_ms[timing.samples_ms.size() / 2];
  timing.min_ms = timing.samples_ms.front();
  timing.max_ms = timing.samples_ms.back();
  return timing;
}

}  // namespace fft3d::bench
