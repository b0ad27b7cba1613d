// GPU tests of fp64 plans (precision fp64): the same plans as fp32, through the CUDA engine in complex double,
// against cuFFT in fp64 (Z2Z; D2Z and Z2D for real plans), on random inputs, outputs poisoned with NaN first, every
// mode of a complex plan (forward and inverse, natural and digit-reversed, in place and out of place), within a
// relative L2 error of 1e-13. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/plan_text.hpp"
#include "lowering/kernel_spec.hpp"
#include "test_plans.hpp"
#include "gpu_test.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

// fp64's bound: cuFFT Z2Z's own error against FFTW fp64 is near 1e-15 at these sizes; 1e-13 leaves the engine's
// twiddles and orders of operation a hundredfold of it.
constexpr double fp64_error_bound = 1e-13;

class GpuFp64Test : public GpuTest {};

Plan in_fp64(Plan plan) {
  plan.precision = Precision::fp64;
  return plan;
}

NamedPlan table_plan(const std::string& name) {
  return {name, in_fp64(load_plan_file(std::string(FFT3D_SOURCE_DIR) + "/plans/" + name).plan)};
}

std::complex<double>* complex64(const validate::DeviceBuffer& buffer) {
  return static_cast<std::complex<double>*>(buffer.get());
}

void expect_within_bound(const validate::ErrorReport& error, const std::string& what) {
  EXPECT_EQ(error.non_finite, 0) << what << ": NaN or Inf left in the output, first at " << error.peak_index;
  EXPECT_LE(error.relative_l2, fp64_error_bound) << what << ": peak " << error.peak_error << " at "
                                                 << error.peak_index;
  std::cout << what << ": relative L2 " << error.relative_l2 << ", peak " << error.peak_error << "\n";
}

// Every mode of a complex fp64 plan against cuFFT Z2Z, and the round trip.
void check_complex_plan(const NamedPlan& named, std::uint64_t seed) {
  GpuTransform engine(named.plan, named.name);
  const Extents& size = named.plan.size;
  const std::size_t elements = static_cast<std::size_t>(size.elements());
  std::vector<std::complex<double>> input(elements), forward(elements), inverse(elements), got(elements);
  validate::fill_random(input, seed);
  validate::cufft_reference(size, input, forward, Direction::forward);
  validate::cufft_reference(size, input, inverse, Direction::inverse, Scaling::full);
  const std::size_t bytes = elements * sizeof(input[0]);
  validate::DeviceBuffer d_in(bytes), d_out(bytes);
  for (Direction direction : {Direction::forward, Direction::inverse})
    for (Order order : {Order::natural, Order::digit_reversed})
      for (bool in_place : {false, true}) {
        const TransformOptions options{direction, order,
                                       direction == Direction::inverse ? Scaling::full : Scaling::none};
        d_in.upload(input.data());
        d_out.poison_nan();
        if (in_place) d_out.copy_from(d_in);
        engine.execute(in_place ? complex64(d_out) : complex64(d_in), complex64(d_out), options);
        d_out.download(got.data());
        if (order == Order::digit_reversed) validate::to_natural_order(named.plan, got);
        expect_within_bound(validate::compare(got, direction == Direction::forward ? forward : inverse),
                            named.name + " fp64 " + to_string(direction) + " " + to_string(order) +
                                (in_place ? " in-place" : " out-of-place"));
      }
  d_in.upload(input.data());
  d_out.poison_nan();
  engine.forward(complex64(d_in), complex64(d_out));
  engine.inverse(complex64(d_out), complex64(d_out));
  d_out.download(got.data());
  expect_within_bound(validate::compare(got, input), named.name + " fp64 round trip");
}

