// The CPU backend on plans of a subset of axes: an untransformed axis is a batch index, so each of its planes (or
// lines) gets the transform of the lower-dimensional plan, and Scaling::full divides by the transformed lengths only.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d {
namespace {

using Values = std::vector<std::complex<double>>;

// The same X and Y stages on a 16 x 8 x 4 volume (Z untransformed) and on one 16 x 8 plane.
const char* xy_kernels = "{X(4, 4, 4, 16, tw), Y(2, 4, 2, 8, tw)} {X(4, 4, 1, 4, no-tw), Y(4, 2, 1, 2, no-tw)}";
constexpr std::int64_t planes = 4;
constexpr std::int64_t plane_elements = 16 * 8;
constexpr double tolerance = 1e-14;

Plan plan_of(const std::string& size, const std::string& axes_line, const std::string& kernels) {
  return parse_plan("size: " + size + "\narch: fermi\n" + axes_line + "plan: \"" + kernels + "\"\n").plan;
}

Values random_values(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Values values(static_cast<std::size_t>(count));
  for (auto& v : values) v = {uniform(random), uniform(random)};
  return values;
}

double max_difference(const std::complex<double>* a, const std::complex<double>* b, std::int64_t count) {
  double worst = 0;
  for (std::int64_t i = 0; i < count; ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(CpuAxes, EachPlaneOfAnUntransformedZGetsThe2dTransformInEveryOrderAndScaling) {
  const CpuTransform slab(plan_of("[16, 8, 4]", "axes: [X, Y]\n", xy_kernels));
  const CpuTransform plane(plan_of("[16, 8, 1]", "", xy_kernels));
  const Values in = random_values(planes * plane_elements, 1);
  for (Order order : {Order::natural, Order::digit_reversed})
    for (Direction direction : {Direction::forward, Direction::inverse})
      for (Scaling scaling : {Scaling::none, Scaling::full}) {
        const TransformOptions options{direction, order, scaling};
        Values out(in.size());
        slab.execute(in, out, options);
        for (std::int64_t z = 0; z < planes; ++z) {
          const std::span<const std::complex<double>> source(in.data() + z * plane_elements, plane_elements);
          Values expected(plane_elements);
          plane.execute(source, expected, options);
          EXPECT_LT(max_difference(out.data() + z * plane_elements, expected.data(), plane_elements), tolerance)
              << "plane " << z;
        }
      }
}

TEST(CpuAxes, FullScalingDividesByTheTransformedLengthsSoTheRoundTripReturnsTheInput) {
  const CpuTransform slab(plan_of("[16, 8, 4]", "axes: [X, Y]\n", xy_kernels));
  const Values in = random_values(planes * plane_elements, 2);
  Values spectrum(in.size()), back(in.size());
  slab.execute(in, spectrum, {Direction::forward, Order::natural, Scaling::none});
  slab.execute(spectrum, back, {Direction::inverse, Order::natural, Scaling::full});
  EXPECT_LT(max_difference(back.data(), in.data(), static_cast<std::int64_t>(in.size())), tolerance);
}

TEST(CpuAxes, ARealPlanOfXAndYTransformsEachPlane) {
  const char* real_kernels = "{X(2, 4, 2, 8, tw), X(4, 2, 1, 2, no-tw), R2C(X, 16), Y(1, 8, 1, 8, no-tw)}";
  const CpuTransform slab(plan_of("[16, 8, 4]", "axes: [X, Y]\n", real_kernels));
  const CpuTransform plane(plan_of("[16, 8, 1]", "", real_kernels));
  constexpr std::int64_t half_spectrum = (16 / 2 + 1) * 8;
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> in(static_cast<std::size_t>(planes * plane_elements));
  for (double& v : in) v = uniform(random);
  Values out(static_cast<std::size_t>(planes * half_spectrum));
  slab.execute(in.data(), out.data(), {Direction::forward, Order::natural, Scaling::full});
  for (std::int64_t z = 0; z < planes; ++z) {
    Values expected(half_spectrum);
    plane.execute(in.data() + z * plane_elements, expected.data(), {Direction::forward, Order::natural, Scaling::full});
    EXPECT_LT(max_difference(out.data() + z * half_spectrum, expected.data(), half_spectrum), tolerance)
        << "plane " << z;
  }
}

}  // namespace
}  // namespace fft3d
