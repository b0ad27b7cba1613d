// `fft3d run --gpus G --transform r2c|c2r`: fft3d's real MultiGpuTransform on devices 0..G-1 of this process. R2C
// runs on random reals; C2R on the half spectrum of random reals (Hermitian as a real volume's is, so that every
// C2R computes the same reals). The input is scattered to the slabs, the output gathered and checked against the
// fp64 oracle (cuFFT D2Z or Z2D on one GPU, else FFTW) gathered from them, or, for R2C volumes whose oracle fits
// nowhere, in closed form (real plane waves, slab by slab); then the round trip through the other direction; timed
// only once both passed.
#include <algorithm>
#include <functional>
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
#include "validate/plane_waves.hpp"

namespace fft3d::cli {
namespace {

using Volume = std::vector<std::complex<double>>;
using Reals = std::vector<double>;
constexpr int warmup_runs = 1;
constexpr int wave_pairs = 2;                                   // four plane waves, as the complex check's
constexpr std::int64_t staged_values = std::int64_t{1} << 24;  // host staging of the closed-form check, per chunk

// GPU g's z slab of the real side: rows of NX reals at the buffers' pitch (NX out of place, 2*(NX/2 + 1) in place,
// the padding left as it is). The two movers stage whole rows a chunk at a time, so that no slab has to fit the
// host at once; `first` is a chunk's first real in the whole volume's order (x + NX*(y + NY*z)).
struct RealRowChunks {
  std::int64_t nx = 0, rows = 0, pitch = 0, chunk_rows = 0;  // rows: a GPU's
  RealRowChunks(const SlabDecomposition& d, bool in_place)
      : nx(d.size.nx), rows(d.size.ny * d.size.nz / d.gpus), pitch(in_place ? 2 * d.z_slab().nx : nx),
        chunk_rows(std::max<std::int64_t>(1, staged_values / pitch)) {}
};

// fill(first, reals) writes the chunk's reals, unpadded; they go to the GPUs' buffers.
template <class Real, class Fill>
void upload_real_rows(const SlabDecomposition& d, bool in_place, bench::PerDeviceBuffers& buffers, Fill fill) {
  const RealRowChunks c(d, in_place);
  std::vector<Real> line(static_cast<std::size_t>(c.chunk_rows * c.nx));
  std::vector<Real> staged(static_cast<std::size_t>(c.chunk_rows * c.pitch));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t r0 = 0; r0 < c.rows; r0 += c.chunk_rows) {
      const std::int64_t count = std::min(c.chunk_rows, c.rows - r0);
      fill((g * c.rows + r0) * c.nx, std::span(line).first(static_cast<std::size_t>(count * c.nx)));
      for (std::int64_t r = 0; r < count; ++r)
        std::copy_n(line.begin() + r * c.nx, c.nx, staged.begin() + r * c.pitch);
      buffers.upload(static_cast<std::size_t>(g), staged.data(), r0 * c.pitch / 2, count * c.pitch / 2);
    }
}

// use(first, reals) reads the chunk's reals, unpadded, from the GPUs' buffers.
template <class Real, class Use>
void download_real_rows(const SlabDecomposition& d, bool in_place, const bench::PerDeviceBuffers& buffers, Use use) {
  const RealRowChunks c(d, in_place);
  std::vector<Real> line(static_cast<std::size_t>(c.chunk_rows * c.nx));
  std::vector<Real> staged(static_cast<std::size_t>(c.chunk_rows * c.pitch));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t r0 = 0; r0 < c.rows; r0 += c.chunk_rows) {
      const std::int64_t count = std::min(c.chunk_rows, c.rows - r0);
      buffers.download(static_cast<std::size_t>(g), staged.data(), r0 * c.pitch / 2, count * c.pitch / 2);
      for (std::int64_t r = 0; r < count; ++r)
        std::copy_n(staged.begin() + r * c.pitch, c.nx, line.begin() + r * c.nx);
      use((g * c.rows + r0) * c.nx, std::span<const Real>(line).first(static_cast<std::size_t>(count * c.nx)));
    }
}

template <class Real>
void scatter_reals(const Reals& reals, const SlabDecomposition& d, bool in_place, bench::PerDeviceBuffers& buffers) {
  upload_real_rows<Real>(d, in_place, buffers, [&](std::int64_t first, std::span<Real> chunk) {
    std::transform(reals.begin() + first, reals.begin() + first + static_cast<std::int64_t>(chunk.size()),
                   chunk.begin(), [](double v) { return static_cast<Real>(v); });
  });
}

