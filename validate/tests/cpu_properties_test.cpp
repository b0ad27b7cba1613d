// FFTW-style property checks of the CPU backend, which need no reference transform: impulses become plane waves,
// the transform is linear, a circular shift multiplies by a phase ramp, and the scaled inverse undoes the forward
// transform, on power-of-two and mixed-radix plans. Plus the fp32 error of a 64^3 decomposition against FFTW.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/plan_text.hpp"
#include "validate/oracle.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;

constexpr double bound = 1e-12;
constexpr int plans_per_property = 24;
constexpr int mixed_plans_per_property = 16;
constexpr int cases_per_property = plans_per_property + mixed_plans_per_property;

struct Coordinates {
  std::int64_t x = 0, y = 0, z = 0;
};

std::int64_t index_of(const Extents& n, const Coordinates& c) { return c.x + n.nx * (c.y + n.ny * c.z); }
Coordinates coordinates_of(const Extents& n, std::int64_t i) { return {i % n.nx, i / n.nx % n.ny, i / (n.nx * n.ny)}; }

// e^(sign 2 pi i (a/na + b/nb + c/nc)), each fraction reduced exactly first; sign - for forward.
std::complex<double> phase(Direction direction, const Extents& n, const Coordinates& k, const Coordinates& p) {
  const long double turns = static_cast<long double>(k.x * p.x % n.nx) / n.nx +
                            static_cast<long double>(k.y * p.y % n.ny) / n.ny +
                            static_cast<long double>(k.z * p.z % n.nz) / n.nz;
  const long double sign = direction == Direction::forward ? -1 : 1;
  const std::complex<long double> w = std::polar(1.0L, sign * 2 * std::numbers::pi_v<long double> * turns);
  return {static_cast<double>(w.real()), static_cast<double>(w.imag())};
}

// The i-th plan of a property: small random legal plans, with the direction alternating.
struct Case {
  Plan plan;
  Direction direction;
  std::uint64_t seed;
};
// The first plans_per_property cases have power-of-two lengths, the rest mixed lengths (factors 2, 3, 5 and 7).
Case case_of(int property, int i) {
  const std::uint64_t seed = 1000 * static_cast<std::uint64_t>(property) + static_cast<std::uint64_t>(i);
  std::mt19937_64 random(seed);
  const RandomPlanLimits limits{.max_elements = 1 << 15,
                                .factors = i < plans_per_property ? std::span<const std::int64_t>(power_of_two_factor)
                                                                  : std::span<const std::int64_t>(supported_factors)};
  return {random_legal_plan(random, limits), i % 2 ? Direction::inverse : Direction::forward, seed};
}

Values transform(const Case& c, const Values& in) {
  Values out(in.size());
  poison(out);
  CpuTransform(c.plan).execute(in, out, {.direction = c.direction});
  return out;
}

std::string describe(const Case& c) {
  return "seed " + std::to_string(c.seed) + ", " + to_string(c.direction) + "\n" + to_yaml(c.plan);
}

TEST(CpuBackendProperties, ImpulseAtARandomPositionBecomesAPlaneWave) {
  for (int i = 0; i < cases_per_property; ++i) {
    const Case c = case_of(1, i);
    const Extents& n = c.plan.size;
    std::mt19937_64 random(c.seed);
    const auto position = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(n.elements()));
    const Coordinates p = coordinates_of(n, position);
    Values impulse(static_cast<std::size_t>(n.elements()), 0.0), wave(impulse.size());
    impulse[static_cast<std::size_t>(index_of(n, p))] = 1.0;
    for (std::int64_t k = 0; k < n.elements(); ++k)
      wave[static_cast<std::size_t>(k)] = phase(c.direction, n, coordinates_of(n, k), p);
    const ErrorReport report = compare(transform(c, impulse), wave);
    EXPECT_TRUE(report.passes(bound)) << report.relative_l2 << ", " << describe(c);
  }
}

TEST(CpuBackendProperties, IsLinear) {
  for (int i = 0; i < cases_per_property; ++i) {
    const Case c = case_of(2, i);
    Values x(static_cast<std::size_t>(c.plan.size.elements())), y(x.size()), combined(x.size());
    fill_random(x, c.seed);
    fill_random(y, c.seed + 1);
    const std::complex<double> a(0.75, -1.5), b(-2.0, 0.25);
    for (std::size_t j = 0; j < x.size(); ++j) combined[j] = a * x[j] + b * y[j];
    const Values fx = transform(c, x), fy = transform(c, y);
    Values expected(x.size());
    for (std::size_t j = 0; j < x.size(); ++j) expected[j] = a * fx[j] + b * fy[j];
    const ErrorReport report = compare(transform(c, combined), expected);
    EXPECT_TRUE(report.passes(bound)) << report.relative_l2 << ", " << describe(c);
  }
}

