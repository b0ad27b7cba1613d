// The CPU backend against FFTW in fp64 on hundreds of random legal plans: forward and inverse, natural and
// digit-reversed order, in place and out of place, with NaN-poisoned outputs. A failure prints the seed and the plan.
#include <gtest/gtest.h>

#include <cstdio>

#include "fft3d/checks.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/planner.hpp"
#include "validate/oracle.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;

constexpr std::uint64_t first_seed = 20261122;
constexpr int plan_count = 240;
constexpr std::uint64_t first_mixed_seed = 20261126;
constexpr int mixed_plan_count = 160;
constexpr double bound = 1e-12;

// FFTW's natural-order result moved to where the plan's DIF stages leave each frequency (docs/plan-language.md).
Values digit_reversed(const Plan& plan, const Values& natural) {
  const Extents& n = plan.size;
  const auto px = digit_reversed_positions(radices_of(plan, Axis::x));
  const auto py = digit_reversed_positions(radices_of(plan, Axis::y));
  const auto pz = digit_reversed_positions(radices_of(plan, Axis::z));
  Values moved(natural.size());
  for (std::int64_t z = 0; z < n.nz; ++z)
    for (std::int64_t y = 0; y < n.ny; ++y)
      for (std::int64_t x = 0; x < n.nx; ++x)
        moved[static_cast<std::size_t>(px[x] + n.nx * (py[y] + n.ny * pz[z]))] =
            natural[static_cast<std::size_t>(x + n.nx * (y + n.ny * z))];
  return moved;
}

struct Variant {
  TransformOptions options;
  bool in_place = false;
};

std::string describe(const Variant& v) {
  return to_string(v.options.direction) + ", " + to_string(v.options.order) + ", " + to_string(v.options.scaling) +
         (v.in_place ? ", in place" : ", out of place");
}

Values run(const CpuTransform& backend, const Values& in, const Variant& variant) {
  Values out(in.size());
  if (variant.in_place) {
    out = in;
    backend.execute(std::span(out), variant.options);
  } else {
    poison(out);
    backend.execute(in, out, variant.options);
  }
  return out;
}

// The worst relative L2 error over random plans and the seed that gave it.
struct Worst {
  double error = 0;
  std::uint64_t seed = 0;
};

// The plan drawn from `seed` against FFTW in all 8 variants (scaling alternating with `index`); false on a failure.
bool check_random_plan(std::uint64_t seed, int index, const RandomPlanLimits& limits, Worst& worst) {
  std::mt19937_64 random(seed);
  const Plan plan = random_legal_plan(random, limits);
  EXPECT_TRUE(check_plan(plan).empty()) << "seed " << seed << "\n" << to_yaml(plan);
  const CpuTransform backend(plan);
  Values in(static_cast<std::size_t>(plan.size.elements()));
  fill_random(in, seed);
  const Values kept = in;
  const Scaling scaling = index % 2 == 0 ? Scaling::none : Scaling::full;
  bool all_passed = true;
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    Values natural(in.size());
    fftw_reference(plan.size, in, natural, direction, scaling);
    const Values reversed = digit_reversed(plan, natural);
    for (Order order : {Order::natural, Order::digit_reversed}) {
      for (bool in_place : {false, true}) {
        const Variant variant{{direction, order, scaling}, in_place};
        Values out = run(backend, in, variant);
        const ErrorReport report = compare(out, order == Order::natural ? natural : reversed);
        if (order == Order::digit_reversed) {
          to_natural_order(plan, out);
          EXPECT_TRUE(compare(out, natural).passes(bound)) << "to_natural_order, seed " << seed;
        }
        if (report.relative_l2 > worst.error) worst = {report.relative_l2, seed};
        const bool passed = report.passes(bound);
        all_passed &= passed;
        EXPECT_TRUE(passed) << "seed " << seed << " (" << describe(variant) << "): relative L2 "
                            << report.relative_l2 << ", peak " << report.peak_error << " at " << report.peak_index
                            << ", " << report.non_finite << " non-finite\n"
                            << to_yaml(plan);
      }
    }
  }
  EXPECT_EQ(in, kept) << "an out-of-place run changed its input, seed " << seed;
  return all_passed;
}

// `count` random plans from consecutive seeds; stops after 5 failing plans.
void check_random_plans(std::uint64_t first, int count, const RandomPlanLimits& limits, const char* what) {
  Worst worst;
  int failures = 0;
  for (int i = 0; i < count && failures < 5; ++i)
    failures += check_random_plan(first + static_cast<std::uint64_t>(i), i, limits, worst) ? 0 : 1;
  std::printf("[ measured ] worst relative L2 over %d random %s plans x 8 variants: %.3g (seed %llu)\n", count, what,
              worst.error, static_cast<unsigned long long>(worst.seed));
}

TEST(CpuBackendAgainstFftw, RandomLegalPlansInEveryVariant) {
  check_random_plans(first_seed, plan_count, {}, "power-of-two");
}

// Lengths 2^a 3^b 5^c 7^d and radices any chain of divisors.
TEST(CpuBackendAgainstFftw, RandomLegalMixedRadixPlansInEveryVariant) {
  check_random_plans(first_mixed_seed, mixed_plan_count, {.factors = supported_factors}, "mixed-radix");
}

// A plan whose `axis` is split into `radices` (one kernel per stage) while the other two axes, 2 and 4 long, take
// one whole-line stage each in a last kernel: the split axis is transformed with the others batched around it.
Plan split_axis_plan(Axis axis, const std::vector<std::int64_t>& radices) {
  Plan plan;
  plan.arch = "fermi";
  std::int64_t other_length = 2;
  Kernel last;
  for (Axis other : all_axes) {
    std::int64_t& length = other == Axis::x ? plan.size.nx : other == Axis::y ? plan.size.ny : plan.size.nz;
    if (other == axis) {
      length = length_of(radices);
      for (const SubComputation& stage : dif_stages(axis, length, radices)) plan.kernels.push_back({{stage}});
    } else {
      length = other_length;
      last.subs.push_back({other, 1, length, 1, length, false});
      other_length *= 2;
    }
  }
  plan.kernels.push_back(last);
  return plan;
}

// Every power of two up to 256 and mixed lengths with every supported factor, squares and products of three.
const std::vector<std::int64_t> split_lengths = {2, 4, 8, 16, 32, 64, 128, 256, 3, 6, 9, 25, 49, 12, 30, 36, 60, 72,
                                                 105, 98};

// Every radix split of each of split_lengths on each axis: the backend's digit-reversed output is FFTW's output
// permuted by digit_reversed_position.
TEST(CpuBackendAgainstFftw, DigitReversedOutputOfEveryRadixSplitIsFftwPermuted) {
  for (Axis axis : all_axes) {
    for (std::int64_t length : split_lengths) {
      for (const std::vector<std::int64_t>& radices : all_radix_splits(length)) {
        const Plan plan = split_axis_plan(axis, radices);
        ASSERT_TRUE(check_plan(plan).empty()) << to_yaml(plan);
        Values in(static_cast<std::size_t>(plan.size.elements())), natural(in.size()), out(in.size());
        fill_random(in, static_cast<std::uint64_t>(length));
        fftw_reference(plan.size, in, natural, Direction::forward);
        poison(out);
        CpuTransform(plan).execute(in, out, {.order = Order::digit_reversed});
        const ErrorReport report = compare(out, digit_reversed(plan, natural));
        ASSERT_TRUE(report.passes(bound)) << report.relative_l2 << "\n" << to_yaml(plan);
      }
    }
  }
}

}  // namespace
}  // namespace fft3d::validate