template <class Real>
void gather_reals(const bench::PerDeviceBuffers& buffers, const SlabDecomposition& d, bool in_place, Reals& reals) {
  download_real_rows<Real>(d, in_place, buffers, [&](std::int64_t first, std::span<const Real> chunk) {
    std::copy(chunk.begin(), chunk.end(), reals.begin() + first);
  });
}

template <class Real>
void scatter_wave_reals(const validate::PlaneWaves& waves, const SlabDecomposition& d, bool in_place,
                        bench::PerDeviceBuffers& buffers) {
  upload_real_rows<Real>(d, in_place, buffers, [&](std::int64_t first, std::span<Real> chunk) {
    validate::plane_wave_reals(waves, first, chunk);
  });
}

template <class Real>
validate::ErrorReport compare_wave_reals(const validate::PlaneWaves& waves, const SlabDecomposition& d, bool in_place,
                                         const bench::PerDeviceBuffers& buffers) {
  validate::ChunkedError error;
  download_real_rows<Real>(d, in_place, buffers, [&](std::int64_t first, std::span<const Real> chunk) {
    error.add(validate::compare_reals(waves, first, chunk));
  });
  return error.report();
}

// The half spectrum in the GPUs' buffers (`layout`) against the closed form, a chunk at a time.
template <class Real>
validate::ErrorReport compare_wave_spectrum(const validate::PlaneWaves& waves, const SlabDecomposition& d,
                                            SlabLayout layout, const bench::PerDeviceBuffers& buffers) {
  std::vector<std::complex<Real>> chunk;
  validate::ChunkedError error;
  bench::for_each_chunk(d.spectrum(), d.gpus, layout, staged_values,
                        [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                          chunk.resize(static_cast<std::size_t>(count));
                          buffers.download(g, chunk.data(), local, count);
                          error.add(validate::compare_half_spectrum(waves, 1.0, natural,
                                                                    std::span<const std::complex<Real>>(chunk)));
                        });
  return error.report();
}

// The run's transform and buffers: the reals and the half spectrum (one buffer in place) on every device.
struct RealSession {
  const MultiGpuRunSettings& settings;
  std::vector<int> devices;
  MultiGpuTransform fft;
  std::unique_ptr<bench::PerDeviceBuffers> reals, separate_spectrum;
  bench::PerDeviceBuffers& spectrum() { return separate_spectrum ? *separate_spectrum : *reals; }
  const SlabDecomposition& d() const { return fft.decomposition(); }

  // R2C from the reals into the spectrum, or C2R back, as values of the transform's precision.
  void execute(Direction direction, Scaling scaling) {
    const TransformOptions options{.direction = direction, .scaling = scaling};
    if (fft.precision() == Precision::fp64) return execute_as<double, DeviceComplex64>(options);
    execute_as<float, DeviceComplex32>(options);
  }
  template <class Real, class Complex>
  void execute_as(const TransformOptions& options) {
    std::vector<Real*> real_side;
    for (Complex* p : reals->pointers<Complex>()) real_side.push_back(reinterpret_cast<Real*>(p));
    if (options.direction == Direction::forward)
      return fft.execute(std::vector<const Real*>(real_side.begin(), real_side.end()), spectrum().pointers<Complex>(),
                         options);
    fft.execute(spectrum().pointers<Complex>(), real_side, options);
  }
  void scatter(const Reals& values) {
    if (fft.precision() == Precision::fp64) return scatter_reals<double>(values, d(), settings.in_place, *reals);
    scatter_reals<float>(values, d(), settings.in_place, *reals);
  }
  void gather(Reals& values) const {
    if (fft.precision() == Precision::fp64) return gather_reals<double>(*reals, d(), settings.in_place, values);
    gather_reals<float>(*reals, d(), settings.in_place, values);
  }
};

