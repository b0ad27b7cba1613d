// `fft3d run --gpus G`: fft3d's MultiGpuTransform on devices 0..G-1 of this process, on random data scattered to
// the slabs and checked against the fp64 oracle (cuFFT Z2Z on one GPU, else FFTW) gathered from the GPUs, or, for
// volumes whose oracle fits nowhere, in closed form (plane waves, slab by slab); then its round trip; timed only
// once both passed.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>

#include "bench/gpu_timing.hpp"
#include "bench/multi_gpu_check.hpp"
#include "bench/multi_gpu_devices.hpp"
#include "commands.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/plan_cost.hpp"
#include "multi_gpu_run.hpp"
#include "report_lines.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::cli {
namespace {

using Volume = std::vector<std::complex<double>>;
constexpr int warmup_runs = 1;
constexpr int wave_count = 4;
constexpr std::int64_t max_memcpy_bytes = std::int64_t{2} << 30;  // the ceiling's buffers: at most 2 x 2 GiB

Direction opposite(Direction d) { return d == Direction::forward ? Direction::inverse : Direction::forward; }

// The layout a direction reads and the one it writes.
SlabLayout input_layout(const MultiGpuRunSettings& s, Direction d) {
  return d == Direction::forward ? SlabLayout::natural : s.layout;
}
SlabLayout output_layout(const MultiGpuRunSettings& s, Direction d) {
  return d == Direction::forward ? s.layout : SlabLayout::natural;
}

std::string layout_name(SlabLayout layout) { return layout == SlabLayout::natural ? "natural" : "y_slabs"; }

// The run's buffers and transforms: `in` and `out` (the same buffers in place) on every device.
struct Session {
  const MultiGpuRunSettings& settings;
  std::vector<int> devices;
  MultiGpuTransform fft;
  std::unique_ptr<bench::PerDeviceBuffers> in, separate_out;
  bench::PerDeviceBuffers& out() { return separate_out ? *separate_out : *in; }
  void run(const TransformOptions& options) { execute(*in, out(), options); }
  // The opposite transform, from `out` back into `in` (in place when they are one).
  TransformOptions back() const {
    return {opposite(settings.options.direction), Order::natural, round_trip_scaling(settings.options.scaling)};
  }
  void run_back() { execute(out(), *in, back()); }
  // The transform from `from` into `to`, as values of its precision.
  void execute(const bench::PerDeviceBuffers& from, bench::PerDeviceBuffers& to, const TransformOptions& options) {
    if (fft.precision() == Precision::fp64)
      return fft.execute(from.const_pointers<DeviceComplex64>(), to.pointers<DeviceComplex64>(), options);
    fft.execute(from.const_pointers(), to.pointers(), options);
  }
};

std::vector<int> first_devices(int gpus) {
  std::vector<int> devices;
  for (int g = 0; g < gpus; ++g) devices.push_back(g);
  return devices;
}

bool check_against_oracle(Session& s) {
  const MultiGpuRunSettings& st = s.settings;
  const Direction direction = st.options.direction;
  Volume input(static_cast<std::size_t>(st.size.elements())), output(input.size()), reference(input.size());
  validate::fill_random(input, st.seed);
  bench::scatter(input, st.size, input_layout(st, direction), *s.in);
  if (s.separate_out) s.separate_out->poison_nan();
  s.run(st.options);
  bench::gather(s.out(), st.size, output_layout(st, direction), output);
  try {
    validate::cufft_reference(st.size, input, reference, direction, st.options.scaling);
    std::cout << "oracle    cuFFT Z2Z fp64 on one GPU, the result gathered from the " << st.gpus << " GPUs\n";
  } catch (const OutOfMemory&) {
    validate::fftw_reference(st.size, input, reference, direction, st.options.scaling);
    std::cout << "oracle    FFTW fp64 (the fp64 volumes do not fit one GPU), the result gathered from the "
              << st.gpus << " GPUs\n";
  }
  const validate::ErrorReport error = validate::compare(output, reference);
  print_error("error     ", error, st.size, st.bound);
  s.run_back();
  bench::gather(*s.in, st.size, input_layout(st, direction), output);
  const validate::ErrorReport round_trip = validate::compare(output, input);
  print_error("roundtrip ", round_trip, st.size, st.bound);
  return error.passes(st.bound) && round_trip.passes(st.bound);
}

bool check_in_closed_form(Session& s) {
  const MultiGpuRunSettings& st = s.settings;
  std::cout << "oracle    none: checked in closed form, every element, " << wave_count
            << " random plane waves (seed " << st.seed << "), slab by slab\n";
  if (s.separate_out) s.separate_out->poison_nan();
  const validate::ClosedFormResult checked = bench::check_distributed_in_closed_form(
      validate::random_plane_waves(st.size, wave_count, st.seed), st.layout, *s.in, [&] { s.run(st.options); },
      s.out(), [&] { s.run_back(); }, *s.in);
  print_error("error     ", checked.spectrum, st.size, st.bound);
  print_error("roundtrip ", checked.round_trip, st.size, st.bound);
  return checked.spectrum.passes(st.bound) && checked.round_trip.passes(st.bound);
}

bench::Timing report_timing(Session& s, double one_pass_ms, double memcpy_gbs) {
  const MultiGpuRunSettings& st = s.settings;
  // In place, each timed run starts from the opposite transform of its result, so the values stay bounded.
  std::function<void()> restore;
  if (st.in_place) restore = [&] { s.run_back(); };
  const bench::Timing t = bench::time_on_devices(s.devices, [&] { s.run(st.options); }, warmup_runs, st.repeats,
                                                 restore);
  std::cout << std::fixed << std::setprecision(3) << "time      " << t.median_ms << " ms median of " << st.repeats
            << " (min " << t.min_ms << ", max " << t.max_ms << "), CUDA events on every GPU, the slowest's time\n"
            << std::setprecision(2) << "GFlops    " << paper_flops(st.size) / (t.median_ms * 1e6)
            << " (5 N log2 N / t, N the whole volume)\n"
            << std::setprecision(3) << "memcpy    " << memcpy_gbs << " GB/s on device 0 (read + write); one pass of "
            << "a GPU's local volume " << one_pass_ms << " ms; the transform takes " << t.median_ms / one_pass_ms
            << " pass-equivalents\n"
            << "memory    " << s.fft.exchange_buffer_bytes() << " B per GPU beyond the data (one exchange buffer)\n";
  return t;
}

// The C2C run: checked, then timed.
MultiGpuOutcome run_multi_gpu_c2c(const MultiGpuRunSettings& settings, const std::vector<int>& devices) {
  const std::int64_t local_bytes = settings.size.elements() / settings.gpus *
                                   static_cast<std::int64_t>(complex_value_bytes(settings.precision));
  const double memcpy_gbs = bench::memcpy_gbytes_per_second(std::min(local_bytes, max_memcpy_bytes));
  const double one_pass_ms = 2.0 * static_cast<double>(local_bytes) / (memcpy_gbs * 1e6);
  MultiGpuDesc desc{.extents = settings.size, .devices = devices, .layout = settings.layout};
  desc.exchange = settings.exchange;
  desc.precision = settings.precision;
  Session s{settings, devices, MultiGpuTransform(desc), nullptr, nullptr};
  s.in = std::make_unique<bench::PerDeviceBuffers>(devices, s.fft.local_elements(), settings.precision);
  if (!settings.in_place)
    s.separate_out = std::make_unique<bench::PerDeviceBuffers>(devices, s.fft.local_elements(), settings.precision);

  std::cout << "plan      slab decomposition over " << settings.gpus << " GPUs, " << settings.arch
            << " plans: slab " << to_string(s.fft.decomposition().z_slab()) << " (X, Y), column "
            << to_string(s.fft.decomposition().y_slab()) << " (Z)\nsize      " << to_string(settings.size) << " ("
            << settings.size.elements() << " points)\nbackend   cuda x " << settings.gpus << ", "
            << to_string(settings.precision) << ", "
            << to_string(settings.options.direction) << ", layout " << layout_name(settings.layout) << ", scaling "
            << to_string(settings.options.scaling) << ", " << (settings.in_place ? "in place" : "out of place")
            << ", exchange " << exchange_name(s.fft.exchange()) << "\n";
  const bool oracle_fits = run_host_bytes(settings.size) <= static_cast<double>(validate::host_memory_bytes());
  const bool oracle = settings.check == "oracle" || (settings.check == "auto" && oracle_fits);
  if (oracle) check_run_host_memory(settings.size, validate::host_memory_bytes());
  else if (settings.options.direction != Direction::forward || settings.options.scaling != Scaling::none)
    throw UsageError(to_string(settings.size) + ": its fp64 oracle does not fit the host, and the closed-form check "
                     "takes the forward transform, unscaled (no --inverse, no --scaling)");
  if (!(oracle ? check_against_oracle(s) : check_in_closed_form(s))) {
    std::cerr << "fft3d run: error: the result is over the " << to_string(settings.precision) << " error bound "
              << settings.bound << "; no timing is reported\n";
    return {exit_failed};
  }
  return {exit_ok, report_timing(s, one_pass_ms, memcpy_gbs).median_ms};
}

}  // namespace

int run_multi_gpu(const MultiGpuRunSettings& settings) {
  check_multi_gpu_run_settings(settings);
  const int available = validate::gpu_count();
  if (available < settings.gpus)
    throw GpuUnavailable("--gpus " + std::to_string(settings.gpus) + " asks for " + std::to_string(settings.gpus) +
                         " GPUs; this machine has " + std::to_string(available));
  const std::vector<int> devices = first_devices(settings.gpus);
  const MultiGpuOutcome outcome = settings.kind == TransformKind::c2c ? run_multi_gpu_c2c(settings, devices)
                                                                      : run_multi_gpu_real(settings, devices);
  if (outcome.exit_code == exit_ok && settings.cufftxt) report_cufftxt(settings, devices, outcome.median_ms);
  return outcome.exit_code;
}

}  // namespace fft3d::cli
