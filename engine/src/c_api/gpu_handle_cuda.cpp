// The GPU backend behind a C API handle: device pointers, asynchronous on the caller's stream, on the device the
// handle was made on (made current for each call, the caller's current device restored after it).
#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "fft3d/gpu_transform.hpp"
#include "transform_handle.hpp"

namespace fft3d::c_api {
namespace {

int current_device() {
  int device = 0;
  if (const cudaError_t code = cudaGetDevice(&device); code != cudaSuccess) throw_cuda_error(code, "cudaGetDevice");
  return device;
}

// Makes `device` current for the scope; the previous current device comes back at its end.
class DeviceScope {
 public:
  explicit DeviceScope(int device) : saved_(current_device()) {
    if (device == saved_) return;
    if (const cudaError_t code = cudaSetDevice(device); code != cudaSuccess)
      throw_cuda_error(code, "cudaSetDevice(" + std::to_string(device) + ")");
    restore_ = true;
  }
  ~DeviceScope() {
    if (restore_) cudaSetDevice(saved_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int saved_;
  bool restore_ = false;
};

class GpuHandle final : public TransformHandle {
 public:
  GpuHandle(const TransformDesc& desc, int device, GpuTransform transform)
      : TransformHandle(desc), device_(device), transform_(std::move(transform)) {}
  ~GpuHandle() override {
    // The transform frees its device memory on its own device.
    try {
      DeviceScope scope(device_);
      GpuTransform released = std::move(transform_);
    } catch (const Error&) {
    }
  }

  void execute(const void* in, void* out, const TransformOptions& options, void* stream) override {
    DeviceScope scope(device_);
    const Stream cuda_stream = static_cast<Stream>(stream);
    const auto run = [&](auto typed_in, auto typed_out) {
      transform_.execute(typed_in, typed_out, options, cuda_stream);
    };
    if (desc().precision == Precision::fp64)
      typed_execute<double>(desc().kind, in, out, run);
    else
      typed_execute<float>(desc().kind, in, out, run);
  }
  std::int64_t workspace_bytes(Placement placement) const override {
    return transform_.workspace_bytes(Order::natural, placement);
  }
  void set_workspace(void* device_memory, std::int64_t bytes) override {
    transform_.set_workspace(device_memory, bytes);
  }
  const Plan& plan() const override { return transform_.plan(); }
  Backend backend() const override { return Backend::gpu; }
  int device() const override { return device_; }

 private:
  int device_;
  GpuTransform transform_;
};

int resolve_device(int device) { return device < 0 ? current_device() : device; }

}  // namespace

std::unique_ptr<TransformHandle> make_gpu_handle(const TransformDesc& desc, int device) {
  const int resolved = resolve_device(device);
  DeviceScope scope(resolved);
  return std::make_unique<GpuHandle>(desc, resolved, GpuTransform(desc));
}

std::unique_ptr<TransformHandle> make_gpu_handle_from_file(const std::string& path, int device) {
  const int resolved = resolve_device(device);
  DeviceScope scope(resolved);
  GpuTransform transform = GpuTransform::from_file(path);
  const TransformDesc desc = desc_of(transform.plan());
  return std::make_unique<GpuHandle>(desc, resolved, std::move(transform));
}

}  // namespace fft3d::c_api
