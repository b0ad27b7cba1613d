// The CPU backend against definitions that need no FFT library: the O(N^2) DFT in long double, impulses, the
// round trip, agreement of different decompositions, and its usage contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <set>
#include <vector>

#include "cpu_loops.hpp"
#include "direct_dft.hpp"
#include "cpu_tables.hpp"
#include "fft3d/checks.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d {
namespace {

using testing::direct_dft;

using Values = std::vector<std::complex<double>>;

Plan plan_of(const std::string& size, const std::string& kernels) {
  return parse_plan("size: " + size + "\narch: fermi\nplan: \"" + kernels + "\"\n").plan;
}

// One stage per axis: each is a whole-line DFT.
const char* single_stage_8x4x2 = "{X(1, 8, 1, 8, no-tw), Y(1, 4, 1, 4, no-tw)} {Z(1, 2, 1, 2, no-tw)}";
// Radix 2 and 4 stages interleaved over three kernels.
const char* multi_stage_16x8x4 =
    "{X(8, 2, 8, 16, tw), Z(2, 2, 2, 4, tw)} {Y(2, 4, 2, 8, tw), X(4, 4, 2, 8, tw)} "
    "{X(8, 2, 1, 2, no-tw), Y(4, 2, 1, 2, no-tw), Z(2, 2, 1, 2, no-tw)}";

Values random_values(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Values values(static_cast<std::size_t>(count));
  for (auto& v : values) v = {uniform(random), uniform(random)};
  return values;
}

double max_abs_difference(const Values& a, const Values& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(CpuTransform, SingleStagePlanEqualsTheDirectDft) {
  const Plan plan = plan_of("[8, 4, 2]", single_stage_8x4x2);
  const Values in = random_values(plan.size.elements(), 1);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    Values out(in.size());
    CpuTransform(plan).execute(in, out, {.direction = direction});
    EXPECT_LT(max_abs_difference(out, direct_dft(plan.size, in, direction)), 1e-13) << to_string(direction);
  }
}

TEST(CpuTransform, MultiStagePlanEqualsTheDirectDftInEveryOrderAndScaling) {
  const Plan plan = plan_of("[16, 8, 4]", multi_stage_16x8x4);
  const Values in = random_values(plan.size.elements(), 2);
  const Values forward = direct_dft(plan.size, in, Direction::forward);
  Values out(in.size());
  CpuTransform(plan).execute(in, out, {});
  EXPECT_LT(max_abs_difference(out, forward), 1e-12);

  Values scaled_inverse = direct_dft(plan.size, in, Direction::inverse);
  for (auto& v : scaled_inverse) v /= static_cast<double>(plan.size.elements());
  CpuTransform(plan).execute(in, out, {.direction = Direction::inverse, .scaling = Scaling::full});
  EXPECT_LT(max_abs_difference(out, scaled_inverse), 1e-14);
}

// Radices 3, 4, 5, 6, 7, 10 and 15, whole-line and split, twiddled and not, against the long double DFT.
TEST(CpuTransform, MixedRadixPlansEqualTheDirectDftInEveryOrder) {
  const std::vector<std::pair<const char*, const char*>> plans = {
      {"[12, 15, 1]", "{X(4, 3, 4, 12, tw), X(3, 4, 1, 4, no-tw)} {Y(1, 15, 1, 15, no-tw)}"},
      {"[30, 9, 1]", "{X(3, 10, 3, 30, tw), Y(3, 3, 3, 9, tw)} {X(10, 3, 1, 3, no-tw), Y(3, 3, 1, 3, no-tw)}"},
      {"[6, 1, 35]", "{X(1, 6, 1, 6, no-tw), Z(5, 7, 5, 35, tw)} {Z(7, 5, 1, 5, no-tw)}"},
  };
  for (const auto& [size, kernels] : plans) {
    const Plan plan = plan_of(size, kernels);
    ASSERT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
    const Values in = random_values(plan.size.elements(), 7);
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      const Values expected = direct_dft(plan.size, in, direction);
      Values out(in.size());
      CpuTransform(plan).execute(in, out, {.direction = direction});
      EXPECT_LT(max_abs_difference(out, expected), 1e-12) << size << " " << to_string(direction);
      CpuTransform(plan).execute(in, out, {.direction = direction, .order = Order::digit_reversed});
      Values natural(out.size());
      const Extents& n = plan.size;
      const auto px = digit_reversed_positions(radices_of(plan, Axis::x));
      const auto py = digit_reversed_positions(radices_of(plan, Axis::y));
      const auto pz = digit_reversed_positions(radices_of(plan, Axis::z));
      for (std::int64_t z = 0; z < n.nz; ++z)
        for (std::int64_t y = 0; y < n.ny; ++y)
          for (std::int64_t x = 0; x < n.nx; ++x)
            natural[static_cast<std::size_t>(x + n.nx * (y + n.ny * z))] =
                out[static_cast<std::size_t>(px[x] + n.nx * (py[y] + n.ny * pz[z]))];
      EXPECT_LT(max_abs_difference(natural, expected), 1e-12) << size << " digit-reversed";
    }
  }
}