// R2C of real plane waves against the closed form, every element, then its C2R (scaled) against the waves.
template <class Real>
bool check_in_closed_form_as(RealSession& s) {
  const MultiGpuRunSettings& st = s.settings;
  const validate::PlaneWaves waves = validate::random_real_plane_waves(st.size, wave_pairs, st.seed);
  std::cout << "oracle    none: checked in closed form, every element, " << waves.waves.size()
            << " real plane waves in conjugate pairs (seed " << st.seed << "), slab by slab\n";
  if (s.separate_spectrum) s.spectrum().poison_nan();
  scatter_wave_reals<Real>(waves, s.d(), st.in_place, *s.reals);
  s.execute(Direction::forward, Scaling::none);
  const validate::ErrorReport error = compare_wave_spectrum<Real>(waves, s.d(), st.layout, s.spectrum());
  s.execute(Direction::inverse, Scaling::full);
  const validate::ErrorReport round_trip = compare_wave_reals<Real>(waves, s.d(), st.in_place, *s.reals);
  print_error("error     ", error, s.d().spectrum(), st.bound);
  print_error("roundtrip ", round_trip, st.size, st.bound);
  return error.passes(st.bound) && round_trip.passes(st.bound);
}

bool check_in_closed_form(RealSession& s) {
  if (s.fft.precision() == Precision::fp64) return check_in_closed_form_as<double>(s);
  return check_in_closed_form_as<float>(s);
}

// The fp64 half spectrum of `reals`, unscaled: cuFFT D2Z on one GPU, or FFTW where its volumes do not fit one.
// Returns the oracle's name.
std::string r2c_oracle(const Extents& size, const Reals& reals, Volume& spectrum) {
  try {
    validate::cufft_r2c_reference(size, reals, spectrum);
    return "cuFFT D2Z fp64 on one GPU";
  } catch (const OutOfMemory&) {
    validate::fftw_r2c_reference(size, reals, spectrum);
    return "FFTW r2c fp64 (the fp64 volumes do not fit one GPU)";
  }
}

// The fp64 reals of a half spectrum, unscaled: cuFFT Z2D, or FFTW.
std::string c2r_oracle(const Extents& size, const Volume& spectrum, Reals& reals) {
  try {
    validate::cufft_c2r_reference(size, spectrum, reals);
    return "cuFFT Z2D fp64 on one GPU";
  } catch (const OutOfMemory&) {
    validate::fftw_c2r_reference(size, spectrum, reals);
    return "FFTW c2r fp64 (the fp64 volumes do not fit one GPU)";
  }
}

bool check_against_oracle(RealSession& s) {
  const MultiGpuRunSettings& st = s.settings;
  const Extents half = s.d().spectrum();
  const bool forward = st.options.direction == Direction::forward;
  Reals reals(static_cast<std::size_t>(st.size.elements())), expected_reals(reals.size()), got_reals(reals.size());
  Volume spectrum(static_cast<std::size_t>(half.elements())), expected(spectrum.size()), got(spectrum.size());
  validate::fill_random(reals, st.seed);
  if (!forward) r2c_oracle(st.size, reals, spectrum);
  // The input's precision is the run's: the oracle transforms the values the GPUs read.
  if (forward) {
    s.scatter(reals);
    s.gather(reals);
  } else {
    bench::scatter(spectrum, half, st.layout, s.spectrum());
    bench::gather(s.spectrum(), half, st.layout, spectrum);
  }
  const double scale = st.options.scaling == Scaling::full ? 1.0 / static_cast<double>(st.size.elements()) : 1.0;
  const std::string oracle =
      forward ? r2c_oracle(st.size, reals, expected) : c2r_oracle(st.size, spectrum, expected_reals);
  for (auto& v : expected) v *= scale;
  for (double& v : expected_reals) v *= scale;
  std::cout << "oracle    " << oracle << ", the result gathered from the " << st.gpus << " GPUs\n";
  if (s.separate_spectrum) (forward ? s.spectrum() : *s.reals).poison_nan();
  s.execute(st.options.direction, st.options.scaling);
  validate::ErrorReport error, round_trip;
  const Scaling back = round_trip_scaling(st.options.scaling);
  if (forward) {
    bench::gather(s.spectrum(), half, st.layout, got);
    error = validate::compare(got, expected);
    s.execute(Direction::inverse, back);
    s.gather(got_reals);
    round_trip = validate::compare(std::span<const double>(got_reals), reals);
  } else {
    s.gather(got_reals);
    error = validate::compare(std::span<const double>(got_reals), expected_reals);
    s.execute(Direction::forward, back);
    bench::gather(s.spectrum(), half, st.layout, got);
    round_trip = validate::compare(got, spectrum);
  }
  print_error("error     ", error, forward ? half : st.size, st.bound);
  print_error("roundtrip ", round_trip, forward ? st.size : half, st.bound);
  return error.passes(st.bound) && round_trip.passes(st.bound);
}

