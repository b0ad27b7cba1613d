// A build without the CUDA toolkit: GPU handles cannot be made; CPU handles work as everywhere.
#include "transform_handle.hpp"

namespace fft3d::c_api {
namespace {

[[noreturn]] void no_gpu_backend() {
  throw GpuUnavailable("this fft3d was built without the CUDA toolkit: only CPU transforms (fft3d_create_cpu)");
}

}  // namespace

std::unique_ptr<TransformHandle> make_gpu_handle(const TransformDesc&, int) { no_gpu_backend(); }
std::unique_ptr<TransformHandle> make_gpu_handle_from_file(const std::string&, int) { no_gpu_backend(); }

}  // namespace fft3d::c_api
