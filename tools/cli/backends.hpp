// The backends `fft3d run` can use, behind one signature.
#pragma once

#include <complex>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::cli {

using Volume = std::vector<std::complex<double>>;
using RealVolume = std::vector<double>;

struct RunSettings {
  TransformOptions options;
  Precision precision = Precision::fp64;
  bool in_place = false;
  int repeats = 1;
  int threads = 0;
  bool per_kernel = false;  // CUDA: each kernel's time and bandwidth, and its copy twin's
  // The size --size asked for, where the plan has another (its unit axes squeezed, plan_for_size): cuFFT, the rival
  // in the report, is planned at it, so that it runs the shape the user has. None: the plan's size.
  std::optional<Extents> asked_size;
};

// Transforms `in` into `out` (out arrives poisoned with NaN, and the backend poisons its own buffers too) and times
// `repeats` runs of the transform alone; returns the seconds of each. The result is in settings.options.order.
using Runner = std::function<std::vector<double>(const Volume& in, Volume& out, const RunSettings& settings)>;
// A real transform (the plan's kind: R2C forward, C2R inverse in settings.options.direction): R2C reads `reals`
// (NX*NY*NZ) and writes `spectrum` ((NX/2+1)*NY*NZ), C2R the other way; the output arrives poisoned with NaN. In
// place the backend stages the data in one buffer of padded rows (2*(NX/2+1) reals each). Times `repeats` runs like
// Runner; throws std::runtime_error when an out-of-place C2R wrote its input.
using RealRunner = std::function<std::vector<double>(RealVolume& reals, Volume& spectrum, const RunSettings& settings)>;
// The fp64 oracle the backend is checked against: natural order, the given direction and scaling.
using Reference = std::function<void(const Extents& size, std::span<const std::complex<double>> in,
                                     std::span<std::complex<double>> out, Direction, Scaling)>;
// Reads and writes of the whole volume one run with these settings makes (0: one per plan kernel).
using VolumePasses = std::function<std::int64_t(const RunSettings& settings)>;
// The relative L2 error a result in `precision` must stay within against the fp64 oracle; none where the backend
// has no such mode.
using ErrorBound = std::function<std::optional<double>(Precision precision)>;
// Lines the report adds once the check has passed (the competitor in the same run, per-kernel figures).
using ExtraReport = std::function<void(const RunSettings& settings, double median_seconds, std::ostream& out)>;

struct Backend {
  std::string name;
  bool available = false;
  std::string why_not;  // when unavailable
  ErrorBound error_bound;
  Runner run;
  Reference reference;
  ExtraReport extra_report;  // may be empty
  VolumePasses volume_passes;  // may be empty: one pass per plan kernel
  RealRunner run_real;         // for a real plan; checked against the FFTW fp64 oracle (validate/oracle.hpp)
  std::function<void(std::ostream& out)> real_report;  // may be empty: lines after a real run's passed check
};

// The backend named `name` ("cpu", "cuda") for `plan`, or for "auto" CUDA where a GPU and the CUDA backend exist,
// else the CPU.
Backend select_backend(const std::string& name, const Plan& plan, const std::string& plan_name);

// The bounds of the CPU backend (fp64: 1e-12, far above fp64 round-off and far below the error of any wrong index
// or twiddle; fp32: the fp32 bound of validate/oracle.hpp) and of the CUDA one (fp32 only).
std::optional<double> cpu_error_bound(Precision precision);
std::optional<double> cuda_error_bound(Precision precision);

// The CUDA backend (cuda_backend.cpp), or an unavailable one saying why: a build without CUDA, no GPU here.
Backend make_cuda_backend(const Plan& plan, const std::string& plan_name);

// The current GPU's device name (current_device_name), which names its own tuning table; empty where this build
// has no CUDA backend or the machine no GPU (the plan then comes from the arch's table, as on the CPU).
std::string gpu_device_name();

}  // namespace fft3d::cli
