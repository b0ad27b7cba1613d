#include "bench/bench_sweep.hpp"

#include <sstream>
#include <utility>

#include "bench/real_sweep.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/wisdom.hpp"
#include "validate/cuda/forward_check.hpp"

namespace fft3d::bench {
namespace {

constexpr int warmup_runs = 3;

std::string over_bound(const std::string& where, const validate::ErrorReport& error, double error_bound) {
  std::ostringstream why;
  why << "over the error bound " << error_bound << where << ": fft3d " << error.relative_l2 << " ("
      << error.non_finite << " not finite)";
  return why.str();
}

// What one size's runs share: its plan compiled once, the checked buffers and cuFFT's plan.
struct SizeRun {
  const Plan& plan;
  GpuTransform& engine;
  validate::ForwardCheck& checked;
  CufftC2C& cufft;
  TransformOptions options;
  int repeats = 0;

  const Plan* reorder_map() const { return options.order == Order::digit_reversed ? &plan : nullptr; }
  double error_bound() const { return error_bound_of(plan.precision); }

  // fft3d's run from `in` into `out`, device buffers of the plan's precision.
  void execute(const void* in, void* out, Stream stream = nullptr) {
    if (plan.precision == Precision::fp64)
      engine.execute(static_cast<const DeviceComplex64*>(in), static_cast<DeviceComplex64*>(out), options, stream);
    else
      engine.execute(static_cast<const DeviceComplex32*>(in), static_cast<DeviceComplex32*>(out), options, stream);
  }

  // Both libraries timed on one buffer pair; the medians go to the row.
  void time_pair(void* in, void* out, std::vector<Timing>& ours, std::vector<Timing>& theirs, BenchRow& row) {
    ours.push_back(time_on_gpu([&](void* s) { execute(in, out, static_cast<Stream>(s)); },
                               warmup_runs, repeats, nullptr, {}, batched_sample_ms));
    theirs.push_back(time_on_gpu([&](void* s) { cufft.execute(in, out, Direction::forward, s); }, warmup_runs,
                                 repeats, nullptr, {}, batched_sample_ms));
    row.fft3d_pair_ms.push_back(ours.back().median_ms);
    row.cufft_pair_ms.push_back(theirs.back().median_ms);
  }

