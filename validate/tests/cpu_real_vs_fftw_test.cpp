// The CPU backend's real transforms against FFTW's fp64 r2c and c2r on random legal real plans, in place and out of
// place, with NaN-poisoned outputs (and padding); the round trip; the R2C output expanded by Hermitian symmetry
// against the C2C output; the DC/Nyquist convention; fp32 against the fp64 oracle; power-of-two and mixed-radix
// plans. A failure prints the seed and the plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "fft3d/checks.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/lengths.hpp"
#include "validate/oracle.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::validate {
namespace {

using Reals = std::vector<double>;
using Values = std::vector<std::complex<double>>;

constexpr std::uint64_t first_seed = 20261125;
constexpr int plans_per_kind = 300;
constexpr double bound = 1e-12;
constexpr double fp32_bound = 1e-6;
// Small volumes: hundreds of plans in a few seconds, with every axis length from 1 (2 for NX) to 128.
constexpr RandomPlanLimits small_volumes{.max_axis_length = 128, .max_elements = std::int64_t{1} << 16};
constexpr RandomPlanLimits small_mixed_volumes{
    .max_axis_length = 128, .max_elements = std::int64_t{1} << 16, .factors = supported_factors};
constexpr int mixed_plans_per_kind = 200;
constexpr int odd_plans_per_kind = 100;

std::size_t count(std::int64_t n) { return static_cast<std::size_t>(n); }
std::int64_t half_columns(const Extents& size) { return size.nx / 2 + 1; }
std::int64_t rows_of(const Extents& size) { return size.ny * size.nz; }
std::int64_t spectrum_count(const Extents& size) { return half_columns(size) * rows_of(size); }
std::int64_t padded_count(const Extents& size) { return 2 * spectrum_count(size); }

// The unpadded reals laid into rows of 2*(NX/2 + 1) reals, the padding NaN (a transform that reads it fails).
template <class Real>
std::vector<Real> padded(const Extents& size, const Reals& reals) {
  std::vector<Real> rows(count(padded_count(size)), std::numeric_limits<Real>::quiet_NaN());
  for (std::int64_t r = 0; r < rows_of(size); ++r)
    for (std::int64_t x = 0; x < size.nx; ++x)
      rows[count(r * 2 * half_columns(size) + x)] = static_cast<Real>(reals[count(r * size.nx + x)]);
  return rows;
}

// The first NX reals of each padded row.
template <class Real>
std::vector<Real> unpadded(const Extents& size, const Real* rows) {
  std::vector<Real> reals(count(size.elements()));
  for (std::int64_t r = 0; r < rows_of(size); ++r)
    std::copy_n(rows + r * 2 * half_columns(size), size.nx, reals.begin() + r * size.nx);
  return reals;
}

std::string failure(const char* what, std::uint64_t seed, const ErrorReport& report, const Plan& plan) {
  return std::string(what) + ", seed " + std::to_string(seed) + ": relative L2 " + std::to_string(report.relative_l2) +
         ", peak " + std::to_string(report.peak_error) + " at " + std::to_string(report.peak_index) + ", " +
         std::to_string(report.non_finite) + " non-finite\n" + to_yaml(plan);
}

// R2C in place and out of place against FFTW's r2c; returns the larger relative L2 error.
template <class Real>
double check_r2c(const CpuTransform& backend, std::uint64_t seed, Scaling scaling, double limit) {
  const Plan& plan = backend.plan();
  const Extents& size = plan.size;
  Reals reals(count(size.elements()));
  fill_random(reals, seed);
  Values reference(count(spectrum_count(size)));
  fftw_r2c_reference(size, reals, reference, scaling);

  const std::vector<Real> in(reals.begin(), reals.end());
  const std::vector<Real> kept = in;
  std::vector<std::complex<Real>> out(reference.size());
  poison(std::span(out));
  backend.execute(std::span<const Real>(in), std::span(out), {.scaling = scaling});
  const ErrorReport report = compare(std::span<const std::complex<Real>>(out), reference);
  EXPECT_TRUE(report.passes(limit)) << failure("r2c out of place", seed, report, plan);
  EXPECT_EQ(std::memcmp(in.data(), kept.data(), in.size() * sizeof(Real)), 0) << "r2c changed its input, seed " << seed;

  std::vector<Real> buffer = padded<Real>(size, reals);
  auto* spectrum = reinterpret_cast<std::complex<Real>*>(buffer.data());
  backend.execute(buffer.data(), spectrum, {.scaling = scaling});
  const ErrorReport in_place = compare(std::span<const std::complex<Real>>(spectrum, reference.size()), reference);
  EXPECT_TRUE(in_place.passes(limit)) << failure("r2c in place", seed, in_place, plan);
  return std::max(report.relative_l2, in_place.relative_l2);
}

// C2R in place and out of place against FFTW's c2r, on a random (not Hermitian) half spectrum; returns the larger
// relative L2 error.
template <class Real>
double check_c2r(const CpuTransform& backend, std::uint64_t seed, Scaling scaling, double limit) {
  const Plan& plan = backend.plan();
  const Extents& size = plan.size;
  Values spectrum(count(spectrum_count(size)));
  fill_random(spectrum, seed);
  Reals reference(count(size.elements()));
  fftw_c2r_reference(size, spectrum, reference, scaling);
  const TransformOptions options{.direction = Direction::inverse, .scaling = scaling};

  const std::vector<std::complex<Real>> in(spectrum.begin(), spectrum.end());
  const std::vector<std::complex<Real>> kept = in;
  std::vector<Real> out(reference.size());
  poison(std::span(out));
  backend.execute(std::span(in), std::span(out), options);
  const ErrorReport report = compare(std::span<const Real>(out), reference);
  EXPECT_TRUE(report.passes(limit)) << failure("c2r out of place", seed, report, plan);
  EXPECT_EQ(std::memcmp(in.data(), kept.data(), in.size() * sizeof(in[0])), 0)
      << "c2r out of place wrote its input, seed " << seed;

  std::vector<std::complex<Real>> buffer = in;
  auto* reals = reinterpret_cast<Real*>(buffer.data());
  backend.execute(buffer.data(), reals, options);
  const std::vector<Real> result = unpadded<Real>(size, reals);
  const ErrorReport in_place = compare(std::span<const Real>(result), reference);
  EXPECT_TRUE(in_place.passes(limit)) << failure("c2r in place", seed, in_place, plan);
  return std::max(report.relative_l2, in_place.relative_l2);
}

void print_worst(const char* what, double worst) {
  std::printf("[ measured ] worst relative L2 over %d random %s plans, in place and out of place: %.3g\n",
              plans_per_kind, what, worst);
}

TEST(CpuRealAgainstFftw, RandomLegalR2CPlansInPlaceAndOutOfPlace) {
  bool saw_nx_two = false;
  double worst = 0;
  for (int i = 0; i < plans_per_kind; ++i) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const Plan plan = random_legal_real_plan(random, TransformKind::r2c, small_volumes);
    ASSERT_TRUE(check_plan(plan).empty()) << "seed " << seed << "\n" << to_yaml(plan);
    saw_nx_two |= plan.size.nx == 2;
    worst = std::max(worst, check_r2c<double>(CpuTransform(plan), seed, i % 2 == 0 ? Scaling::none : Scaling::full,
                                              bound));
    if (HasFailure()) return;
  }
  EXPECT_TRUE(saw_nx_two);
  print_worst("r2c", worst);
}

