// The CPU backend behind a C API handle: host pointers, synchronous, no stream.
#include <utility>

#include "fft3d/cpu_transform.hpp"
#include "transform_handle.hpp"

namespace fft3d::c_api {
namespace {

class CpuHandle final : public TransformHandle {
 public:
  CpuHandle(const TransformDesc& desc, CpuTransform transform) : TransformHandle(desc), transform_(std::move(transform)) {}

  void execute(const void* in, void* out, const TransformOptions& options, void* stream) override {
    if (stream != nullptr) throw UsageError("a CPU transform runs on host memory and takes no stream (pass NULL)");
    const auto run = [&](auto typed_in, auto typed_out) { transform_.execute(typed_in, typed_out, options); };
    if (desc().precision == Precision::fp64)
      typed_execute<double>(desc().kind, in, out, run);
    else
      typed_execute<float>(desc().kind, in, out, run);
  }
  std::int64_t workspace_bytes(Placement) const override { return transform_.workspace_bytes(); }
  void set_workspace(void*, std::int64_t) override {
    throw UsageError("a CPU transform takes no caller's workspace: fft3d_set_workspace is for GPU handles");
  }
  const Plan& plan() const override { return transform_.plan(); }
  Backend backend() const override { return Backend::cpu; }
  int device() const override { return -1; }

 private:
  CpuTransform transform_;
};

}  // namespace

std::unique_ptr<TransformHandle> make_cpu_handle(const TransformDesc& desc, int threads) {
  return std::make_unique<CpuHandle>(desc, CpuTransform(desc, threads));
}

std::unique_ptr<TransformHandle> make_cpu_handle_from_file(const std::string& path, int threads) {
  CpuTransform transform = CpuTransform::from_file(path, threads);
  const TransformDesc desc = desc_of(transform.plan());
  return std::make_unique<CpuHandle>(desc, std::move(transform));
}

}  // namespace fft3d::c_api
