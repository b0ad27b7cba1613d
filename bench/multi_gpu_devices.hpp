// Device memory and timing over several GPUs of one process: one buffer per device, and CUDA-event timing of work
// that spans the devices. CUDA types stay out of this header.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::bench {

using Complex32 = std::complex<float>;

// One buffer of `elements` complex values of `precision` (std::complex<float> or std::complex<double>) on each of
// `devices`, allocated and freed on its own device. Throws OutOfMemory or CudaError; what was allocated before a
// failure is freed.
class PerDeviceBuffers {
 public:
  PerDeviceBuffers(const std::vector<int>& devices, std::int64_t elements, Precision precision = Precision::fp32);
  ~PerDeviceBuffers();
  PerDeviceBuffers(const PerDeviceBuffers&) = delete;
  PerDeviceBuffers& operator=(const PerDeviceBuffers&) = delete;

  // The buffers as `Value`s: std::logic_error unless Value is a complex value of the buffers' precision.
  template <class Value = Complex32>
  std::vector<Value*> pointers() const {
    if (sizeof(Value) != value_bytes()) throw std::logic_error("PerDeviceBuffers: values of the other precision");
    std::vector<Value*> values;
    for (void* data : data_) values.push_back(static_cast<Value*>(data));
    return values;
  }
  template <class Value = Complex32>
  std::vector<const Value*> const_pointers() const {
    const std::vector<Value*> values = pointers<Value>();
    return {values.begin(), values.end()};
  }
  std::size_t count() const { return data_.size(); }  // buffers: one per device
  std::int64_t elements() const { return elements_; }
  Precision precision() const { return precision_; }
  std::size_t value_bytes() const { return complex_value_bytes(precision_); }
  // `count` values of the buffers' precision at element `offset` of buffer `i` from or to the host (synchronous).
  void upload(std::size_t i, const void* host, std::int64_t offset, std::int64_t count);
  void download(std::size_t i, void* host, std::int64_t offset, std::int64_t count) const;
  void poison_nan();                               // every value a NaN, so an unwritten output cannot pass
  void copy_from(const PerDeviceBuffers& other);   // buffer by buffer, synchronous

 private:
  void release();  // frees every buffer, each on its own device
  std::size_t bytes_of(std::int64_t elements) const { return static_cast<std::size_t>(elements) * value_bytes(); }
  std::vector<int> devices_;
  std::vector<void*> data_;
  std::int64_t elements_ = 0;
  Precision precision_ = Precision::fp32;
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