TEST(CpuTransform, ImpulseAtTheOriginGivesAllOnes) {
  const Plan plan = plan_of("[16, 8, 4]", multi_stage_16x8x4);
  for (Order order : {Order::natural, Order::digit_reversed}) {
    Values data(static_cast<std::size_t>(plan.size.elements()), 0.0);
    data[0] = 1.0;
    CpuTransform(plan).execute(std::span(data), {.order = order});
    for (const auto& v : data) ASSERT_EQ(v, std::complex<double>(1.0, 0.0)) << to_string(order);
  }
}

TEST(CpuTransform, ConstantInputGivesAnImpulseOfHeightN) {
  const Plan plan = plan_of("[16, 8, 4]", multi_stage_16x8x4);
  Values data(static_cast<std::size_t>(plan.size.elements()), std::complex<double>(1.0, 0.0));
  CpuTransform(plan).execute(std::span(data), {});
  EXPECT_NEAR(std::abs(data[0] - std::complex<double>(512.0, 0.0)), 0.0, 1e-12);
  for (std::size_t i = 1; i < data.size(); ++i) ASSERT_LT(std::abs(data[i]), 1e-12) << i;
}

TEST(CpuTransform, RoundTripWithFullScalingReturnsTheInput) {
  const Plan plan = plan_of("[16, 8, 4]", multi_stage_16x8x4);
  const CpuTransform backend(plan);
  const Values in = random_values(plan.size.elements(), 3);
  Values data = in;
  backend.execute(std::span(data), {});
  backend.execute(std::span(data), {.direction = Direction::inverse, .scaling = Scaling::full});
  EXPECT_LT(max_abs_difference(data, in), 1e-15);
}

// Ortho scaling is the unscaled sums times 1/sqrt(N), in both directions, so a forward and an inverse run, both
// ortho, return the input (numpy's norm="ortho": the transform is unitary, Parseval holds).
TEST(CpuTransform, OrthoScalingIsUnitary) {
  const Plan plan = plan_of("[16, 8, 4]", multi_stage_16x8x4);
  const CpuTransform backend(plan);
  const Values in = random_values(plan.size.elements(), 5);
  const std::complex<double> poison(std::nan(""), 0);
  Values plain(in.size(), poison), ortho(in.size(), poison);
  backend.execute(std::span<const std::complex<double>>(in), std::span(plain), {});
  backend.execute(std::span<const std::complex<double>>(in), std::span(ortho), {.scaling = Scaling::ortho});
  const double factor = 1.0 / std::sqrt(static_cast<double>(plan.size.elements()));
  double worst = 0, energy_in = 0, energy_out = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    worst = std::max(worst, std::abs(ortho[i] - plain[i] * factor));
    energy_in += std::norm(in[i]);
    energy_out += std::norm(ortho[i]);
  }
  EXPECT_LT(worst, 1e-14);
  EXPECT_NEAR(energy_out, energy_in, 1e-12 * energy_in);
  Values back(in.size(), poison);
  backend.execute(std::span<const std::complex<double>>(ortho), std::span(back),
                  {.direction = Direction::inverse, .scaling = Scaling::ortho});
  EXPECT_LT(max_abs_difference(back, in), 1e-14);
  EXPECT_EQ(round_trip_scaling(Scaling::ortho), Scaling::ortho);
  EXPECT_EQ(round_trip_scaling(Scaling::none), Scaling::full);
  EXPECT_EQ(parse_scaling("ortho"), Scaling::ortho);
}

