// Mixed-radix plans (lengths 2^a 3^b 5^c 7^d, radices with factors 2, 3, 5 and 7) on the CPU backend against FFTW,
// written by hand: C2C in fp64 (within 1e-12) and fp32 (within fp32_error_bound), both directions, both orders, in
// place and out of place, and R2C/C2R with NX/2 of any supported length, in place and out of place. Outputs (and
// the padding of in-place real rows) are poisoned with NaN first.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <limits>

#include "fft3d/checks.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/planner.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;
using Radices = std::vector<std::int64_t>;

constexpr double bound = 1e-12;
constexpr std::uint64_t seed = 20261126;

// A size and each axis's radix chain (empty for a length of 1).
struct MixedCase {
  Extents size;
  Radices x, y, z;
};

// Odd and even radices, whole-line radices (10, 15, 20, 243), prime powers (243, 343), power-of-two stages after a
// radix-3 one (384: X(128, 3, 128, 384, tw) then 16 and 8), and lengths of one.
const std::vector<MixedCase> complex_cases = {
    {{12, 10, 9}, {4, 3}, {10}, {3, 3}},
    {{24, 18, 15}, {3, 8}, {6, 3}, {15}},
    {{96, 100, 20}, {32, 3}, {4, 25}, {20}},
    {{243, 1, 1}, {27, 9}, {}, {}},
    {{1, 243, 1}, {}, {243}, {}},
    {{343, 7, 1}, {7, 49}, {7}, {}},
    {{1000, 1, 1}, {8, 125}, {}, {}},
    {{1, 1, 1000}, {}, {}, {10, 10, 10}},
    {{384, 6, 5}, {3, 16, 8}, {6}, {5}},
    {{14, 21, 12}, {14}, {3, 7}, {2, 3, 2}},
};

// The X stages in one kernel, the Y and Z stages in a second: the two-kernel structure of the shipped plans.
Plan plan_of(const MixedCase& c) {
  Plan plan;
  plan.size = c.size;
  plan.arch = "hopper";
  Kernel x{dif_stages(Axis::x, c.size.nx, c.x)};
  Kernel yz{dif_stages(Axis::y, c.size.ny, c.y)};
  for (const SubComputation& stage : dif_stages(Axis::z, c.size.nz, c.z)) yz.subs.push_back(stage);
  for (Kernel* kernel : {&x, &yz})
    if (!kernel->subs.empty()) plan.kernels.push_back(*kernel);
  return plan;
}

std::string described(const Plan& plan, const TransformOptions& options, bool in_place) {
  return to_yaml(plan) + to_string(options.direction) + ", " + to_string(options.order) + ", " +
         to_string(options.scaling) + (in_place ? ", in place" : ", out of place");
}

// One run in precision Real against FFTW's fp64 result on the same (Real-rounded) input; returns the relative L2
// error after moving a digit-reversed result to natural order.
template <class Real>
double checked_run(const CpuTransform& backend, const Values& in, const Values& reference,
                   const TransformOptions& options, bool in_place, double limit) {
  const Plan& plan = backend.plan();
  SCOPED_TRACE(described(plan, options, in_place));
  const std::vector<std::complex<Real>> input(in.begin(), in.end());
  std::vector<std::complex<Real>> out(in.size());
  if (in_place) {
    out = input;
    backend.execute(std::span(out), options);
  } else {
    poison(std::span(out));
    const std::vector<std::complex<Real>> kept = input;
    backend.execute(std::span(input), std::span(out), options);
    EXPECT_EQ(std::memcmp(input.data(), kept.data(), input.size() * sizeof(input[0])), 0) << "the input changed";
  }
  Values result(out.begin(), out.end());
  if (options.order == Order::digit_reversed) to_natural_order(plan, result);
  const ErrorReport report = compare(result, reference);
  EXPECT_TRUE(report.passes(limit)) << "relative L2 " << report.relative_l2 << ", peak " << report.peak_error
                                    << " at " << report.peak_index << ", " << report.non_finite << " non-finite";
  return report.relative_l2;
}

// Every direction, order and placement of `c` in precision Real; returns the worst relative L2 error.
template <class Real>
double check_complex_case(const MixedCase& c, double limit) {
  const Plan plan = plan_of(c);
  EXPECT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
  const CpuTransform backend(plan);
  Values in(static_cast<std::size_t>(plan.size.elements()));
  fill_random(in, seed);
  for (auto& v : in) v = Values::value_type(std::complex<Real>(v));  // the reference sees the run's input
  double worst = 0;
  int variant = 0;
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    for (Scaling scaling : {Scaling::none, Scaling::full}) {
      Values reference(in.size());
      fftw_reference(plan.size, in, reference, direction, scaling);
      for (Order order : {Order::natural, Order::digit_reversed}) {
        const bool in_place = variant++ % 2 == 1;  // each order and direction runs once in place, once not
        worst = std::max(worst, checked_run<Real>(backend, in, reference, {direction, order, scaling}, in_place,
                                                  limit));
        worst = std::max(worst, checked_run<Real>(backend, in, reference, {direction, order, scaling}, !in_place,
                                                  limit));
      }
    }
  }
  return worst;
}

