// Device memory and timing over several GPUs of one process: one buffer per device, and CUDA-event timing of work
// that spans the devices. CUDA types stay out of this header.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "bench/gpu_timing.hpp"

namespace fft3d::bench {

using Complex32 = std::complex<float>;

// One buffer of `elements` fp32 complex values on each of `devices`, allocated and freed on its own device.
// Throws OutOfMemory or CudaError; what was allocated before a failure is freed.
class PerDeviceBuffers {
 public:
  PerDeviceBuffers(const std::vector<int>& devices, std::int64_t elements);
  ~PerDeviceBuffers();
  PerDeviceBuffers(const PerDeviceBuffers&) = delete;
  PerDeviceBuffers& operator=(const PerDeviceBuffers&) = delete;

  std::vector<Complex32*> pointers() const { return data_; }
  std::vector<const Complex32*> const_pointers() const { return {data_.begin(), data_.end()}; }
  std::int64_t elements() const { return elements_; }
  // `count` values at element `offset` of buffer `i` from or to the host (synchronous).
  void upload(std::size_t i, const Complex32* host, std::int64_t offset, std::int64_t count);
  void download(std::size_t i, Complex32* host, std::int64_t offset, std::int64_t count) const;
  void poison_nan();                               // every value a NaN, so an unwritten output cannot pass
  void copy_from(const PerDeviceBuffers& other);   // buffer by buffer, synchronous

 private:
  void release();  // frees every buffer, each on its own device
  std::vector<int> devices_;
  std::vector<Complex32*> data_;
  std::int64_t elements_ = 0;
};

// Waits for all work on every device of `devices`.
void synchronize_devices(const std::vector<int>& devices);

// Times `body` (work on several devices, asynchronous or not) `repeats` times after `warmup` runs: each sample
// brackets it with CUDA events on every device's legacy default stream and takes the longest device's time. The
// stop events wait for work on the devices' blocking streams only: a body whose work may run on non-blocking
// streams it does not own must wait for it itself (the time then includes that wait). `before_each` (optional)
// runs before every run, outside the timed region, e.g. to undo an in-place transform. Single runs per sample: the
// runs measured here last milliseconds.
Timing time_on_devices(const std::vector<int>& devices, const std::function<void()>& body, int warmup, int repeats,
                       const std::function<void()>& before_each = {});

}  // namespace fft3d::bench
