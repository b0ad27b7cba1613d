// GPU tests: every shipped plan (tesla, fermi, hopper) at its real size, and small random legal plans, through the CUDA
// engine against cuFFT Z2Z (fp64): forward and inverse, natural and digit-reversed, in place and out of place, and
// the round trip; outputs poisoned with NaN first; out-of-place inputs must come back untouched (a volume too large
// for the oracle, 2048^3, in closed form instead). Skipped without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "test_plans.hpp"
#include "validate/cuda/closed_form_check.hpp"
#include "gpu_test.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

constexpr double error_bound = 2e-6;

// Whether the fp64 oracle check below fits: on the host the fp64 input, both references and a natural-order copy
// (80 bytes per element with the fp32 buffers), on the device two fp32 volumes and cuFFT's fp64 one.
bool oracle_check_fits(const Extents& size) {
  const double n = static_cast<double>(size.elements());
  const double host = static_cast<double>(validate::host_memory_bytes());
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  return 80.0 * n <= 0.8 * host && 32.0 * n <= static_cast<double>(total_bytes);
}

// A volume too large for the oracle (2048^3) is checked in closed form, in place: random plane waves, every
// element of the spectrum, then the round trip.
void check_plan_in_closed_form(const NamedPlan& named, std::uint64_t seed) {
  GpuTransform engine(named.plan, named.name);
  validate::DeviceBuffer data(static_cast<std::size_t>(named.plan.size.elements()) * sizeof(std::complex<float>));
  const validate::ClosedFormResult result = validate::check_in_closed_form(
      validate::random_plane_waves(named.plan.size, 4, seed), data,
      [&] { engine.execute(data.complex32(), data.complex32(), {}); },
      [&] { engine.execute(data.complex32(), data.complex32(), {.direction = Direction::inverse, .scaling = Scaling::full}); });
  for (const auto& [what, error] : {std::pair{"closed form", result.spectrum}, {"round trip", result.round_trip}}) {
    EXPECT_EQ(error.non_finite, 0) << named.name << " " << what << ": NaN or Inf left";
    EXPECT_LE(error.relative_l2, error_bound) << named.name << " " << what << ": peak " << error.peak_error;
    std::cout << named.name << " " << what << " (in place, plane waves): relative L2 " << error.relative_l2
              << ", peak " << error.peak_error << " at " << error.peak_index << "\n";
  }
}

// Runs every option combination of `plan` and checks each against the fp64 cuFFT results.
void check_plan_on_gpu(const NamedPlan& named, std::uint64_t seed) {
  if (!oracle_check_fits(named.plan.size)) {
    check_plan_in_closed_form(named, seed);
    return;
  }
  GpuTransform engine(named.plan, named.name);
  const Extents& size = named.plan.size;
  const std::size_t elements = static_cast<std::size_t>(size.elements());
  const auto [input, exact] = rounded_random_input(elements, seed);
  std::vector<std::complex<double>> forward(elements), inverse(elements);
  validate::cufft_reference(size, exact, forward, Direction::forward);
  validate::cufft_reference(size, exact, inverse, Direction::inverse, Scaling::full);

  const std::size_t bytes = elements * sizeof(input[0]);
  validate::DeviceBuffer d_in(bytes), d_out(bytes);
  std::vector<std::complex<float>> got(elements);
  std::vector<std::complex<double>> natural;  // a digit-reversed result, permuted to natural order
  for (Direction direction : {Direction::forward, Direction::inverse})
    for (Order order : {Order::natural, Order::digit_reversed})
      for (bool in_place : {false, true}) {
        const TransformOptions options{direction, order,
                                       direction == Direction::inverse ? Scaling::full : Scaling::none};
        d_in.upload(input.data());
        d_out.poison_nan();
        if (in_place) {
          d_out.copy_from(d_in);
          engine.execute(d_out.complex32(), d_out.complex32(), options);
        } else {
          engine.execute(d_in.complex32(), d_out.complex32(), options);
        }
        d_out.download(got.data());
        const std::string what = named.name + " " + to_string(direction) + " " + to_string(order) +
                                 (in_place ? " in-place" : " out-of-place");
        const std::vector<std::complex<double>>& reference = direction == Direction::forward ? forward : inverse;
        validate::ErrorReport error;
        if (order == Order::natural) {
          error = validate::compare(got, reference);
        } else {
          natural.assign(got.begin(), got.end());
          validate::to_natural_order(named.plan, natural);
          error = validate::compare(natural, reference);
        }
        EXPECT_EQ(error.non_finite, 0) << what << ": NaN or Inf left in the output, first at " << error.peak_index;
        EXPECT_LE(error.relative_l2, error_bound) << what << ": peak " << error.peak_error << " at "
                                                  << error.peak_index;
        std::cout << what << ": relative L2 " << error.relative_l2 << ", peak " << error.peak_error << " at "
                  << error.peak_index << "\n";
        if (!in_place) {
          d_in.download(got.data());
          EXPECT_EQ(std::memcmp(got.data(), input.data(), bytes), 0) << what << ": the input was written";
        }
      }
  // The round trip: the forward transform, then the scaled inverse of its output in place, back to the input.
  d_in.upload(input.data());
  d_out.poison_nan();
  engine.execute(d_in.complex32(), d_out.complex32(), {});
  engine.execute(d_out.complex32(), d_out.complex32(), {.direction = Direction::inverse, .scaling = Scaling::full});
  d_out.download(got.data());
  const validate::ErrorReport round_trip = validate::compare(got, exact);
  EXPECT_EQ(round_trip.non_finite, 0) << named.name << " round trip: NaN or Inf left";
  EXPECT_LE(round_trip.relative_l2, error_bound) << named.name << " round trip: peak " << round_trip.peak_error;
  std::cout << named.name << " round trip: relative L2 " << round_trip.relative_l2 << "\n";
}