std::vector<NamedPlan> complex_fp64_plans() {
  // 512^3's second kernel spreads its tile of doubles over an opt-in cluster of 16 blocks.
  std::vector<NamedPlan> plans = {table_plan("hopper/128x128x128.yaml"), table_plan("hopper/256x256x256.yaml"),
                                  table_plan("hopper/512x512x512.yaml")};
  for (const NamedPlan& named : gpu_random_plans(8, 64))
    if (named.plan.arch == "hopper") plans.push_back({named.name, in_fp64(named.plan)});
  const std::vector<NamedPlan> mixed = mixed_radix_plans();
  for (std::size_t i = 0; i < mixed.size(); i += 3) plans.push_back({mixed[i].name, in_fp64(mixed[i].plan)});
  for (const NamedPlan& named : distributed_tile_plans()) plans.push_back({named.name, in_fp64(named.plan)});
  return plans;
}

TEST_F(GpuFp64Test, ComplexPlansMatchCufftZ2ZInEveryMode) {
  std::uint64_t seed = 64;
  for (const NamedPlan& named : complex_fp64_plans()) {
    SCOPED_TRACE(named.name);
    std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) {
      std::cout << named.name << ": a tile over the profile in fp64, not run\n";
      continue;
    }
    check_complex_plan(named, seed++);
  }
}

// R2C (D2Z) and C2R (Z2D) out of place, against cuFFT in fp64; the C2R's input is the D2Z of random reals, so its
// reference is those reals times NX*NY*NZ (Z2D unscaled, checked by cuFFT's own Z2D as well).
void check_real_plan(const NamedPlan& named, std::uint64_t seed) {
  GpuTransform engine(named.plan, named.name);
  const Extents& size = named.plan.size;
  const std::size_t reals = static_cast<std::size_t>(size.elements());
  const std::size_t spectrum_elements = static_cast<std::size_t>((size.nx / 2 + 1) * size.ny * size.nz);
  std::vector<double> input(reals), reals_got(reals), reals_want(reals);
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double& value : input) value = uniform(generator);
  std::vector<std::complex<double>> spectrum(spectrum_elements), spectrum_got(spectrum_elements);
  validate::cufft_r2c_reference(size, input, spectrum);
  validate::DeviceBuffer d_reals(reals * sizeof(double)), d_spectrum(spectrum_elements * sizeof(spectrum[0]));
  if (kind_of(named.plan) == TransformKind::r2c) {
    d_reals.upload(input.data());
    d_spectrum.poison_nan();
    engine.execute(static_cast<const double*>(d_reals.get()), complex64(d_spectrum));
    d_spectrum.download(spectrum_got.data());
    expect_within_bound(validate::compare(spectrum_got, spectrum), named.name + " fp64 R2C (D2Z)");
    return;
  }
  validate::cufft_c2r_reference(size, spectrum, reals_want);
  d_spectrum.upload(spectrum.data());
  d_reals.poison_nan();
  engine.execute(complex64(d_spectrum), static_cast<double*>(d_reals.get()), {.direction = Direction::inverse});
  d_reals.download(reals_got.data());
  const std::vector<std::complex<double>> got(reals_got.begin(), reals_got.end()), want(reals_want.begin(),
                                                                                        reals_want.end());
  expect_within_bound(validate::compare(got, want), named.name + " fp64 C2R (Z2D)");
}

TEST_F(GpuFp64Test, RealPlansMatchCufftD2ZAndZ2D) {
  std::uint64_t seed = 128;
  for (const char* name : {"hopper/128x128x128-r2c.yaml", "hopper/128x128x128-c2r.yaml",
                           "hopper/256x256x256-r2c.yaml", "hopper/256x256x256-c2r.yaml"}) {
    SCOPED_TRACE(name);
    check_real_plan(table_plan(name), seed++);
  }
}

