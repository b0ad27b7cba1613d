#include "bench/driver_probe.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <utility>

namespace fft3d::bench {
namespace {

// The few NVML entry points used here, declared from NVML's reference (its ABI is stable; the toolkit ships no
// nvml.h). nvmlReturn_t is an int enum, 0 is NVML_SUCCESS; nvmlDevice_t an opaque pointer.
using NvmlStatus = int;
using NvmlDevice = void*;
constexpr NvmlStatus nvml_success = 0;
constexpr int nvml_clock_sm = 1;   // nvmlClockType_t
constexpr int nvml_clock_mem = 2;

using InitFn = NvmlStatus (*)();
using ShutdownFn = NvmlStatus (*)();
using ErrorStringFn = const char* (*)(NvmlStatus);
using DriverVersionFn = NvmlStatus (*)(char*, unsigned);
using HandleByBusIdFn = NvmlStatus (*)(const char*, NvmlDevice*);
using ClockFn = NvmlStatus (*)(NvmlDevice, int, unsigned*);
using ReasonsFn = NvmlStatus (*)(NvmlDevice, unsigned long long*);

// (mask, name) for the reasons NVML defines (nvmlClocksEventReason*).
constexpr std::uint64_t reason_gpu_idle = 0x1;
constexpr std::pair<std::uint64_t, const char*> named_reasons[] = {
    {reason_gpu_idle, "gpu idle"},          {0x2, "applications clocks setting"}, {0x4, "sw power cap"},
    {0x8, "hw slowdown"},       {0x10, "sync boost"},                 {0x20, "sw thermal slowdown"},
    {0x40, "hw thermal slowdown"}, {0x80, "hw power brake slowdown"}, {0x100, "display clock setting"},
};

}  // namespace

struct DriverProbe::Nvml {
  void* library = nullptr;
  ShutdownFn shutdown = nullptr;
  ClockFn clock = nullptr;
  ReasonsFn reasons = nullptr;  // may stay null on drivers without either name
};

bool ClockReading::held() const { return (event_reasons & ~reason_gpu_idle) != 0; }

std::string describe_clock_event_reasons(std::uint64_t reasons) {
  if (reasons == 0) return "none";
  std::string text;
  for (const auto& [mask, name] : named_reasons) {
    if (!(reasons & mask)) continue;
    text += (text.empty() ? "" : ", ") + std::string(name);
    reasons &= ~mask;
  }
  if (reasons) {
    char rest[32];
    std::snprintf(rest, sizeof rest, "0x%llx", static_cast<unsigned long long>(reasons));
    text += (text.empty() ? "" : ", ") + std::string(rest);
  }
  return text;
}

DriverProbe::DriverProbe(const std::string& pci_bus_id) {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why_unavailable_ = "NVML (libnvidia-ml.so.1) not found";
    return;
  }
  const auto entry = [&](const char* name) { return dlsym(library, name); };
  const auto init = reinterpret_cast<InitFn>(entry("nvmlInit_v2"));
  const auto shutdown = reinterpret_cast<ShutdownFn>(entry("nvmlShutdown"));
  const auto error_string = reinterpret_cast<ErrorStringFn>(entry("nvmlErrorString"));
  const auto driver_version = reinterpret_cast<DriverVersionFn>(entry("nvmlSystemGetDriverVersion"));
  const auto handle_by_bus_id = reinterpret_cast<HandleByBusIdFn>(entry("nvmlDeviceGetHandleByPciBusId_v2"));
  const auto clock = reinterpret_cast<ClockFn>(entry("nvmlDeviceGetClockInfo"));
  auto reasons = reinterpret_cast<ReasonsFn>(entry("nvmlDeviceGetCurrentClocksEventReasons"));
  if (!reasons) reasons = reinterpret_cast<ReasonsFn>(entry("nvmlDeviceGetCurrentClocksThrottleReasons"));
  if (!init || !shutdown || !driver_version || !handle_by_bus_id || !clock) {
    why_unavailable_ = "NVML lacks an entry point fft3d reads";
    dlclose(library);
    return;
  }
  const auto failure = [&](const char* what, NvmlStatus status) {
    return std::string(what) + ": " + (error_string ? error_string(status) : "NVML error " + std::to_string(status));
  };
  if (const NvmlStatus status = init(); status != nvml_success) {
    why_unavailable_ = failure("nvmlInit", status);
    dlclose(library);
    return;
  }
  char release[96] = {};
  NvmlDevice device = nullptr;
  if (const NvmlStatus status = driver_version(release, sizeof release); status != nvml_success) {
    why_unavailable_ = failure("nvmlSystemGetDriverVersion", status);
  } else if (const NvmlStatus found = handle_by_bus_id(pci_bus_id.c_str(), &device); found != nvml_success) {
    why_unavailable_ = failure(("no NVML device at PCI bus id " + pci_bus_id).c_str(), found);
    device = nullptr;
  }
  if (!device) {
    shutdown();
    dlclose(library);
    return;
  }
  nvml_.reset(new Nvml{library, shutdown, clock, reasons});
  device_ = device;
  driver_release_ = release;
}

DriverProbe::~DriverProbe() {
  if (!nvml_) return;
  nvml_->shutdown();
  dlclose(nvml_->library);
}

ClockReading DriverProbe::current_clocks() const {
  ClockReading reading;
  if (!available()) return reading;
  unsigned mhz = 0;
  if (nvml_->clock(device_, nvml_clock_sm, &mhz) == nvml_success) reading.sm_mhz = static_cast<int>(mhz);
  if (nvml_->clock(device_, nvml_clock_mem, &mhz) == nvml_success) reading.memory_mhz = static_cast<int>(mhz);
  unsigned long long reasons = 0;
  if (nvml_->reasons && nvml_->reasons(device_, &reasons) == nvml_success) reading.event_reasons = reasons;
  return reading;
}

}  // namespace fft3d::bench
