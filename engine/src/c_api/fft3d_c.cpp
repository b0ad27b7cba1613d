// The C API over the C++ API: arguments checked and converted to TransformDesc and TransformOptions, every C++
// exception caught and turned into a status and this thread's message.
#include "fft3d/fft3d_c.h"

#include <array>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "fft3d/diagnostics.hpp"
#include "fft3d/errors.hpp"
#include "transform_handle.hpp"

struct fft3d_transform {
  std::unique_ptr<fft3d::c_api::TransformHandle> transform;
};

namespace fft3d::c_api {
namespace {

thread_local std::string last_error;

constexpr std::array<std::pair<fft3d_status, const char*>, 9> status_names{{
    {FFT3D_SUCCESS, "FFT3D_SUCCESS"},
    {FFT3D_ERROR_USAGE, "FFT3D_ERROR_USAGE"},
    {FFT3D_ERROR_PLAN, "FFT3D_ERROR_PLAN"},
    {FFT3D_ERROR_LOWERING, "FFT3D_ERROR_LOWERING"},
    {FFT3D_ERROR_COMPILE, "FFT3D_ERROR_COMPILE"},
    {FFT3D_ERROR_CUDA, "FFT3D_ERROR_CUDA"},
    {FFT3D_ERROR_GPU_UNAVAILABLE, "FFT3D_ERROR_GPU_UNAVAILABLE"},
    {FFT3D_ERROR_OUT_OF_MEMORY, "FFT3D_ERROR_OUT_OF_MEMORY"},
    {FFT3D_ERROR_INTERNAL, "FFT3D_ERROR_INTERNAL"},
}};

fft3d_status fail(fft3d_status status, const char* message) {
  try {
    last_error = message;
  } catch (...) {
    last_error.clear();  // no memory left for the message: the status still says what happened
  }
  return status;
}

// Runs `body`, the whole of one C call: FFT3D_SUCCESS and an empty message, or the status of the C++ exception it
// threw (most derived class first) and its message.
template <class Body>
fft3d_status guarded(Body&& body) noexcept {
  try {
    body();
    last_error.clear();
    return FFT3D_SUCCESS;
  } catch (const PlanError& e) {
    return fail(FFT3D_ERROR_PLAN, e.what());
  } catch (const UsageError& e) {
    return fail(FFT3D_ERROR_USAGE, e.what());
  } catch (const LoweringError& e) {
    return fail(FFT3D_ERROR_LOWERING, e.what());
  } catch (const CompileError& e) {
    return fail(FFT3D_ERROR_COMPILE, e.what());
  } catch (const GpuUnavailable& e) {
    return fail(FFT3D_ERROR_GPU_UNAVAILABLE, e.what());
  } catch (const OutOfMemory& e) {
    return fail(FFT3D_ERROR_OUT_OF_MEMORY, e.what());
  } catch (const CudaError& e) {
    return fail(FFT3D_ERROR_CUDA, e.what());
  } catch (const std::bad_alloc&) {
    return fail(FFT3D_ERROR_OUT_OF_MEMORY, "a host allocation failed");
  } catch (const std::exception& e) {
    return fail(FFT3D_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(FFT3D_ERROR_INTERNAL, "an unknown exception");
  }
}

template <class Value>
Value& required(Value* pointer, const char* name) {
  if (pointer == nullptr) throw UsageError(std::string(name) + " is NULL");
  return *pointer;
}

std::string path_of(const char* path) {
  if (path == nullptr) throw UsageError("the plan file path is NULL");
  return path;
}

TransformHandle& transform_of(fft3d_handle handle) {
  if (handle == nullptr || !handle->transform) throw UsageError("the fft3d_handle is NULL");
  return *handle->transform;
}

// An enumerator of the C header: a value outside [0, count) is refused, naming the argument.
void require_enum(int value, int count, const char* name) {
  if (value < 0 || value >= count)
    throw UsageError(std::string(name) + " = " + std::to_string(value) + ": not one of its " + std::to_string(count) +
                     " enumerators");
}

TransformDesc to_desc(const fft3d_desc& c) {
  require_enum(c.kind, 3, "fft3d_desc.kind");
  require_enum(c.precision, 2, "fft3d_desc.precision");
  require_enum(c.placement, 2, "fft3d_desc.placement");
  static constexpr std::array kinds{TransformKind::c2c, TransformKind::r2c, TransformKind::c2r};
  return {.extents = {c.nx, c.ny, c.nz},
          .kind = kinds[c.kind],
          .precision = c.precision == FFT3D_FP64 ? Precision::fp64 : Precision::fp32,
          .batch = c.batch,
          .batch_stride = c.batch_stride,
          .output_batch_stride = c.output_batch_stride,
          .placement = c.placement == FFT3D_IN_PLACE ? Placement::in_place : Placement::out_of_place};
}

fft3d_desc to_c(const TransformDesc& desc) {
  fft3d_desc c = fft3d_default_desc();
  c.nx = desc.extents.nx;
  c.ny = desc.extents.ny;
  c.nz = desc.extents.nz;
  c.kind = desc.kind == TransformKind::r2c ? FFT3D_R2C : desc.kind == TransformKind::c2r ? FFT3D_C2R : FFT3D_C2C;
  c.precision = desc.precision == Precision::fp64 ? FFT3D_FP64 : FFT3D_FP32;
  c.batch = desc.batch;
  c.batch_stride = desc.batch_stride;
  c.placement = desc.placement == Placement::in_place ? FFT3D_IN_PLACE : FFT3D_OUT_OF_PLACE;
  c.output_batch_stride = desc.output_batch_stride;
  return c;
}

// Creates *handle with `make`; *handle is NULL unless it succeeds.
template <class Make>
fft3d_status create(fft3d_handle* handle, Make&& make) {
  if (handle != nullptr) *handle = nullptr;
  return guarded([&] {
    auto transform = make();
    required(handle, "the handle pointer") = new fft3d_transform{std::move(transform)};
  });
}

}  // namespace
}  // namespace fft3d::c_api

using namespace fft3d::c_api;

extern "C" {

fft3d_desc fft3d_default_desc(void) {
  return {.nx = 1,
          .ny = 1,
          .nz = 1,
          .kind = FFT3D_C2C,
          .precision = FFT3D_FP32,
          .batch = 1,
          .batch_stride = 0,
          .placement = FFT3D_OUT_OF_PLACE,
          .output_batch_stride = 0};
}

int fft3d_api_version(void) { return FFT3D_C_API_VERSION; }

fft3d_status fft3d_create_gpu(fft3d_handle* handle, const fft3d_desc* desc, int device) {
  return create(handle, [&] { return make_gpu_handle(to_desc(required(desc, "the fft3d_desc")), device); });
}

fft3d_status fft3d_create_cpu(fft3d_handle* handle, const fft3d_desc* desc, int threads) {
  return create(handle, [&] { return make_cpu_handle(to_desc(required(desc, "the fft3d_desc")), threads); });
}

fft3d_status fft3d_create_gpu_from_file(fft3d_handle* handle, const char* path, int device) {
  return create(handle, [&] { return make_gpu_handle_from_file(path_of(path), device); });
}

fft3d_status fft3d_create_cpu_from_file(fft3d_handle* handle, const char* path, int threads) {
  return create(handle, [&] { return make_cpu_handle_from_file(path_of(path), threads); });
}

fft3d_status fft3d_destroy(fft3d_handle handle) {
  return guarded([&] { delete handle; });
}

fft3d_status fft3d_get_desc(fft3d_handle handle, fft3d_desc* desc) {
  return guarded([&] { required(desc, "the fft3d_desc pointer") = to_c(transform_of(handle).desc()); });
}

fft3d_status fft3d_get_backend(fft3d_handle handle, fft3d_backend* backend, int* device) {
  return guarded([&] {
    const TransformHandle& transform = transform_of(handle);
    required(backend, "the backend pointer") = transform.backend() == Backend::gpu ? FFT3D_BACKEND_GPU : FFT3D_BACKEND_CPU;
    required(device, "the device pointer") = transform.device();
  });
}

fft3d_status fft3d_get_plan_text(fft3d_handle handle, const char** text) {
  return guarded([&] { required(text, "the text pointer") = transform_of(handle).plan_text().c_str(); });
}

fft3d_status fft3d_get_workspace_size(fft3d_handle handle, fft3d_placement placement, size_t* bytes) {
  return guarded([&] {
    require_enum(placement, 2, "placement");
    const auto where = placement == FFT3D_IN_PLACE ? fft3d::Placement::in_place : fft3d::Placement::out_of_place;
    required(bytes, "the bytes pointer") = static_cast<size_t>(transform_of(handle).workspace_bytes(where));
  });
}

fft3d_status fft3d_set_workspace(fft3d_handle handle, void* device_memory, size_t bytes) {
  return guarded([&] {
    if (bytes > static_cast<size_t>(std::numeric_limits<std::int64_t>::max()))
      throw fft3d::UsageError("workspace of " + std::to_string(bytes) + " bytes: more than any device holds");
    transform_of(handle).set_workspace(device_memory, static_cast<std::int64_t>(bytes));
  });
}

fft3d_status fft3d_execute(fft3d_handle handle, const void* in, void* out, fft3d_direction direction,
                           fft3d_scaling scaling, void* stream) {
  return guarded([&] {
    require_enum(direction, 2, "direction");
    require_enum(scaling, 3, "scaling");
    if (in == nullptr || out == nullptr) throw fft3d::UsageError("a NULL data pointer (in or out)");
    const fft3d::TransformOptions options{
        .direction = direction == FFT3D_INVERSE ? fft3d::Direction::inverse : fft3d::Direction::forward,
        .scaling = scaling == FFT3D_SCALING_FULL    ? fft3d::Scaling::full
                   : scaling == FFT3D_SCALING_ORTHO ? fft3d::Scaling::ortho
                                                    : fft3d::Scaling::none};
    transform_of(handle).execute(in, out, options, stream);
  });
}

const char* fft3d_last_error(void) { return last_error.c_str(); }

const char* fft3d_status_name(fft3d_status status) {
  for (const auto& [value, name] : status_names)
    if (value == status) return name;
  return "FFT3D_STATUS_UNKNOWN";
}

}  // extern "C"
