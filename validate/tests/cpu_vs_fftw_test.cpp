// The CPU backend against FFTW in fp64 on hundreds of random legal plans: forward and inverse, natural and
// digit-reversed order, in place and out of place, with NaN-poisoned outputs. A failure prints the seed and the plan.
#include <gtest/gtest.h>

#include <cstdio>

#include "fft3d/checks.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/planner.hpp"
#include "validate/oracle.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;

constexpr std::uint64_t first_seed = 20261122;
constexpr int plan_count = 320;
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

TEST(CpuBackendAgainstFftw, RandomLegalPlansInEveryVariant) {
  double worst = 0;
  std::uint64_t worst_seed = 0;
  int failures = 0;
  for (int i = 0; i < plan_count && failures < 5; ++i) {
    const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const Plan plan = random_legal_plan(random);
    ASSERT_TRUE(check_plan(plan).empty()) << "seed " << seed << "\n" << to_yaml(plan);
    const CpuTransform backend(plan);
    Values in(static_cast<std::size_t>(plan.size.elements()));
    fill_random(in, seed);
    const Values kept = in;
    const Scaling scaling = i % 2 == 0 ? Scaling::none : Scaling::full;
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
          if (report.relative_l2 > worst) worst = report.relative_l2, worst_seed = seed;
          const bool passed = report.passes(bound);
          failures += passed ? 0 : 1;
          EXPECT_TRUE(passed) << "seed " << seed << " (" << describe(variant) << "): relative L2 "
                              << report.relative_l2 << ", peak " << report.peak_error << " at "
                              << report.peak_index << ", " << report.non_finite << " non-finite\n"
                              << to_yaml(plan);
        }
      }
    }
    EXPECT_EQ(in, kept) << "an out-of-place run changed its input, seed " << seed;
  }
  std::printf("[ measured ] worst relative L2 over %d random plans x 8 variants: %.3g (seed %llu)\n", plan_count,
              worst, static_cast<unsigned long long>(worst_seed));
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

// Every radix split of every length up to 256 on each axis: the backend's digit-reversed output is FFTW's output
// permuted by digit_reversed_position.
TEST(CpuBackendAgainstFftw, DigitReversedOutputOfEveryRadixSplitIsFftwPermuted) {
  for (Axis axis : all_axes) {
    for (std::int64_t length = 2; length <= 256; length *= 2) {
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