// 1D real rows over one block in fp64 (NX over 16384): the step as a pass of its own (LoweredPlan::real_pass).
TEST_F(GpuFp64Test, RealRowsOverOneBlockMatchCufftD2ZAndZ2D) {
  std::uint64_t seed = 330;
  for (const std::int64_t nx : {std::int64_t{1} << 15, std::int64_t{1} << 21})
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
      GpuTransform engine({.extents = {nx, 1, 1}, .kind = kind, .precision = Precision::fp64});
      ASSERT_TRUE(lower_plan(engine.plan(), *find_arch_profile("hopper")).real_pass) << engine.plan_source();
      check_real_plan({engine.plan_source(), engine.plan()}, seed++);
    }
}

// C2R (Z2D) in place in fp64 through the sorted layout's late form (docs/performance.md L158): the spectrum in the
// buffer, the reals back in its rows padded to 2*(NX/2+1), against cuFFT's Z2D of the D2Z of random reals.
TEST_F(GpuFp64Test, C2rInPlaceThroughTheLateFormMatchesCufftZ2D) {
  const NamedPlan named = table_plan("hopper/128x512x512-c2r.yaml");
  Plan plan = named.plan;
  plan.precision = Precision::fp64;
  GpuTransform engine(plan, named.name);
  ASSERT_TRUE(lower_plan(plan, *find_arch_profile("hopper")).sorts_late_in_place);
  const Extents& size = plan.size;
  const std::int64_t rows = size.ny * size.nz, padded_row = 2 * (size.nx / 2 + 1);
  std::vector<double> input(static_cast<std::size_t>(size.elements())), want(input.size()), got(input.size());
  std::mt19937_64 generator(77);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double& value : input) value = uniform(generator);
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(rows * padded_row / 2));
  validate::cufft_r2c_reference(size, input, spectrum);
  validate::cufft_c2r_reference(size, spectrum, want);
  validate::DeviceBuffer buffer(spectrum.size() * sizeof(spectrum[0]));
  buffer.upload(spectrum.data());
  engine.execute(complex64(buffer), static_cast<double*>(buffer.get()), {.direction = Direction::inverse});
  std::vector<double> padded(static_cast<std::size_t>(rows * padded_row));
  buffer.download(padded.data());
  for (std::int64_t row = 0; row < rows; ++row)
    std::copy_n(padded.begin() + row * padded_row, size.nx, got.begin() + row * size.nx);
  const std::vector<std::complex<double>> got_values(got.begin(), got.end()), want_values(want.begin(), want.end());
  expect_within_bound(validate::compare(got_values, want_values), named.name + " fp64 C2R (Z2D) in place");
}

// A descriptor asking fp64 gets a plan of precision fp64 (the table's where the planner's fp64 costs rank it first,
// else the planner's). 2^20 in 1D is a four-step plan whose twiddle span is two-level (emit_twiddles.hpp: a table
// and the low angle's series, here to fp64's rounding).
TEST_F(GpuFp64Test, DescriptorsInFp64RunAndMatchCufft) {
  for (const Extents& size : {Extents{128, 128, 128}, Extents{64, 32, 16}, Extents{96, 96, 96}, Extents{1 << 20, 1, 1}}) {
    GpuTransform engine({.extents = size, .precision = Precision::fp64});
    EXPECT_EQ(engine.plan().precision, Precision::fp64) << engine.plan_source();
    check_complex_plan({engine.plan_source(), engine.plan()}, 7);
  }
}

// The data type must be the plan's precision.
TEST_F(GpuFp64Test, DataOfAnotherPrecisionIsAUsageError) {
  GpuTransform fp64(table_plan("hopper/128x128x128.yaml").plan);
  validate::DeviceBuffer data(128 * 128 * 128 * sizeof(std::complex<double>));
  EXPECT_THROW(fp64.forward(data.complex32(), data.complex32()), UsageError);
  GpuTransform fp32(load_plan_file(std::string(FFT3D_SOURCE_DIR) + "/plans/hopper/128x128x128.yaml").plan);
  EXPECT_THROW(fp32.forward(complex64(data), complex64(data)), UsageError);
}

}  // namespace
}  // namespace fft3d::testing