// Two decompositions of 64^3, the paper's three-pass style and a two-pass one, compute the same transform.
TEST(CpuTransform, DifferentDecompositionsAgree) {
  const Plan three_pass = plan_of("[64, 64, 64]",
                                  "{Y(16, 4, 16, 64, tw)} {X(16, 4, 16, 64, tw), Y(4, 16, 1, 16, no-tw)} "
                                  "{X(16, 4, 4, 16, tw), Z(1, 64, 1, 64, no-tw)} {X(16, 4, 1, 4, no-tw)}");
  const Plan two_pass = plan_of("[64, 64, 64]",
                                "{X(32, 2, 32, 64, tw), Y(1, 64, 1, 64, no-tw)} "
                                "{X(2, 32, 1, 32, no-tw), Z(32, 2, 32, 64, tw), Z(2, 32, 1, 32, no-tw)}");
  const Values in = random_values(three_pass.size.elements(), 4);
  Values a(in.size()), b(in.size());
  CpuTransform(three_pass).execute(in, a, {});
  CpuTransform(two_pass).execute(in, b, {});
  EXPECT_LT(max_abs_difference(a, b), 1e-11);  // values reach ~500; this is ~1e-14 relative
}

TEST(CpuTransform, Fp32AgreesWithFp64) {
  const Plan plan = plan_of("[16, 8, 4]", multi_stage_16x8x4);
  const Values in = random_values(plan.size.elements(), 5);
  std::vector<std::complex<float>> in32(in.begin(), in.end()), out32(in.size());
  Values out64(in.size());
  const CpuTransform backend(plan);
  backend.execute(in, out64, {});
  backend.execute(in32, out32, {});
  for (std::size_t i = 0; i < in.size(); ++i)
    ASSERT_LT(std::abs(std::complex<double>(out32[i]) - out64[i]), 1e-4) << i;
}

TEST(CpuTransform, InPlaceOutOfPlaceAndThreadCountsGiveIdenticalValuesAndKeepTheInput) {
  const Plan plan = plan_of("[64, 64, 64]",
                            "{X(32, 2, 32, 64, tw), Y(1, 64, 1, 64, no-tw)} "
                            "{X(2, 32, 1, 32, no-tw), Z(32, 2, 32, 64, tw), Z(2, 32, 1, 32, no-tw)}");
  const Values in = random_values(plan.size.elements(), 6);
  const Values kept = in;
  Values out(in.size()), in_place = in;
  CpuTransform(plan, 1).execute(in, out, {});
  CpuTransform(plan, 3).execute(std::span(in_place), {});
  EXPECT_EQ(in, kept);
  EXPECT_EQ(out, in_place);
}

TEST(CpuTransform, RejectsWrongBufferSizesAndIllegalPlans) {
  const CpuTransform backend(plan_of("[8, 4, 2]", single_stage_8x4x2));
  Values short_buffer(63), right(64);
  std::vector<std::complex<float>> short_float(65);
  EXPECT_THROW(backend.execute(std::span(short_buffer), {}), UsageError);
  EXPECT_THROW(backend.execute(std::span(short_float), {}), UsageError);
  EXPECT_THROW(backend.execute(right, short_buffer, {}), UsageError);
  EXPECT_THROW(backend.execute(short_buffer, right, {}), UsageError);
  Values both(65);  // input and output overlapping without being the same buffer
  const std::span<const std::complex<double>> first_64(both.data(), 64);
  EXPECT_THROW(backend.execute(first_64, std::span(both.data() + 1, 64), {}), UsageError);

  Plan illegal = backend.plan();
  illegal.kernels[0].subs[0].span = 4;
  EXPECT_THROW(CpuTransform{illegal}, PlanError);
}

// Every power of two n <= 2^14 and every e < n: within half an ulp (plus the long double reference's own error)
// of e^(-2 pi i e/n), exact at the quarter turns, and periodic in e.
TEST(RootOfUnity, IsCorrectlyRoundedExactAtQuarterTurnsAndPeriodic) {
  for (std::int64_t n = 1; n <= (1 << 14); n *= 2) {
    const cpu::RootTables<double> tables(n);
    for (std::int64_t e = 0; e < n; ++e) {
      const std::complex<double> w = tables.roots(n)[e];
      const std::complex<long double> exact =
          std::polar(1.0L, -2 * std::numbers::pi_v<long double> * static_cast<long double>(e) / n);
      ASSERT_LE(std::abs(w.real() - exact.real()), 0x1.0p-53L + 1e-18L) << e << "/" << n;
      ASSERT_LE(std::abs(w.imag() - exact.imag()), 0x1.0p-53L + 1e-18L) << e << "/" << n;
      ASSERT_EQ(cpu::root_of_unity(e - 3 * n, n), cpu::root_of_unity(e, n));
    }
    if (n >= 4) {
      EXPECT_EQ(tables.roots(n)[n / 4], std::complex<double>(0, -1));
      EXPECT_EQ(tables.roots(n)[n / 2], std::complex<double>(-1, 0));
      EXPECT_EQ(tables.roots(n)[3 * n / 4], std::complex<double>(0, 1));
    }
  }
}

