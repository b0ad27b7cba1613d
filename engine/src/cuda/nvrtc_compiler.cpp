// NVRTC: generated source to CUBIN for sm_<arch>, through the disk cache.
#include <nvrtc.h>

#include <chrono>

#include "fft3d/arch_profile.hpp"
#include "cache_files.hpp"
#include "cuda/cuda_compiler.hpp"
#include "fft3d/errors.hpp"
#include "emit/cuda_source.hpp"
#include "kernel_cache.hpp"

namespace fft3d {
namespace {

void check_nvrtc(nvrtcResult result, const std::string& call) {
  if (result != NVRTC_SUCCESS) throw CudaError(call, static_cast<int>(result), nvrtcGetErrorString(result));
}

// An NVRTC program, destroyed on every path (a failed compile or a failed call in between throws).
class Program {
 public:
  Program(const std::string& source, const std::string& file_name) {
    check_nvrtc(nvrtcCreateProgram(&program_, source.c_str(), file_name.c_str(), 0, nullptr, nullptr),
                "nvrtcCreateProgram");
  }
  ~Program() { nvrtcDestroyProgram(&program_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return program_; }

 private:
  nvrtcProgram program_ = nullptr;
};

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  check_nvrtc(nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check_nvrtc(nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

// Compiles; returns the CUBIN, or throws CompileError after saving the source and log under `key`.
std::string run_nvrtc(const std::string& source, const std::string& name, const std::vector<std::string>& options,
                      std::uint64_t key, std::string& log) {
  const Program program(source, name + ".cu");
  std::vector<const char*> argv;
  for (const std::string& option : options) argv.push_back(option.c_str());
  const nvrtcResult result = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
  log = program_log(program.get());
  if (result != NVRTC_SUCCESS) {
    const std::string source_path = cache::entry_path(key, "failed.cu");
    const std::string log_path = cache::entry_path(key, "failed.log");
    write_file_atomically(source_path, source);
    write_file_atomically(log_path, log);
    throw CompileError("NVRTC failed to compile " + name + " (" + nvrtcGetErrorString(result) + "); source kept at " +
                           source_path + ", log at " + log_path,
                       source_path, log_path);
  }
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(program.get(), &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  check_nvrtc(nvrtcGetCUBIN(program.get(), cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

}  // namespace

std::string nvrtc_version_text() {
  int major = 0, minor = 0;
  check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_options(int arch, int max_registers_per_thread) {
  std::vector<std::string> options = {"--gpu-architecture=sm_" + std::to_string(arch), "--std=c++17",
                                      "--ptxas-options=-v"};
  if (max_registers_per_thread < 255) options.push_back("--maxrregcount=" + std::to_string(max_registers_per_thread));
  return options;
}

std::uint64_t kernel_cache_key(const std::string& compiled_source, const std::vector<std::string>& options,
                               const std::string& nvrtc_version) {
  std::string key_material = compiled_source + "\nnvrtc " + nvrtc_version;
  for (const std::string& option : options) key_material += "\n" + option;
  return fnv1a(key_material);
}

namespace {

// `source` compiled with `options`, or loaded from the cache under kernel_cache_key.
CompiledKernel compile_cached(const std::string& source, const std::string& entry_name,
                              const std::vector<std::string>& options) {
  const std::uint64_t key = kernel_cache_key(source, options, nvrtc_version_text());
  const std::string cubin_path = cache::entry_path(key, "cubin");
  const std::string log_path = cache::entry_path(key, "log");

  CompiledKernel compiled;
  compiled.entry_name = entry_name;
  if (auto cached = cache::read_file(cubin_path)) {
    compiled.cubin.assign(cached->begin(), cached->end());
    compiled.report = parse_ptxas_log(cache::read_file(log_path).value_or(""));
    compiled.report.from_cache = true;
  } else {
    std::string log;
    const auto start = std::chrono::steady_clock::now();
    const std::string cubin = run_nvrtc(source, compiled.entry_name, options, key, log);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    write_file_atomically(log_path, log);
    write_file_atomically(cubin_path, cubin);
    compiled.cubin.assign(cubin.begin(), cubin.end());
    compiled.report = parse_ptxas_log(log);
    compiled.report.compile_ms = ms;
  }
  compiled.report.cubin_path = cubin_path;
  return compiled;
}

}  // namespace

CompiledKernel compile_kernel(const KernelSpec& spec, int arch) {
  const std::optional<ArchProfile> profile = find_arch_profile(spec.profile);
  return compile_cached(emit_compiled_source(spec), spec.entry_name(),
                        nvrtc_options(arch, profile ? profile->max_registers_per_thread : 255));
}

CompiledKernel compile_source(const std::string& source, const std::string& entry_name, int arch) {
  return compile_cached(source, entry_name, nvrtc_options(arch));
}

}  // namespace fft3d