TEST(CpuMixedRadixAgainstFftw, ComplexFp64InEveryVariant) {
  double worst = 0;
  for (const MixedCase& c : complex_cases) worst = std::max(worst, check_complex_case<double>(c, bound));
  std::printf("[ measured ] worst fp64 relative L2 over %zu mixed-radix plans x 16 variants: %.3g\n",
              complex_cases.size(), worst);
}

TEST(CpuMixedRadixAgainstFftw, ComplexFp32InEveryVariant) {
  double worst = 0;
  for (const MixedCase& c : complex_cases) worst = std::max(worst, check_complex_case<float>(c, fp32_error_bound));
  std::printf("[ measured ] worst fp32 relative L2 over %zu mixed-radix plans x 16 variants: %.3g\n",
              complex_cases.size(), worst);
}

// Plans of a subset of axes (Plan::axes) of mixed lengths against FFTW's guru interface over those axes: the
// untransformed axes are batch indices.
TEST(CpuMixedRadixAgainstFftw, SubsetsOfAxesInEveryVariant) {
  const MixedCase c{{12, 10, 9}, {4, 3}, {10}, {3, 3}};
  for (const std::vector<Axis>& axes : std::vector<std::vector<Axis>>{{Axis::x, Axis::z}, {Axis::y}, {Axis::z}}) {
    Plan plan;
    plan.size = c.size;
    plan.arch = "hopper";
    plan.axes = axes;
    for (Axis axis : axes) {
      const Radices& radices = axis == Axis::x ? c.x : axis == Axis::y ? c.y : c.z;
      plan.kernels.push_back(Kernel{dif_stages(axis, c.size[axis], radices)});
    }
    ASSERT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
    const CpuTransform backend(plan);
    Values in(static_cast<std::size_t>(plan.size.elements()));
    fill_random(in, seed);
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      Values reference(in.size());
      fftw_axes_reference(plan.size, axes, in, reference, direction, Scaling::full);
      for (Order order : {Order::natural, Order::digit_reversed})
        for (bool in_place : {false, true})
          checked_run<double>(backend, in, reference, {direction, order, Scaling::full}, in_place, bound);
    }
  }
}

// Real sizes: NX even and NX/2 odd (15, 343, 7, 1), a product of primes (12, 48, 1000), each with the X chain over
// NX/2 given.
const std::vector<MixedCase> real_cases = {
    {{24, 18, 15}, {4, 3}, {6, 3}, {15}},
    {{30, 10, 9}, {3, 5}, {10}, {9}},
    {{96, 100, 20}, {16, 3}, {4, 25}, {20}},
    {{686, 1, 1}, {7, 7, 7}, {}, {}},
    {{2000, 1, 1}, {10, 100}, {}, {}},
    {{14, 7, 3}, {7}, {7}, {3}},
    {{2, 9, 5}, {}, {9}, {5}},
};

// The R2C plan of a real case (r2c_plan_from: X stages, the step, then Y and Z) or its C2R mirror.
Plan real_plan_of(const MixedCase& c, TransformKind kind) {
  MixedCase stages = c;
  stages.size.nx = c.size.nx / 2;
  const Plan r2c = r2c_plan_from(plan_of(stages), c.size.nx);
  return kind == TransformKind::r2c ? r2c : c2r_mirror(r2c);
}

std::size_t count(std::int64_t n) { return static_cast<std::size_t>(n); }