// Every n <= 1200 (any factors) and every e < n: within half an ulp (plus the reference's own error) of
// e^(-2 pi i e/n), exact at the quarter turns, at the eighth turns cos == sin, and w^(n-e) == conj(w^e) exactly.
TEST(RootOfUnity, IsCorrectlyRoundedForEveryLengthAndSymmetricExactly) {
  for (std::int64_t n = 1; n <= 1200; ++n) {
    const cpu::RootTables<double> tables(std::set<std::int64_t>{n});
    const std::complex<double>* w = tables.roots(n);
    for (std::int64_t e = 0; e < n; ++e) {
      const std::complex<long double> exact =
          std::polar(1.0L, -2 * std::numbers::pi_v<long double> * static_cast<long double>(e) / n);
      ASSERT_LE(std::abs(w[e].real() - exact.real()), 0x1.0p-53L + 1e-18L) << e << "/" << n;
      ASSERT_LE(std::abs(w[e].imag() - exact.imag()), 0x1.0p-53L + 1e-18L) << e << "/" << n;
      if (e > 0) ASSERT_EQ(w[n - e], std::conj(w[e])) << e << "/" << n;
    }
    if (n % 2 == 0) EXPECT_EQ(w[n / 2], std::complex<double>(-1, 0)) << n;
    if (n % 4 == 0) {
      EXPECT_EQ(w[n / 4], std::complex<double>(0, -1)) << n;
      EXPECT_EQ(w[3 * n / 4], std::complex<double>(0, 1)) << n;
    }
    if (n % 8 == 0) EXPECT_EQ(w[n / 8].real(), -w[n / 8].imag()) << n;
  }
}

// For every stage of every radix split on every axis of small volumes, and batch sizes that do and do not divide
// the batch loop: the batches visit each address of the volume exactly once, point k of a butterfly sits k*stride
// after point 0 along the axis, and the offset j a batch reports is the butterfly's own.
TEST(ButterflyLoops, VisitEveryAddressOnceWithItsOwnOffset) {
  for (std::int64_t nx = 1; nx <= 8; nx *= 2)
    for (std::int64_t ny = 1; ny <= 8; ny *= 2)
      for (std::int64_t nz = 1; nz <= 8; nz *= 2) {
        const Extents size{nx, ny, nz};
        for (Axis axis : all_axes) {
          const std::int64_t length = size[axis];
          const std::int64_t step = cpu::axis_step(size, axis);
          for (std::int64_t span = length; span >= 2; span /= 2)
            for (std::int64_t radix = 2; radix <= span; radix *= 2)
              for (std::int64_t max_batch : {1, 3, 16}) {
                const std::int64_t stride = span / radix;
                const cpu::ButterflyLoops loops = cpu::butterfly_loops(size, axis, radix, stride, span, max_batch);
                std::vector<int> hits(static_cast<std::size_t>(size.elements()), 0);
                for (std::int64_t index = 0; index < loops.batches(); ++index) {
                  const cpu::ButterflyBatch batch = loops.batch_at(index);
                  for (std::int64_t b = 0; b < batch.count; ++b) {
                    const std::int64_t first = batch.base + b * loops.batch.step;
                    const std::int64_t offset = batch.offset + b * loops.batch.offset_step;
                    ASSERT_EQ(first / step % length % span, offset) << to_string(size) << " " << axis_letter(axis);
                    for (std::int64_t k = 0; k < loops.points; ++k) {
                      const std::int64_t address = first + k * loops.point_step;
                      ASSERT_EQ(address / step % length, first / step % length + k * stride);
                      ++hits[static_cast<std::size_t>(address)];
                    }
                  }
                }
                ASSERT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }))
                    << to_string(size) << " " << axis_letter(axis) << " radix " << radix << " span " << span;
              }
        }
      }
}

}  // namespace
}  // namespace fft3d