  // The checked pair, then fresh pairs, each checked again, until `buffer_pairs` or the device's memory runs out.
  // Returns false (with row.failure) when a pair's result is over the bound.
  bool time_pairs(int buffer_pairs, std::vector<Timing>& ours, std::vector<Timing>& theirs, BenchRow& row) {
    time_pair(checked.input(), checked.output(), ours, theirs, row);  // the same buffers in either precision
    std::vector<validate::DeviceBuffer> more_pairs;  // input, output, input, output, ...
    for (int pair = 1; pair < buffer_pairs; ++pair) {
      try {
        more_pairs.push_back(checked.input_copy());
        more_pairs.emplace_back(more_pairs.back().bytes());
      } catch (const OutOfMemory&) {
        if (more_pairs.size() % 2) more_pairs.pop_back();
        break;
      }
      validate::DeviceBuffer& in = more_pairs[more_pairs.size() - 2];
      validate::DeviceBuffer& out = more_pairs.back();
      const validate::ErrorReport again = checked.check(out, [&] { execute(in.get(), out.get()); }, reorder_map());
      if (!again.passes(error_bound())) {
        row.failure = over_bound(" on buffer pair " + std::to_string(pair + 1), again, error_bound());
        return false;
      }
      time_pair(in.get(), out.get(), ours, theirs, row);
    }
    return true;
  }
};

}  // namespace

std::string plan_column(const std::string& source, std::int64_t batch) {
  return source + (batch > 1 ? ", batch of " + std::to_string(batch) + " volumes" : "");
}

double error_bound_of(Precision precision) {
  return precision == Precision::fp64 ? fp64_error_bound : validate::fp32_error_bound;
}

BenchRow measure_size(const Extents& size, const SweepSettings& settings, std::uint64_t seed,
                      const DriverProbe& driver) {
  BenchRow row;
  row.size = size;
  row.batch = settings.batch;
  row.precision = settings.precision;
  SizedPlan chosen = plan_for_size(size, settings.arch, false, passes_on_its_profile_in(false), TransformKind::c2c,
                                   settings.precision, settings.batch, current_device_name());
  chosen.parsed.plan.batch = settings.batch;
  const Plan& plan = chosen.parsed.plan;
  row.plan = plan_column(chosen.source, settings.batch);
  GpuTransform engine(plan, chosen.source);
  row.passes = static_cast<int>(GpuProfiler(engine).volume_passes(settings.order, Placement::out_of_place));
  validate::ForwardCheck checked(size, seed, plan.precision, settings.batch);
  CufftC2C cufft(size, plan.precision, settings.batch);
  SizeRun run{plan, engine, checked, cufft, {Direction::forward, settings.order, Scaling::none}, settings.repeats};
  void* const input = checked.precision() == Precision::fp64 ? static_cast<void*>(checked.input64()) : checked.input();
  void* const output =
      checked.precision() == Precision::fp64 ? static_cast<void*>(checked.output64()) : checked.output();
  const validate::ErrorReport ours = checked.check([&] { run.execute(input, output); }, run.reorder_map());
  const validate::ErrorReport theirs = checked.check([&] { cufft.execute(input, output, Direction::forward); });
  row.fft3d_l2 = ours.relative_l2;
  row.cufft_l2 = theirs.relative_l2;
  const double bound = run.error_bound();
  if (!ours.passes(bound) || !theirs.passes(bound)) {
    std::ostringstream cufft_part;
    cufft_part << ", cuFFT " << theirs.relative_l2;
    row.failure = over_bound("", ours, bound) + cufft_part.str();
    return row;
  }
  const auto value_bytes = static_cast<std::int64_t>(complex_value_bytes(plan.precision));
  time_checked_size(run, settings, driver, size.elements() * settings.batch * value_bytes, row);
  return row;
}

namespace {

void require_measurable(const SweepSettings& settings) {
  if (settings.transform == TransformKind::c2r)
    throw UsageError("bench: transform c2r: the r2c sweep measures both directions, R2C and C2R");
  if (settings.transform == TransformKind::c2c && settings.placement == Placement::in_place)
    throw UsageError("bench: the c2c sweep runs out of place only");
  if (settings.transform != TransformKind::c2c && settings.order != Order::natural)
    throw UsageError("bench: real transforms run in natural order only");
  if (settings.batch < 1) throw UsageError("bench: --batch " + std::to_string(settings.batch) + ": 1 or more volumes");
}

}  // namespace

BenchRun run_sweep(const SweepSettings& settings, const SweepProgress& progress) {
  require_measurable(settings);
  if (validate::gpu_count() == 0) throw GpuUnavailable("no CUDA device (or no driver) on this machine");
  BenchRun run{gpu_info(), to_string(settings.order), to_string(settings.placement), settings.repeats,
               settings.buffer_pairs, {}};
  const DriverProbe driver(run.gpu.pci_bus_id);
  run.gpu.driver_release = driver.available() ? driver.driver_release() : "unknown (" + driver.why_unavailable() + ")";
  for (std::size_t i = 0; i < settings.sizes.size(); ++i) {
    if (progress) progress(i, settings.sizes.size(), to_string(settings.sizes[i]));
    if (settings.transform == TransformKind::c2c) {
      run.rows.push_back(measure_size(settings.sizes[i], settings, settings.seed + i, driver));
    } else {
      for (BenchRow& row : measure_real_size(settings.sizes[i], settings, settings.seed + i, driver))
        run.rows.push_back(std::move(row));
    }
  }
  if (progress) progress(settings.sizes.size(), settings.sizes.size(), "done");
  return run;
}

}  // namespace fft3d::bench
