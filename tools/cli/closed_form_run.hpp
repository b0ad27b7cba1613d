// `fft3d run` checked in closed form (plane waves) on the GPU: for volumes whose fp64 oracle fits neither the host
// nor the device, or when asked with --check plane-waves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "commands.hpp"
#include "validate/oracle.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::cli {

struct ClosedFormSettings {
  std::uint64_t seed = 1;  // of the waves' frequencies and amplitudes
  int repeats = 1;
  double bound = validate::fp32_error_bound;  // relative L2
  bool per_kernel = false; // each kernel's time and its copy twin's, after the transform's
  std::optional<Extents> asked_size;  // as RunSettings::asked_size: the size cuFFT is planned at, if not the plan's
};

// Runs in place, natural order; returns the exit code. Throws GpuUnavailable, OutOfMemory (the volume or a
// workspace does not fit), UsageError.
int run_closed_form_on_cuda(const Plan& plan, const std::string& how, const ClosedFormSettings& settings);

// A real plan (R2C, fp32) checked in closed form in place, padded rows: real plane waves in conjugate pairs, the
// half spectrum against its spikes, then `c2r` (the C2R plan of the same size, in place) scaled back against the
// reals; only then fft3d's R2C and cuFFT's, timed in place on the same buffer. Returns the exit code; throws as
// run_closed_form_on_cuda.
int run_real_closed_form_on_cuda(const Plan& r2c, const std::string& how, const Plan& c2r,
                                 const std::string& c2r_how, const ClosedFormSettings& settings);

}  // namespace fft3d::cli
