// Typed errors of the CUDA backend. Nothing in the library exits the process.
#pragma once

#include <stdexcept>
#include <string>

namespace fft3d {

// A CUDA runtime call failed: names the call and the error code.
class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& call, int code, const std::string& what);
  const std::string& call() const { return call_; }
  int code() const { return code_; }

 private:
  std::string call_;
  int code_ = 0;
};

// No usable GPU or driver (cudaErrorNoDevice, cudaErrorInsufficientDriver, ...).
class GpuUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A device allocation failed or a volume cannot fit in device memory.
class OutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// NVRTC rejected a generated kernel; the source and the log were kept at source_path / log_path.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& what, std::string source_path, std::string log_path)
      : std::runtime_error(what), source_path_(std::move(source_path)), log_path_(std::move(log_path)) {}
  const std::string& source_path() const { return source_path_; }
  const std::string& log_path() const { return log_path_; }

 private:
  std::string source_path_;
  std::string log_path_;
};

}  // namespace fft3d
