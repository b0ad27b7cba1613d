// What the NVIDIA driver says of the GPU a benchmark runs on, read through NVML: the driver's release (e.g.
// 580.159.04; the CUDA runtime only knows the CUDA version it supports) and the clocks the GPU runs at while it is
// measured, with the reasons the driver gives for holding them below their maximum. NVML (libnvidia-ml.so.1) comes
// with the driver and is loaded at run time, so fft3d needs it neither to build nor to run; without it the probe
// says why and reports nothing. The probe only reads: it never sets a clock.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace fft3d::bench {

// One reading of the clocks, in MHz (0: not known), and the driver's clock event reasons (NVML's bit mask).
struct ClockReading {
  int sm_mhz = 0;
  int memory_mhz = 0;
  std::uint64_t event_reasons = 0;
  bool known() const { return sm_mhz > 0; }
  // Whether the driver held the clocks for a reason other than an idle GPU: times taken then may not compare.
  bool held() const;
};

// NVML's clock event reasons by name ("sw power cap, hw thermal slowdown"; "none" for 0). Bits NVML defines but this
// does not name are written as hex.
std::string describe_clock_event_reasons(std::uint64_t reasons);

class DriverProbe {
 public:
  // `pci_bus_id` as cudaDeviceGetPCIBusId writes it, so the probe reads the device CUDA runs on whatever
  // CUDA_VISIBLE_DEVICES says. Never throws: where NVML or the device is not found, available() is false.
  explicit DriverProbe(const std::string& pci_bus_id);
  ~DriverProbe();
  DriverProbe(const DriverProbe&) = delete;
  DriverProbe& operator=(const DriverProbe&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& why_unavailable() const { return why_unavailable_; }
  const std::string& driver_release() const { return driver_release_; }  // empty when not available
  ClockReading current_clocks() const;                                    // all 0 when not available

 private:
  struct Nvml;  // the library's handle and entry points
  std::unique_ptr<Nvml> nvml_;
  void* device_ = nullptr;  // nvmlDevice_t
  std::string why_unavailable_;
  std::string driver_release_;
};

}  // namespace fft3d::bench
