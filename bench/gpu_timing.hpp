// Timing on the GPU with CUDA events, the memcpy ceiling and the cuFFT competitor, measured in the same process as
// fft3d. CUDA types stay out of this header (streams are void*).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"

namespace fft3d::bench {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  std::vector<double> samples_ms;  // every timed sample, per run, sorted
  int batch = 1;                   // runs per sample, back to back between one pair of events
  double enqueue_ms = 0;           // median host time to issue one run: near median_ms, the host bounds the time
};

// What a benchmark records about the GPU it ran on.
struct GpuInfo {
  std::string name;
  int multiprocessors = 0;
  double memory_gib = 0;
  int sm_clock_mhz = 0;          // peak, as the device reports it
  int memory_clock_mhz = 0;      // peak
  int cuda_driver_version = 0;   // the CUDA version the driver supports, e.g. 13000
  int runtime_version = 0;
  std::string pci_bus_id;        // for DriverProbe
  std::string driver_release;    // the driver's own version (DriverProbe), e.g. 580.159.04; or why it is not known
};
GpuInfo gpu_info();

// Creates the CUDA context of the current device (the first runtime call that needs one pays for it) and returns
// the milliseconds that took, so that a plan's own setup can be timed apart from it.
double create_cuda_context_ms();

// Runs `body(stream)` `warmup` times, then takes `repeats` samples with CUDA events on `stream`, each the time per
// run of a batch of back-to-back runs lasting at least `min_sample_ms` in all (0: single runs; the batch is sized
// from a timed single run). Short runs are then timed as a stream of them runs, not by the launch latency of their
// first kernel, and the GPU stays busy between samples; before a batched measurement the runs go on for at least
// warm_up_ms, so the clocks have left idle. `before_each` (optional) runs before every run, outside the timed
// region, e.g. to restore an in-place input; it forces single runs.
constexpr double warm_up_ms = 20.0;
constexpr double batched_sample_ms = 1.0;  // the benchmarks' min_sample_ms
Timing time_on_gpu(const std::function<void(void* stream)>& body, int warmup, int repeats, void* stream = nullptr,
                   const std::function<void(void* stream)>& before_each = {}, double min_sample_ms = 0.0);

// The timings of one body on several buffer pairs as one: every sample of every part, its median, min and max; the
// first part's batch; the median of the parts' enqueue times. Throws std::invalid_argument when no part has samples.
Timing pooled(const std::vector<Timing>& parts);
// Device-to-device copy bandwidth of a buffer of `bytes`, in GB/s counting bytes read plus bytes written
// (the ceiling one read and one write of the volume can reach). Allocates 2 x bytes for the measurement.
double memcpy_gbytes_per_second(std::int64_t bytes, int repeats = 20);

// cuFFT C2C (fp32) or Z2Z (fp64) for a volume, planned once: the competitor timed on fft3d's own buffers.
class CufftC2C {
 public:
  // `batch` packed volumes (cufftPlanMany) where over 1.
  explicit CufftC2C(const Extents& size, Precision precision = Precision::fp32, std::int64_t batch = 1);
  ~CufftC2C();
  CufftC2C(const CufftC2C&) = delete;
  CufftC2C& operator=(const CufftC2C&) = delete;
  // Device pointers of float2 (double2 for fp64); in == out runs in place. cuFFT never scales.
  void execute(const void* in, void* out, Direction direction, void* stream = nullptr);
  std::size_t workspace_bytes() const;

 private:
  Precision precision_;
  int handle_ = 0;
  std::size_t workspace_ = 0;
};

// cuFFT R2C or C2R (fp32; D2Z or Z2D for fp64) for a real volume (NX even), planned once, FFTW's layouts (in place:
// rows padded to 2*(NX/2+1) reals): the competitor of the real transforms, timed on fft3d's own buffers.
class CufftReal {
 public:
  // r2c or c2r; UsageError for c2c. A batch over 1 is `batch` packed volumes (cufftPlanMany), each volume's real
  // array in `placement`'s layout and its half spectrum packed, as fft3d's real batches lay them out.
  CufftReal(const Extents& size, TransformKind kind, Precision precision = Precision::fp32,
            Placement placement = Placement::out_of_place, std::int64_t batch = 1);
  ~CufftReal();
  CufftReal(const CufftReal&) = delete;
  CufftReal& operator=(const CufftReal&) = delete;
  // R2C: `in` reals, `out` the half spectrum (float2); C2R the reverse. in == out runs in place. cuFFT never scales,
  // and its multi-dimensional C2R may overwrite its input, out of place too.
  void execute(const void* in, void* out, void* stream = nullptr);

 private:
  TransformKind kind_;
  Precision precision_;
  int handle_ = 0;
};

}  // namespace fft3d::bench
