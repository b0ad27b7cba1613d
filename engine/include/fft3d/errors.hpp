// The library's typed errors. Every one derives from fft3d::Error, so a caller may catch them all in one place;
// nothing in the library exits the process.
#pragma once

#include <stdexcept>
#include <string>

namespace fft3d {

// The base of every error fft3d throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad arguments to the library: an impossible size, an unknown profile, a missing file, a null pointer, a transform
// the library does not offer yet.
class UsageError : public Error {
 public:
  using Error::Error;
};

// A kernel that cannot be lowered onto its profile (tile over shared memory, too many threads). The message names
// the kernel and the numbers.
class LoweringError : public Error {
 public:
  using Error::Error;
};

// A CUDA runtime call failed: names the call and the error code.
class CudaError : public Error {
 public:
  CudaError(const std::string& call, int code, const std::string& what);
  const std::string& call() const { return call_; }
  int code() const { return code_; }

 private:
  std::string call_;
  int code_ = 0;
};

// No usable GPU or driver (cudaErrorNoDevice, cudaErrorInsufficientDriver, ...).
class GpuUnavailable : public Error {
 public:
  using Error::Error;
};

// A device allocation failed or a volume cannot fit in device memory.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

// NVRTC rejected a generated kernel; the source and the log were kept at source_path / log_path.
class CompileError : public Error {
 public:
  CompileError(const std::string& what, std::string source_path, std::string log_path)
      : Error(what), source_path_(std::move(source_path)), log_path_(std::move(log_path)) {}
  const std::string& source_path() const { return source_path_; }
  const std::string& log_path() const { return log_path_; }

 private:
  std::string source_path_;
  std::string log_path_;
};

// Throws the typed error of a failed CUDA runtime call (`code`, a cudaError_t other than cudaSuccess):
// GpuUnavailable (no device, no or old driver), OutOfMemory (an allocation) or CudaError. For code that calls the
// runtime beside fft3d, as validate/ and bench/ do. Defined in fft3d_cuda.
[[noreturn]] void throw_cuda_error(int code, const std::string& call);

}  // namespace fft3d