TEST(CpuRealAgainstFftw, RandomLegalC2RPlansInPlaceAndOutOfPlace) {
  bool saw_nx_two = false;
  double worst = 0;
  for (int i = 0; i < plans_per_kind; ++i) {
    const std::uint64_t seed = first_seed + 1000 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const Plan plan = random_legal_real_plan(random, TransformKind::c2r, small_volumes);
    ASSERT_TRUE(check_plan(plan).empty()) << "seed " << seed << "\n" << to_yaml(plan);
    saw_nx_two |= plan.size.nx == 2;
    worst = std::max(worst, check_c2r<double>(CpuTransform(plan), seed, i % 2 == 0 ? Scaling::full : Scaling::none,
                                              bound));
    if (HasFailure()) return;
  }
  EXPECT_TRUE(saw_nx_two);
  print_worst("c2r", worst);
}

TEST(CpuRealAgainstFftw, Fp32OverloadsStayNearTheFp64Oracle) {
  for (int i = 0; i < plans_per_kind / 5; ++i) {
    const std::uint64_t seed = first_seed + 2000 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const CpuTransform r2c(random_legal_real_plan(random, TransformKind::r2c, small_volumes));
    check_r2c<float>(r2c, seed, Scaling::none, fp32_bound);
    const CpuTransform c2r(random_legal_real_plan(random, TransformKind::c2r, small_volumes));
    check_c2r<float>(c2r, seed, Scaling::full, fp32_bound);
    if (HasFailure()) return;
  }
}