// x'[p] = x[p - s] (circular, along one axis) transforms to X'[k] = w^(k s) X[k].
TEST(CpuBackendProperties, ACircularShiftMultipliesByAPhaseRamp) {
  for (int i = 0; i < cases_per_property; ++i) {
    const Case c = case_of(3, i);
    const Extents& n = c.plan.size;
    Values x(static_cast<std::size_t>(n.elements()));
    fill_random(x, c.seed);
    const Values fx = transform(c, x);
    std::mt19937_64 random(c.seed);
    for (Axis axis : all_axes) {
      const std::int64_t length = n[axis];
      const std::int64_t s = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(length));
      Coordinates shift;
      (axis == Axis::x ? shift.x : axis == Axis::y ? shift.y : shift.z) = s;
      Values shifted(x.size()), expected(x.size());
      for (std::int64_t j = 0; j < n.elements(); ++j) {
        const Coordinates p = coordinates_of(n, j);
        const Coordinates moved{(p.x + shift.x) % n.nx, (p.y + shift.y) % n.ny, (p.z + shift.z) % n.nz};
        shifted[static_cast<std::size_t>(index_of(n, moved))] = x[static_cast<std::size_t>(j)];
        expected[static_cast<std::size_t>(j)] = phase(c.direction, n, p, shift) * fx[static_cast<std::size_t>(j)];
      }
      const ErrorReport report = compare(transform(c, shifted), expected);
      EXPECT_TRUE(report.passes(bound)) << "shift " << s << " along " << axis_letter(axis) << ": "
                                        << report.relative_l2 << ", " << describe(c);
    }
  }
}

TEST(CpuBackendProperties, ForwardThenScaledInverseReturnsTheInput) {
  for (int i = 0; i < cases_per_property; ++i) {
    const Case c = case_of(4, i);
    const CpuTransform backend(c.plan);
    Values x(static_cast<std::size_t>(c.plan.size.elements())), spectrum(x.size()), back(x.size());
    fill_random(x, c.seed);
    poison(spectrum);
    poison(back);
    // The inverse may leave its result digit-reversed; to_natural_order must then undo exactly that.
    const Order order = i % 2 ? Order::natural : Order::digit_reversed;
    backend.execute(x, spectrum, {.order = Order::natural});
    backend.execute(spectrum, back, {.direction = Direction::inverse, .order = order, .scaling = Scaling::full});
    if (order == Order::digit_reversed) to_natural_order(c.plan, back);
    const ErrorReport report = compare(back, x);
    EXPECT_TRUE(report.passes(bound)) << report.relative_l2 << ", " << describe(c);
  }
}

TEST(CpuBackendFp32, ErrorOfA64CubedPlanAgainstFftwIsBelow1e5) {
  const Plan plan = parse_plan(R"yaml(size: [64, 64, 64]
arch: fermi
kernels:
  - "Y(16, 4, 16, 64, tw)"
  - "X(16, 4, 16, 64, tw), Y(4, 16, 1, 16, no-tw)"
  - "X(16, 4, 4, 16, tw), Z(8, 8, 8, 64, tw)"
  - "X(16, 4, 1, 4, no-tw), Z(8, 8, 1, 8, no-tw)"
)yaml").plan;
  Values in(static_cast<std::size_t>(plan.size.elements())), ref(in.size());
  fill_random(in, 64);
  const std::vector<std::complex<float>> in32(in.begin(), in.end());
  const CpuTransform backend(plan);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    std::vector<std::complex<float>> out32(in.size());
    poison(out32);
    backend.execute(in32, out32, {.direction = direction});
    // The reference transforms the fp32-rounded input, so only the transform's own rounding is measured.
    const Values rounded(in32.begin(), in32.end());
    fftw_reference(plan.size, rounded, ref, direction);
    const ErrorReport report = compare(out32, ref);
    std::printf("[ measured ] fp32 64^3 %s: relative L2 %.3g, peak %.3g at %lld\n", to_string(direction).c_str(),
                report.relative_l2, report.peak_error, static_cast<long long>(report.peak_index));
    EXPECT_TRUE(report.passes(1e-5)) << report.relative_l2;
    EXPECT_GT(report.relative_l2, 1e-9) << "fp32 arithmetic should show fp32 rounding";
  }
}

}  // namespace
}  // namespace fft3d::validate