// Each timed run starts from its input: R2C out of place leaves it; in place the C2R of its result restores it; a
// C2R out of place, which uses its input as scratch, gets it copied back from a saved copy.
bench::Timing report_timing(RealSession& s) {
  const MultiGpuRunSettings& st = s.settings;
  const bool forward = st.options.direction == Direction::forward;
  const Scaling back = round_trip_scaling(st.options.scaling);
  const Direction opposite = forward ? Direction::inverse : Direction::forward;
  std::unique_ptr<bench::PerDeviceBuffers> saved;
  std::function<void()> restore;
  if (st.in_place) {
    restore = [&] { s.execute(opposite, back); };
  } else if (!forward) {
    saved = std::make_unique<bench::PerDeviceBuffers>(s.devices, s.spectrum().elements(), st.precision);
    saved->copy_from(s.spectrum());
    restore = [&] { s.spectrum().copy_from(*saved); };
  }
  const bench::Timing t = bench::time_on_devices(
      s.devices, [&] { s.execute(st.options.direction, st.options.scaling); }, warmup_runs, st.repeats, restore);
  const double flops = paper_flops(st.size) / 2;  // a real transform: half the complex one's, as FFTW counts
  std::cout << std::fixed << std::setprecision(3) << "time      " << t.median_ms << " ms median of " << st.repeats
            << " (min " << t.min_ms << ", max " << t.max_ms << "), CUDA events on every GPU, the slowest's time\n"
            << std::setprecision(2) << "GFlops    " << flops / (t.median_ms * 1e6)
            << " (2.5 N log2 N / t, N the whole real volume)\n"
            << "memory    " << s.fft.exchange_buffer_bytes() << " B per GPU beyond the data (one exchange buffer)\n";
  return t;
}

}  // namespace

MultiGpuOutcome run_multi_gpu_real(const MultiGpuRunSettings& settings, const std::vector<int>& devices) {
  MultiGpuDesc desc{.extents = settings.size, .devices = devices, .layout = settings.layout};
  desc.exchange = settings.exchange;
  desc.precision = settings.precision;
  desc.kind = TransformKind::r2c;
  RealSession s{settings, devices, MultiGpuTransform(desc), nullptr, nullptr};
  const std::int64_t real_values = s.fft.local_reals(settings.in_place) / 2;  // in complex values of the precision
  s.reals = std::make_unique<bench::PerDeviceBuffers>(devices, real_values, settings.precision);
  if (!settings.in_place)
    s.separate_spectrum =
        std::make_unique<bench::PerDeviceBuffers>(devices, s.fft.local_elements(), settings.precision);
  const bool forward = settings.options.direction == Direction::forward;
  std::cout << "plan      real slab decomposition over " << settings.gpus << " GPUs, " << settings.arch
            << " plans: slab R2C of the " << settings.size.nx << "x" << settings.size.ny << " planes, column "
            << to_string(s.d().y_slab()) << " (Z, the half spectrum)\nsize      " << to_string(settings.size)
            << " (" << settings.size.elements() << " reals)\nbackend   cuda x " << settings.gpus << ", "
            << to_string(settings.precision) << ", " << (forward ? "r2c" : "c2r") << ", layout "
            << (settings.layout == SlabLayout::natural ? "natural" : "y_slabs") << ", scaling "
            << to_string(settings.options.scaling) << ", " << (settings.in_place ? "in place" : "out of place")
            << ", exchange " << exchange_name(s.fft.exchange()) << "\n";
  const bool oracle_fits = run_host_bytes(settings.size) <= static_cast<double>(validate::host_memory_bytes());
  const bool oracle = settings.check == "oracle" || (settings.check == "auto" && oracle_fits);
  if (oracle)
    check_run_host_memory(settings.size, validate::host_memory_bytes());
  else if (!forward || settings.options.scaling != Scaling::none)
    throw UsageError(to_string(settings.size) + ": its fp64 oracle does not fit the host, and the closed-form check "
                     "takes R2C, unscaled (no --transform c2r, no --scaling)");
  if (!(oracle ? check_against_oracle(s) : check_in_closed_form(s))) {
    std::cerr << "fft3d run: error: the result is over the " << to_string(settings.precision) << " error bound "
              << settings.bound << "; no timing is reported\n";
    return {exit_failed};
  }
  return {exit_ok, report_timing(s).median_ms};
}

}  // namespace fft3d::cli
