/* fft3d's C API, in the spirit of cufft.h: opaque handles, plain C types, one status code per call. For languages
 * that bind C (the Python package loads libfft3d_c.so through ctypes). The C++ API is fft3d/fft3d.hpp.
 *
 *   fft3d_desc desc = fft3d_default_desc();
 *   desc.nx = desc.ny = desc.nz = 256;
 *   fft3d_handle fft;
 *   if (fft3d_create_gpu(&fft, &desc, FFT3D_CURRENT_DEVICE) != FFT3D_SUCCESS)
 *     fprintf(stderr, "fft3d: %s\n", fft3d_last_error());
 *   fft3d_execute(fft, d_in, d_out, FFT3D_FORWARD, FFT3D_SCALING_NONE, stream);   // device pointers, cudaStream_t
 *   fft3d_destroy(fft);
 *
 * Data layouts are the C++ API's (fft3d/gpu_transform.hpp): X contiguous, element (x, y, z) at x + NX*(y + NY*z);
 * complex values are interleaved (re, im) pairs of the precision's real type (cufftComplex, fftw_complex); a real
 * transform's half spectrum holds (NX/2+1)*NY*NZ complex values. Volumes of a batch lie one after another.
 *
 * Errors: every call returns an fft3d_status; fft3d_last_error() gives the message of the last call made on the
 * calling thread. Nothing here exits the process or lets a C++ exception through.
 * Threads: any thread may create and destroy handles; one handle executes on one thread at a time. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define FFT3D_C_EXPORT __declspec(dllexport)
#else
#define FFT3D_C_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header's ABI; fft3d_api_version() returns the library's, which must be equal. */
#define FFT3D_C_API_VERSION 2

/* One per exception class of the C++ API (fft3d/errors.hpp, fft3d/diagnostics.hpp). */
typedef enum fft3d_status {
  FFT3D_SUCCESS = 0,
  FFT3D_ERROR_USAGE = 1,           /* bad arguments: a size, a kind, a pointer, a direction, a handle of another backend */
  FFT3D_ERROR_PLAN = 2,            /* a plan file that does not parse or pass its checks (file:line:col in the message) */
  FFT3D_ERROR_LOWERING = 3,        /* a plan's kernel that cannot be lowered onto its profile */
  FFT3D_ERROR_COMPILE = 4,         /* NVRTC rejected a generated kernel */
  FFT3D_ERROR_CUDA = 5,            /* a CUDA runtime call failed */
  FFT3D_ERROR_GPU_UNAVAILABLE = 6, /* no usable GPU or driver, or a library built without the CUDA toolkit */
  FFT3D_ERROR_OUT_OF_MEMORY = 7,   /* a device or host allocation failed */
  FFT3D_ERROR_INTERNAL = 8         /* any other failure inside the library */
} fft3d_status;

typedef enum fft3d_kind { FFT3D_C2C = 0, FFT3D_R2C = 1, FFT3D_C2R = 2 } fft3d_kind;
typedef enum fft3d_precision { FFT3D_FP32 = 0, FFT3D_FP64 = 1 } fft3d_precision;
typedef enum fft3d_placement { FFT3D_OUT_OF_PLACE = 0, FFT3D_IN_PLACE = 1 } fft3d_placement;
/* Forward: sign e^(-2 pi i / n); inverse: the conjugate. R2C runs forward only, C2R inverse only. */
typedef enum fft3d_direction { FFT3D_FORWARD = 0, FFT3D_INVERSE = 1 } fft3d_direction;
/* None: the plain sums; full: times 1/(NX*NY*NZ); ortho: times 1/sqrt(NX*NY*NZ) (numpy's norm="ortho"). Each applied
   by the transform's last kernel, no pass of its own. */
typedef enum fft3d_scaling { FFT3D_SCALING_NONE = 0, FFT3D_SCALING_FULL = 1, FFT3D_SCALING_ORTHO = 2 } fft3d_scaling;
typedef enum fft3d_backend { FFT3D_BACKEND_GPU = 0, FFT3D_BACKEND_CPU = 1 } fft3d_backend;

/* fft3d_create_gpu's device: the calling thread's current CUDA device. */
#define FFT3D_CURRENT_DEVICE (-1)

