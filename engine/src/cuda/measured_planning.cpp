#include "fft3d/measured_planning.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <sstream>
#include <type_traits>

#include "cuda_check.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d {
namespace {

// Host memory a comparison streams through at a time: the volumes stay on the device, whatever their size.
constexpr std::int64_t compare_chunk_elements = std::int64_t{1} << 22;

// One volume of device memory (complex values of type T), freed on every path.
template <class T>
class DeviceVolume {
 public:
  explicit DeviceVolume(std::int64_t elements) : elements_(elements) {
    cuda::check(cudaMalloc(&data_, bytes()), "cudaMalloc(measured planning volume)");
  }
  ~DeviceVolume() { cudaFree(data_); }
  DeviceVolume(const DeviceVolume&) = delete;
  DeviceVolume& operator=(const DeviceVolume&) = delete;
  T* data() const { return static_cast<T*>(data_); }
  std::size_t bytes() const { return static_cast<std::size_t>(elements_) * sizeof(T); }
  std::int64_t elements() const { return elements_; }
  void copy_from(const DeviceVolume& other, Stream stream = nullptr) {
    cuda::check(cudaMemcpyAsync(data_, other.data_, bytes(), cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
  }

 private:
  void* data_ = nullptr;
  std::int64_t elements_ = 0;
};

// Events destroyed on every path.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    cuda::check(cudaEventCreate(&start), "cudaEventCreate");
    cuda::check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
};

// Uniform values in [-1, 1): both parts of a complex T, or a real T.
template <class T>
void fill_random(DeviceVolume<T>& volume, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<T> host(static_cast<std::size_t>(volume.elements()));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> value(-1, 1);
    for (T& x : host) x = value(generator);
  } else {
    std::uniform_real_distribution<typename T::value_type> value(-1, 1);
    for (T& x : host) x = {value(generator), value(generator)};
  }
  cuda::check(cudaMemcpy(volume.data(), host.data(), volume.bytes(), cudaMemcpyHostToDevice), "cudaMemcpy(input)");
}

// ||a - b|| / ||b|| over the whole volume, in fp64, a chunk at a time; non-finite values give infinity.
template <class T>
double relative_l2(const DeviceVolume<T>& a, const DeviceVolume<T>& b) {
  std::vector<T> chunk_a, chunk_b;
  double difference = 0, norm = 0;
  for (std::int64_t start = 0; start < a.elements(); start += compare_chunk_elements) {
    const std::int64_t count = std::min(compare_chunk_elements, a.elements() - start);
    chunk_a.resize(static_cast<std::size_t>(count));
    chunk_b.resize(static_cast<std::size_t>(count));
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(T);
    cuda::check(cudaMemcpy(chunk_a.data(), a.data() + start, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(compare)");
    cuda::check(cudaMemcpy(chunk_b.data(), b.data() + start, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(compare)");
    for (std::size_t i = 0; i < chunk_a.size(); ++i) {
      const std::complex<double> x(chunk_a[i]), y(chunk_b[i]);
      difference += std::norm(x - y);
      norm += std::norm(y);
    }
  }
  const double relative = std::sqrt(difference / norm);
  return std::isfinite(relative) ? relative : INFINITY;
}

// Milliseconds per run of `runs` back-to-back runs of `body` between one pair of events.
template <typename Body>
double time_batch(const Body& body, int runs, const EventPair& events) {
  cuda::check(cudaEventRecord(events.start, nullptr), "cudaEventRecord");
  for (int i = 0; i < runs; ++i) body();
  cuda::check(cudaEventRecord(events.stop, nullptr), "cudaEventRecord");
  cuda::check(cudaEventSynchronize(events.stop), "cudaEventSynchronize");
  float ms = 0;
  cuda::check(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
  return ms / runs;
}

// The median over settings.timed_samples of the time per run; `before_each` (in place: the input's restore) runs
// outside the timed region and forces single runs.
template <typename Body, typename Before>
double median_ms(const Body& body, const Before& before_each, bool single_runs, const MeasureSettings& settings) {
  const EventPair events;
  for (int i = 0; i < settings.warmup_runs; ++i) before_each(), body();
  int batch = 1;
  if (!single_runs) {
    const double one_ms = std::max(time_batch(body, 1, events), 1e-6);
    batch = std::max(1, static_cast<int>(std::ceil(settings.min_sample_ms / one_ms)));
  }
  std::vector<double> samples;
  for (int s = 0; s < settings.timed_samples; ++s) {
    before_each();
    samples.push_back(time_batch(body, batch, events));
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

// The candidates run on one input, made once by `prepare(input)`, each checked against the first one's output and
// timed: `run(transform, in, out)` with In and Out the element types of the input and output volumes (complex for
// c2c, real in for r2c, real out for c2r).
template <class In, class Out, typename Prepare, typename Run>
PlanMeasurements measure_candidates(std::int64_t in_elements, std::int64_t out_elements,
                                    const std::vector<RankedPlan>& candidates, const MeasureSettings& settings,
                                    const Prepare& prepare, const Run& run) {
  const bool in_place = settings.placement == Placement::in_place;
  DeviceVolume<In> input(in_elements);
  prepare(input);  // before the outputs exist: a volume that prepare allocates adds to the input alone
  DeviceVolume<Out> output(out_elements), first_output(out_elements);
  const auto source = [&] {
    if constexpr (std::is_same_v<In, Out>) return in_place ? output.data() : input.data();
    else return input.data();
  }();
  // In place the run overwrites its input, so it is restored before each. Out of place nothing is restored:
  // GpuTransform::execute never writes `in` out of place (C2R's half spectrum included), so every run reads the
  // input prepare made.
  const auto restore = [&] {
    if constexpr (std::is_same_v<In, Out>)
      if (in_place) output.copy_from(input);
  };
  const double bound = candidate_agreement_bound(settings.precision);
  PlanMeasurements measured{current_device_name(), {}};
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    GpuTransform transform(candidates[i].plan, "candidate " + std::to_string(i + 1));
    restore();
    run(transform, source, output.data());
    cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    PlanMeasurement m{candidates[i], 0, 0};
    if (i == 0) first_output.copy_from(output);
    else m.relative_difference = relative_l2(output, first_output);
    if (!(m.relative_difference <= bound)) {
      std::ostringstream why;
      why << "candidate " << i + 1 << " {" << to_brace_string(candidates[i].plan.kernels) << "} differs from candidate"
          << " 1 by " << m.relative_difference << " relative L2 (bound " << bound << ")";
      throw MeasurementError(why.str());
    }
    m.median_ms = median_ms([&] { run(transform, source, output.data()); }, restore, in_place, settings);
    measured.candidates.push_back(std::move(m));
  }
  return measured;
}

// Natural order, unscaled, in the kind's direction (C2R runs inverse only): what every candidate is timed on.
TransformOptions measured_options(TransformKind kind) {
  return {kind == TransformKind::c2r ? Direction::inverse : Direction::forward, Order::natural, Scaling::none};
}

// The planner's weights of the candidates: for the placement they are timed in, fp64 ranks them as they lower in fp64
// (their tiles hold doubles), a batch as its grid fills the GPU, as plan_for_size does.
PlanPasses candidate_passes(const MeasureSettings& settings) {
  const PlanPasses in_precision = passes_in_precision(
      passes_on_its_profile_in(settings.placement == Placement::in_place), settings.precision);
  return settings.batch > 1 ? passes_in_batch(in_precision, settings.batch) : in_precision;
}

// The half spectrum of random reals (settings.seed), by the default R2C plan, the first r2c candidate. C2R
// candidates must read a Hermitian spectrum: on another input each may compute a different real volume.
template <class Complex>
void fill_half_spectrum(DeviceVolume<Complex>& spectrum, const Extents& size, const std::string& arch,
                        const MeasureSettings& settings) {
  DeviceVolume<typename Complex::value_type> reals(size.elements() * settings.batch);
  fill_random(reals, settings.seed);
  Plan r2c = default_plan_of_kind(size, arch, TransformKind::r2c, candidate_passes(settings));
  r2c.precision = settings.precision;
  r2c.batch = settings.batch;
  GpuTransform(r2c, "the c2r candidates' input").execute(reals.data(), spectrum.data(),
                                                          measured_options(TransformKind::r2c));
  cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

// measure_candidates of a size of any kind in precision Real (float or double): random values in (reals for r2c),
// or for c2r the half spectrum of random reals.
template <class Real>
PlanMeasurements measure_in(const Extents& size, const std::string& arch, const std::vector<RankedPlan>& candidates,
                            const MeasureSettings& settings) {
  using Complex = std::conditional_t<std::is_same_v<Real, float>, DeviceComplex32, DeviceComplex64>;
  const TransformOptions options = measured_options(settings.kind);
  const auto run = [&](GpuTransform& transform, const auto* in, auto* out) { transform.execute(in, out, options); };
  const auto random = [&](auto& input) { fill_random(input, settings.seed); };
  const std::int64_t spectrum = (size.nx / 2 + 1) * size.ny * size.nz * settings.batch;
  const std::int64_t volume = size.elements() * settings.batch;
  if (settings.kind == TransformKind::r2c)
    return measure_candidates<Real, Complex>(volume, spectrum, candidates, settings, random, run);
  if (settings.kind == TransformKind::c2r) {
    const auto hermitian = [&](DeviceVolume<Complex>& input) { fill_half_spectrum(input, size, arch, settings); };
    return measure_candidates<Complex, Real>(spectrum, volume, candidates, settings, hermitian, run);
  }
  return measure_candidates<Complex, Complex>(volume, volume, candidates, settings, random, run);
}

// The incumbent (in the candidates' precision) first: the candidate that is the same plan moved there, or else
// the incumbent put before them.
void add_incumbent(Plan incumbent, const Extents& size, const MeasureSettings& settings, const PlanPasses& passes,
                   std::vector<RankedPlan>& candidates) {
  incumbent.precision = settings.precision;
  incumbent.batch = settings.batch;
  if (incumbent.size != size || kind_of(incumbent) != settings.kind)
    throw UsageError("measure_plans: the incumbent plan is not a " + to_string(settings.kind) + " plan of " +
                     to_string(size));
  const auto same = std::find_if(candidates.begin(), candidates.end(),
                                 [&](const RankedPlan& candidate) { return candidate.plan == incumbent; });
  if (same != candidates.end()) {
    std::rotate(candidates.begin(), same, same + 1);
    return;
  }
  candidates.insert(candidates.begin(), RankedPlan{incumbent, passes(incumbent).value_or(0)});
}

}  // namespace

double candidate_agreement_bound(Precision precision) {
  return precision == Precision::fp64 ? candidate_agreement_bound_fp64 : candidate_agreement_bound_fp32;
}

PlanMeasurements measure_plans(const Extents& size, const std::string& arch, int count,
                               const MeasureSettings& settings) {
  if (count < 1) throw UsageError("measure_plans: the candidate count must be at least 1");
  if (settings.timed_samples < 1) throw UsageError("measure_plans: timed_samples must be at least 1");
  if (settings.batch < 1) throw UsageError("measure_plans: a batch of at least 1 volume");
  if (settings.kind != TransformKind::c2c && settings.placement == Placement::in_place)
    throw UsageError("measure_plans: " + to_string(settings.kind) + " candidates run out of place only");
  const PlanPasses passes = candidate_passes(settings);
  std::vector<RankedPlan> candidates = ranked_plans_of_kind(size, arch, settings.kind, passes, count);
  for (RankedPlan& candidate : candidates) {
    candidate.plan.precision = settings.precision;
    candidate.plan.batch = settings.batch;
  }
  if (settings.incumbent) add_incumbent(*settings.incumbent, size, settings, passes, candidates);
  if (candidates.empty()) throw UsageError("measure_plans: no plan of the planner covers " + to_string(size));
  if (settings.precision == Precision::fp64) return measure_in<double>(size, arch, candidates, settings);
  return measure_in<float>(size, arch, candidates, settings);
}

const PlanMeasurement& PlanMeasurements::fastest() const {
  if (candidates.empty()) throw UsageError("PlanMeasurements::fastest: no measurements");
  const auto faster = [](const PlanMeasurement& a, const PlanMeasurement& b) { return a.median_ms < b.median_ms; };
  return *std::min_element(candidates.begin(), candidates.end(), faster);
}

}  // namespace fft3d
