// The backends `fft3d run` can use, behind one signature.
#pragma once

#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::cli {

using Volume = std::vector<std::complex<double>>;

struct RunSettings {
  TransformOptions options;
  Precision precision = Precision::fp64;
  bool in_place = false;
  int repeats = 1;
  int threads = 0;
};

// Transforms `in` into `out` (out arrives poisoned with NaN) `repeats` times; returns the seconds of each run,
// the transform alone. The result is in settings.options.order, as the backend left it.
using Runner = std::function<std::vector<double>(const Volume& in, Volume& out, const RunSettings& settings)>;

struct Backend {
  std::string name;
  bool available = false;
  std::string why_not;  // when unavailable
  double error_bound_fp64 = 0;
  double error_bound_fp32 = 0;
  Runner run;
};

// The backend named `name` ("cpu", "cuda") for `plan`, or for "auto" CUDA where a GPU and the CUDA backend exist,
// else the CPU.
Backend select_backend(const std::string& name, const Plan& plan);

}  // namespace fft3d::cli
