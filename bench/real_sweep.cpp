#include "bench/real_sweep.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <type_traits>

#include "fft3d/errors.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "validate/cuda/real_check.hpp"

namespace fft3d::bench {
namespace {

constexpr int warmup_runs = 3;

// "fft3d 3.1e-07 (0 not finite)".
std::string error_text(const char* library, const validate::ErrorReport& error) {
  std::ostringstream text;
  text << library << " " << error.relative_l2 << " (" << error.non_finite << " not finite)";
  return text.str();
}

std::string over_bound(double error_bound, const std::string& errors) {
  std::ostringstream why;
  why << "over the error bound " << error_bound << ": " << errors;
  return why.str();
}

// The real type of a precision's data: float for fp32, double for fp64.
template <class Real>
constexpr Precision precision_of = std::is_same_v<Real, double> ? Precision::fp64 : Precision::fp32;

// One direction of one size in the precision of `Real`: its transform compiled once, the checked buffers and cuFFT's
// plan (R2C and C2R, or D2Z and Z2D).
template <class Real>
struct DirectionRun {
  GpuTransform& engine;
  validate::RealCheck& checked;
  CufftReal& cufft;
  int repeats = 0;

  static double error_bound() { return error_bound_of(precision_of<Real>); }
  bool is_c2r() const { return checked.kind() == TransformKind::c2r; }
  void ours(const validate::RealRun& run, void* stream) {
    const auto on = static_cast<Stream>(stream);
    if (is_c2r())
      engine.execute(run.spectrum_in<Real>(), run.reals_out<Real>(), {.direction = Direction::inverse}, on);
    else engine.execute(run.reals_in<Real>(), run.spectrum_out<Real>(), {}, on);
  }
  void theirs(const validate::RealRun& run, void* stream) { cufft.execute(run.in, run.out, stream); }

  // fft3d's result on `buffers` within the bound (and, C2R out of place, its input untouched); else why not.
  std::string check_ours(validate::RealBuffers& buffers) {
    const validate::RealRun run = checked.run(buffers);
    const validate::ErrorReport error = checked.check(buffers, [&] { ours(run, nullptr); });
    if (!error.passes(error_bound())) return over_bound(error_bound(), error_text("fft3d", error));
    if (is_c2r() && checked.placement() == Placement::out_of_place && !checked.input_unchanged(buffers))
      return "fft3d's C2R out of place wrote its input";
    return {};
  }

  // Both libraries timed on one pair. In place each run transforms what the previous one left: the values change,
  // the time does not. cuFFT's multi-dimensional C2R overwrites its input, out of place too: its samples run on what
  // its earlier runs left there (the time does not depend on the values), and the pair's input is restored after
  // its timing for the checks and runs that follow.
  void time_pair(validate::RealBuffers& buffers, std::vector<Timing>& ours_by_pair,
                 std::vector<Timing>& theirs_by_pair, BenchRow& row) {
    const validate::RealRun run = checked.run(buffers);
    ours_by_pair.push_back(
        time_on_gpu([&](void* s) { ours(run, s); }, warmup_runs, repeats, nullptr, {}, batched_sample_ms));
    theirs_by_pair.push_back(
        time_on_gpu([&](void* s) { theirs(run, s); }, warmup_runs, repeats, nullptr, {}, batched_sample_ms));
    if (is_c2r()) checked.restore_input(buffers);
    row.fft3d_pair_ms.push_back(ours_by_pair.back().median_ms);
    row.cufft_pair_ms.push_back(theirs_by_pair.back().median_ms);
  }

  // The checked pair, then fresh pairs, each checked again, until `buffer_pairs` or the device's memory runs out.
  // Returns false (with row.failure) when fft3d fails a pair's check.
  bool time_pairs(int buffer_pairs, std::vector<Timing>& ours_by_pair, std::vector<Timing>& theirs_by_pair,
                  BenchRow& row) {
    time_pair(checked.buffers(), ours_by_pair, theirs_by_pair, row);
    std::vector<validate::RealBuffers> more_pairs;  // kept allocated, so that each pair lies elsewhere
    more_pairs.reserve(static_cast<std::size_t>(std::max(buffer_pairs - 1, 0)));
    for (int pair = 1; pair < buffer_pairs; ++pair) {
      try {
        more_pairs.push_back(checked.make_buffers());
      } catch (const OutOfMemory&) {
        break;
      }
      if (std::string why = check_ours(more_pairs.back()); !why.empty()) {
        row.failure = why + " on buffer pair " + std::to_string(pair + 1);
        return false;
      }
      time_pair(more_pairs.back(), ours_by_pair, theirs_by_pair, row);
    }
    return true;
  }
};

// `Real` is the real type of settings.precision: the transform fft3d takes for the descriptor in that precision, the
// check's buffers and cuFFT's plan all in it.
template <class Real>
BenchRow measure_direction(const Extents& size, TransformKind kind, const SweepSettings& settings,
                           std::uint64_t seed, const DriverProbe& driver) {
  constexpr Precision precision = precision_of<Real>;
  BenchRow row;
  row.size = size;
  row.transform = kind;
  row.precision = precision;
  row.batch = settings.batch;
  GpuTransform engine(TransformDesc{.extents = size,
                                    .kind = kind,
                                    .precision = precision,
                                    .batch = settings.batch,
                                    .placement = settings.placement});
  row.plan = plan_column(engine.plan_source(), settings.batch);
  row.passes = static_cast<int>(GpuProfiler(engine).volume_passes(Order::natural, settings.placement));
  validate::RealCheck checked(size, kind, settings.placement, seed, validate::SpectrumInput::hermitian, precision,
                              settings.batch);
  CufftReal cufft(size, kind, precision, settings.placement, settings.batch);
  DirectionRun<Real> run{engine, checked, cufft, settings.repeats};
  const validate::ErrorReport ours = checked.check([&] { run.ours(checked.run(), nullptr); });
  const bool input_kept = !run.is_c2r() || settings.placement == Placement::in_place || checked.input_unchanged();
  const validate::ErrorReport theirs = checked.check([&] { run.theirs(checked.run(), nullptr); });
  if (run.is_c2r()) checked.restore_input();  // cuFFT's C2R may have overwritten it
  row.fft3d_l2 = ours.relative_l2;
  row.cufft_l2 = theirs.relative_l2;
  if (!ours.passes(run.error_bound()) || !theirs.passes(run.error_bound())) {
    row.failure = over_bound(run.error_bound(), error_text("fft3d", ours) + ", " + error_text("cuFFT", theirs));
    return row;
  }
  if (!input_kept) {
    row.failure = "fft3d's C2R out of place wrote its input";
    return row;
  }
  time_checked_size(run, settings, driver,
                    static_cast<std::int64_t>(std::max(checked.input_bytes(), checked.output_bytes())), row);
  return row;
}

}  // namespace

std::vector<BenchRow> measure_real_size(const Extents& size, const SweepSettings& settings, std::uint64_t seed,
                                        const DriverProbe& driver) {
  std::vector<BenchRow> rows;
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    // A direction that cannot be measured (no plan for it, no memory, a failed launch) is a row that says why; a
    // machine without a GPU ends the sweep.
    try {
      rows.push_back(settings.precision == Precision::fp64
                         ? measure_direction<double>(size, kind, settings, seed, driver)
                         : measure_direction<float>(size, kind, settings, seed, driver));
    } catch (const GpuUnavailable&) {
      throw;
    } catch (const Error& e) {
      BenchRow row;
      row.size = size;
      row.transform = kind;
      row.precision = settings.precision;
      row.failure = e.what();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace fft3d::bench