// R2C of random reals, out of place and in place (rows padded to 2*(NX/2 + 1) reals, the padding NaN), against
// FFTW's r2c; returns the worst relative L2 error.
template <class Real>
double check_r2c_case(const MixedCase& c, Scaling scaling, double limit) {
  const Plan plan = real_plan_of(c, TransformKind::r2c);
  SCOPED_TRACE(to_yaml(plan) + to_string(scaling));
  EXPECT_TRUE(check_plan(plan).empty());
  const CpuTransform backend(plan);
  const Extents& size = plan.size;
  const std::int64_t pitch = size.nx / 2 + 1;
  const std::int64_t rows = size.ny * size.nz;
  std::vector<double> reals(count(size.elements()));
  fill_random(reals, seed);
  for (double& r : reals) r = static_cast<Real>(r);
  Values reference(count(pitch * rows));
  fftw_r2c_reference(size, reals, reference, scaling);

  const std::vector<Real> in(reals.begin(), reals.end());
  std::vector<std::complex<Real>> out(reference.size());
  poison(std::span(out));
  backend.execute(std::span(in), std::span(out), {.scaling = scaling});
  const ErrorReport apart = compare(std::span<const std::complex<Real>>(out), reference);
  EXPECT_TRUE(apart.passes(limit)) << "out of place: relative L2 " << apart.relative_l2;

  std::vector<Real> buffer(count(2 * pitch * rows), std::numeric_limits<Real>::quiet_NaN());
  for (std::int64_t r = 0; r < rows; ++r)
    std::copy_n(in.begin() + r * size.nx, size.nx, buffer.begin() + r * 2 * pitch);
  auto* spectrum = reinterpret_cast<std::complex<Real>*>(buffer.data());
  backend.execute(buffer.data(), spectrum, {.scaling = scaling});
  const ErrorReport in_place = compare(std::span<const std::complex<Real>>(spectrum, reference.size()), reference);
  EXPECT_TRUE(in_place.passes(limit)) << "in place: relative L2 " << in_place.relative_l2;
  return std::max(apart.relative_l2, in_place.relative_l2);
}

// C2R of a random half spectrum, out of place (the input kept) and in place, against FFTW's c2r; returns the worst
// relative L2 error.
template <class Real>
double check_c2r_case(const MixedCase& c, Scaling scaling, double limit) {
  const Plan plan = real_plan_of(c, TransformKind::c2r);
  SCOPED_TRACE(to_yaml(plan) + to_string(scaling));
  EXPECT_TRUE(check_plan(plan).empty());
  const CpuTransform backend(plan);
  const Extents& size = plan.size;
  const std::int64_t pitch = size.nx / 2 + 1;
  const std::int64_t rows = size.ny * size.nz;
  Values spectrum(count(pitch * rows));
  fill_random(spectrum, seed);
  for (auto& v : spectrum) v = Values::value_type(std::complex<Real>(v));
  std::vector<double> reference(count(size.elements()));
  fftw_c2r_reference(size, spectrum, reference, scaling);
  const TransformOptions options{.direction = Direction::inverse, .scaling = scaling};

  const std::vector<std::complex<Real>> in(spectrum.begin(), spectrum.end());
  const std::vector<std::complex<Real>> kept = in;
  std::vector<Real> out(reference.size());
  poison(std::span(out));
  backend.execute(std::span(in), std::span(out), options);
  const ErrorReport apart = compare(std::span<const Real>(out), reference);
  EXPECT_TRUE(apart.passes(limit)) << "out of place: relative L2 " << apart.relative_l2;
  EXPECT_EQ(std::memcmp(in.data(), kept.data(), in.size() * sizeof(in[0])), 0) << "c2r wrote its input";

  std::vector<std::complex<Real>> buffer = in;
  auto* reals = reinterpret_cast<Real*>(buffer.data());
  backend.execute(buffer.data(), reals, options);
  std::vector<Real> result(out.size());
  for (std::int64_t r = 0; r < rows; ++r)
    std::copy_n(reals + r * 2 * pitch, size.nx, result.begin() + r * size.nx);
  const ErrorReport in_place = compare(std::span<const Real>(result), reference);
  EXPECT_TRUE(in_place.passes(limit)) << "in place: relative L2 " << in_place.relative_l2;
  return std::max(apart.relative_l2, in_place.relative_l2);
}

template <class Real>
double check_real_cases(double limit) {
  double worst = 0;
  for (const MixedCase& c : real_cases)
    for (Scaling scaling : {Scaling::none, Scaling::full}) {
      worst = std::max(worst, check_r2c_case<Real>(c, scaling, limit));
      worst = std::max(worst, check_c2r_case<Real>(c, scaling, limit));
    }
  return worst;
}

TEST(CpuMixedRadixAgainstFftw, RealFp64InPlaceAndOutOfPlace) {
  const double worst = check_real_cases<double>(bound);
  std::printf("[ measured ] worst fp64 relative L2 over %zu mixed-radix real sizes, r2c and c2r: %.3g\n",
              real_cases.size(), worst);
}

TEST(CpuMixedRadixAgainstFftw, RealFp32InPlaceAndOutOfPlace) {
  const double worst = check_real_cases<float>(fp32_error_bound);
  std::printf("[ measured ] worst fp32 relative L2 over %zu mixed-radix real sizes, r2c and c2r: %.3g\n",
              real_cases.size(), worst);
}

}  // namespace
}  // namespace fft3d::validate