/* What to transform (fft3d::TransformDesc): the extents of the transform (the real volume for R2C and C2R), the
 * kind, the precision of the data, how many volumes one execution transforms and the distance between their starts in
 * elements of the input's type (0: packed; C2C only), the placement the plan is chosen for (an execution with
 * in == out runs in place), and the distance between the output's volumes where it differs (cufftPlanMany's odist;
 * out of place, C2C; 0: batch_stride). */
typedef struct fft3d_desc {
  int64_t nx, ny, nz;
  fft3d_kind kind;
  fft3d_precision precision;
  int64_t batch;
  int64_t batch_stride;
  fft3d_placement placement;
  int64_t output_batch_stride;
} fft3d_desc;

typedef struct fft3d_transform* fft3d_handle;

/* {1, 1, 1, C2C, FP32, batch 1, stride 0, out of place, output stride 0}. */
FFT3D_C_EXPORT fft3d_desc fft3d_default_desc(void);
FFT3D_C_EXPORT int fft3d_api_version(void);

/* A transform on a CUDA device (`device`, or FFT3D_CURRENT_DEVICE), its kernels compiled for it: the plan remembered
 * as wisdom, else the device profile's table plan, else the default planner's. On failure *handle is NULL. */
FFT3D_C_EXPORT fft3d_status fft3d_create_gpu(fft3d_handle* handle, const fft3d_desc* desc, int device);
/* A transform on the CPU backend with `threads` host threads (0: all), running the plan the GPU would. */
FFT3D_C_EXPORT fft3d_status fft3d_create_cpu(fft3d_handle* handle, const fft3d_desc* desc, int threads);
/* The same from a YAML plan file (its size, kind, precision and batch; packed volumes). */
FFT3D_C_EXPORT fft3d_status fft3d_create_gpu_from_file(fft3d_handle* handle, const char* path, int device);
FFT3D_C_EXPORT fft3d_status fft3d_create_cpu_from_file(fft3d_handle* handle, const char* path, int threads);
/* Releases the handle and what it allocated; NULL is accepted. */
FFT3D_C_EXPORT fft3d_status fft3d_destroy(fft3d_handle handle);

/* What the handle transforms (for a plan file: its size, kind, precision and batch), its backend and its device
 * (the CUDA ordinal for a GPU handle, -1 for a CPU one). */
FFT3D_C_EXPORT fft3d_status fft3d_get_desc(fft3d_handle handle, fft3d_desc* desc);
FFT3D_C_EXPORT fft3d_status fft3d_get_backend(fft3d_handle handle, fft3d_backend* backend, int* device);
/* The plan the handle runs, as its YAML text; *text stays valid until the handle is destroyed. */
FFT3D_C_EXPORT fft3d_status fft3d_get_plan_text(fft3d_handle handle, const char** text);

/* Bytes beyond the data that an execution in `placement` needs (device bytes for a GPU handle, host bytes for a
 * CPU one); without fft3d_set_workspace a GPU handle allocates them at its first execution that needs them. */
FFT3D_C_EXPORT fft3d_status fft3d_get_workspace_size(fft3d_handle handle, fft3d_placement placement, size_t* bytes);
/* GPU handles: executions use `device_memory` (at least the workspace size, alive while they run). */
FFT3D_C_EXPORT fft3d_status fft3d_set_workspace(fft3d_handle handle, void* device_memory, size_t bytes);

/* Runs the transform over the whole batch: `in` and `out` are device pointers for a GPU handle (asynchronous on
 * `stream`, a cudaStream_t; NULL: the default stream) and host pointers for a CPU handle (synchronous; `stream`
 * must be NULL). Types by kind and precision: C2C complex in and out, R2C real in and complex out, C2R complex in
 * and real out. in == out runs in place (a real volume's rows then padded to 2*(NX/2+1) reals); out of place,
 * `in` is never written. */
FFT3D_C_EXPORT fft3d_status fft3d_execute(fft3d_handle handle, const void* in, void* out, fft3d_direction direction,
                                          fft3d_scaling scaling, void* stream);

/* The message of the last call made on this thread: empty after a success. Valid until this thread's next call. */
FFT3D_C_EXPORT const char* fft3d_last_error(void);
/* "FFT3D_ERROR_USAGE", ...: the enumerator's name; "FFT3D_STATUS_UNKNOWN" for another value. */
FFT3D_C_EXPORT const char* fft3d_status_name(fft3d_status status);

#ifdef __cplusplus
}
#endif