class ShippedPlanOnGpu : public GpuTest, public ::testing::WithParamInterface<NamedPlan> {};

TEST_P(ShippedPlanOnGpu, MatchesCufftZ2ZInEveryMode) { check_plan_on_gpu(GetParam(), 42); }

INSTANTIATE_TEST_SUITE_P(Plans, ShippedPlanOnGpu, ::testing::ValuesIn(shipped_plans()),
                         [](const ::testing::TestParamInfo<NamedPlan>& info) {
                           std::string name = info.param.name;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// Mixed-radix plans (factors 3, 5, 7) against cuFFT in every mode: the small plans of every structure and the
// hand-written bench-size plans up to 240^3.
using MixedRadixPlansOnGpu = GpuTest;

TEST_F(MixedRadixPlansOnGpu, MatchCufftZ2ZInEveryMode) {
  constexpr std::int64_t largest_checked = 240LL * 240 * 240;
  std::vector<NamedPlan> plans = mixed_radix_plans();
  for (NamedPlan& named : mixed_bench_plans())
    if (named.plan.size.elements() <= largest_checked) plans.push_back(std::move(named));
  for (const NamedPlan& named : plans) check_plan_on_gpu(named, 29);
}

int env_or(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::atoi(value) : fallback;
}

using RandomPlansOnGpu = GpuTest;

// Random small legal plans (those whose tiles fit their profile). FFT3D_GPU_RANDOM_PLANS and
// FFT3D_GPU_RANDOM_MAX_LENGTH shrink the set (compute-sanitizer runs).
TEST_F(RandomPlansOnGpu, MatchCufftZ2Z) {
  int index = 0, checked = 0;
  const int count = env_or("FFT3D_GPU_RANDOM_PLANS", 16);
  const int max_length = env_or("FFT3D_GPU_RANDOM_MAX_LENGTH", 64);
  for (const NamedPlan& named : gpu_random_plans(count, max_length)) {
    SCOPED_TRACE(named.name);
    check_plan_on_gpu(named, 100 + index++);
    ++checked;
  }
  std::cout << checked << " random plans checked on the GPU\n";
  EXPECT_GT(checked, 0);
}

using TransformForDescriptor = GpuTest;

// A size instead of a plan: the table's plan where there is one, else the default planner's plan that lowers
// (sizes off the table, including one whose balanced X split would not fit the profile's shared memory).
TEST_F(TransformForDescriptor, UsesTheTableOrAPlanThatLowersAndMatchesCufft) {
  EXPECT_EQ(GpuTransform(TransformDesc{.extents = {256, 256, 256}}).plan(),
            load_plan_file(*find_table_plan("hopper", {256, 256, 256})).plan);
  std::uint64_t seed = 500;
  for (const Extents& size : {Extents{1024, 64, 32}, Extents{512, 256, 256}, Extents{32, 512, 16}}) {
    const Plan plan = GpuTransform(TransformDesc{.extents = size}).plan();
    check_plan_on_gpu({"default plan " + to_string(size) + " " + to_brace_string(plan.kernels), plan}, seed++);
  }
}

using DistributedTilesOnGpu = GpuTest;

// Kernels whose tile is spread over a cluster (distributed shared memory), in every mode.
TEST_F(DistributedTilesOnGpu, MatchCufftZ2Z) {
  std::uint64_t seed = 700;
  for (const NamedPlan& named : distributed_tile_plans()) check_plan_on_gpu(named, seed++);
}

using GpuTransformErrors = GpuTest;

TEST_F(GpuTransformErrors, NullPointersAndOversizedVolumesAreTypedErrors) {
  const Plan small = gpu_random_plans(1, 16).front().plan;
  GpuTransform engine(small);
  EXPECT_THROW(engine.execute(static_cast<const DeviceComplex32*>(nullptr), static_cast<DeviceComplex32*>(nullptr)), UsageError);
  Plan huge = random_plans(1, 2, 4, "hopper").front().plan;
  huge.size = {4096, 4096, 4096};  // 512 GiB of fp32 complex: over any current GPU's memory
  EXPECT_THROW(GpuTransform{huge}, OutOfMemory);
}

// `fft3d run --per-kernel` runs each kernel alone, the digit-reversal pass too where the transform never runs it (a
// plan whose sorted layout stores natural order in place and out of place): the pass still gets a workspace.
TEST_F(GpuTransformErrors, EachKernelRunsAloneIncludingAReorderPassTheTransformNeverRuns) {
  const Plan plan = load_plan_file(*find_table_plan("hopper", {256, 128, 128})).plan;
  GpuTransform engine(plan);
  GpuProfiler profiler(engine);
  ASSERT_TRUE(profiler.kernels().back().reorder_pass);
  ASSERT_FALSE(profiler.runs_reorder_pass(Order::natural, Placement::out_of_place));
  ASSERT_FALSE(profiler.runs_reorder_pass(Order::natural, Placement::in_place));
  const std::size_t bytes = static_cast<std::size_t>(plan.size.elements()) * sizeof(std::complex<float>);
  validate::DeviceBuffer in(bytes), out(bytes);
  for (std::size_t k = 0; k < profiler.kernels().size(); ++k) profiler.run_kernel(k, in.complex32(), out.complex32(), {});
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
}  // namespace fft3d::testing