// Mixed-radix real plans: NX even, NX/2 and NY, NZ of the form 2^a 3^b 5^c 7^d, radices any chain of divisors.
TEST(CpuRealAgainstFftw, RandomLegalMixedRadixPlansInPlaceAndOutOfPlace) {
  bool saw_odd_half = false;
  double worst = 0;
  for (int i = 0; i < mixed_plans_per_kind; ++i) {
    const std::uint64_t seed = first_seed + 3000 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const Scaling scaling = i % 2 == 0 ? Scaling::none : Scaling::full;
    const Plan r2c = random_legal_real_plan(random, TransformKind::r2c, small_mixed_volumes);
    const Plan c2r = random_legal_real_plan(random, TransformKind::c2r, small_mixed_volumes);
    for (const Plan* plan : {&r2c, &c2r}) {
      ASSERT_TRUE(check_plan(*plan).empty()) << "seed " << seed << "\n" << to_yaml(*plan);
      saw_odd_half |= plan->size.nx / 2 % 2 == 1 && plan->size.nx > 2;
    }
    worst = std::max(worst, check_r2c<double>(CpuTransform(r2c), seed, scaling, bound));
    worst = std::max(worst, check_c2r<double>(CpuTransform(c2r), seed, scaling, bound));
    if (HasFailure()) return;
  }
  EXPECT_TRUE(saw_odd_half);
  std::printf("[ measured ] worst relative L2 over %d random mixed-radix r2c and c2r plans each: %.3g\n",
              mixed_plans_per_kind, worst);
}

TEST(CpuRealAgainstFftw, MixedRadixFp32OverloadsStayNearTheFp64Oracle) {
  for (int i = 0; i < mixed_plans_per_kind / 5; ++i) {
    const std::uint64_t seed = first_seed + 4000 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const CpuTransform r2c(random_legal_real_plan(random, TransformKind::r2c, small_mixed_volumes));
    check_r2c<float>(r2c, seed, Scaling::full, fp32_bound);
    const CpuTransform c2r(random_legal_real_plan(random, TransformKind::c2r, small_mixed_volumes));
    check_c2r<float>(c2r, seed, Scaling::none, fp32_bound);
    if (HasFailure()) return;
  }
}

// Odd NX (RealStep): the X stages transform NX complex values in the step's kernel; the half spectrum keeps
// frequencies 0 .. (NX-1)/2, FFTW's layout, and the in-place rows are padded to NX + 1 reals.
TEST(CpuRealAgainstFftw, RandomLegalOddNxPlansInPlaceAndOutOfPlace) {
  bool saw_nx_one = false;
  double worst = 0;
  for (int i = 0; i < odd_plans_per_kind; ++i) {
    const std::uint64_t seed = first_seed + 5000 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const Scaling scaling = i % 2 == 0 ? Scaling::none : Scaling::full;
    const Plan r2c = random_legal_odd_real_plan(random, TransformKind::r2c, small_mixed_volumes);
    const Plan c2r = random_legal_odd_real_plan(random, TransformKind::c2r, small_mixed_volumes);
    for (const Plan* plan : {&r2c, &c2r}) {
      ASSERT_TRUE(check_plan(*plan).empty()) << "seed " << seed << "\n" << to_yaml(*plan);
      ASSERT_EQ(plan->size.nx % 2, 1) << "seed " << seed;
      saw_nx_one |= plan->size.nx == 1;
    }
    worst = std::max(worst, check_r2c<double>(CpuTransform(r2c), seed, scaling, bound));
    worst = std::max(worst, check_c2r<double>(CpuTransform(c2r), seed, scaling, bound));
    if (HasFailure()) return;
  }
  EXPECT_TRUE(saw_nx_one);
  std::printf("[ measured ] worst relative L2 over %d random odd-NX r2c and c2r plans each: %.3g\n",
              odd_plans_per_kind, worst);
}

TEST(CpuRealAgainstFftw, OddNxFp32OverloadsStayNearTheFp64Oracle) {
  for (int i = 0; i < odd_plans_per_kind / 5; ++i) {
    const std::uint64_t seed = first_seed + 6000 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const CpuTransform r2c(random_legal_odd_real_plan(random, TransformKind::r2c, small_mixed_volumes));
    check_r2c<float>(r2c, seed, Scaling::full, fp32_bound);
    const CpuTransform c2r(random_legal_odd_real_plan(random, TransformKind::c2r, small_mixed_volumes));
    check_c2r<float>(c2r, seed, Scaling::none, fp32_bound);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace fft3d::validate
