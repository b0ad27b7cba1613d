// The checks of `fft3d run --gpus G` that need no GPU, and its stand-in in a build without CUDA.
#include "commands.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"
#include "multi_gpu_run.hpp"

namespace fft3d::cli {

void check_multi_gpu_run_settings(const MultiGpuRunSettings& settings) {
  if (settings.gpus < 1 || settings.gpus > max_slab_gpus)
    throw UsageError("--gpus " + std::to_string(settings.gpus) + ": the slab decomposition runs on 1 to " +
                     std::to_string(max_slab_gpus) + " GPUs");
  if (settings.options.order != Order::natural)
    throw UsageError("--gpus: the multi-GPU transform runs in natural order (its layout is --layout)");
  if (settings.check != "auto" && settings.check != "oracle" && settings.check != "plane-waves")
    throw UsageError("--check must be auto, oracle or plane-waves");
  require_slab_split(settings.size, settings.gpus);
  require_even_real_rows(settings.size, settings.kind, "--gpus");
  const bool forward = settings.options.direction == Direction::forward;
  if (settings.kind != TransformKind::c2c && forward != (settings.kind == TransformKind::r2c))
    throw UsageError("--gpus: --transform r2c runs forward and c2r inverse (no --inverse with r2c)");
  if (settings.kind == TransformKind::c2r && settings.check == "plane-waves")
    throw UsageError("--check plane-waves checks c2c and r2c (forward) transforms; a c2r run takes the oracle");
  if (settings.check == "plane-waves" &&
      (settings.options.direction != Direction::forward || settings.options.scaling != Scaling::none))
    throw UsageError("--check plane-waves checks the forward transform, unscaled (no --inverse, no --scaling)");
}

#ifndef FFT3D_HAVE_CUDA
int run_multi_gpu(const MultiGpuRunSettings&) {
  throw GpuUnavailable("--gpus: this build has no CUDA backend, so it runs on no GPU (no CUDA toolkit was found "
                       "at build time)");
}
#endif

}  // namespace fft3d::cli
