// Sizes with unit axes are planned as their squeezed size (squeezed_extents, lengths.hpp): the rule on every axis
// placement, the plan a size takes (plan_for_size), and the CPU transform built from a descriptor of such a size
// against the 3D DFT of the size as asked, straight from its definition.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "direct_dft.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/wisdom.hpp"
#include "scoped_env.hpp"

namespace fft3d::testing {
namespace {

using Complex = std::complex<double>;
using Values = std::vector<Complex>;

constexpr std::int64_t n = 16;
constexpr std::int64_t m = 32;
constexpr double tolerance = 1e-12;
constexpr TransformKind real_kinds[] = {TransformKind::r2c, TransformKind::c2r};

// ---- the rule ----

TEST(SqueezedExtents, UnitAxesAreDroppedAndTheOtherLengthsMovedDownToXYZInOrder) {
  struct Case {
    Extents asked, squeezed;
  };
  const std::vector<Case> cases = {
      {{n, 1, 1}, {n, 1, 1}}, {{1, n, 1}, {n, 1, 1}}, {{1, 1, n}, {n, 1, 1}},  // 1D in each placement
      {{n, m, 1}, {n, m, 1}}, {{1, n, m}, {n, m, 1}}, {{n, 1, m}, {n, m, 1}},  // 2D in each placement
      {{1, 1, 1}, {1, 1, 1}}, {{n, m, 8}, {n, m, 8}},                          // nothing to squeeze
  };
  for (const Case& c : cases) EXPECT_EQ(squeezed_extents(c.asked), c.squeezed) << to_string(c.asked);
}

TEST(SqueezedExtents, ARealKindKeepsXItsRealAxisAndSqueezesYAndZOnly) {
  for (TransformKind kind : real_kinds) {
    EXPECT_EQ(squeezed_extents({n, 1, m}, kind), (Extents{n, m, 1})) << to_string(kind);
    EXPECT_EQ(squeezed_extents({n, 1, 1}, kind), (Extents{n, 1, 1})) << to_string(kind);
    EXPECT_EQ(squeezed_extents({n, m, 1}, kind), (Extents{n, m, 1})) << to_string(kind);
    EXPECT_EQ(squeezed_extents({2, 1, m}, kind), (Extents{2, m, 1})) << to_string(kind);
    EXPECT_EQ(squeezed_extents({n, m, 8}, kind), (Extents{n, m, 8})) << to_string(kind);
  }
}

// The contract on every shape of lengths 1 to 4: the volume is kept, the lengths other than 1 keep their order and
// lead (after a real kind's X), and squeezing again changes nothing.
TEST(SqueezedExtents, KeepsTheVolumeAndTheLengthsInOrderAndIsIdempotentOnEverySmallShape) {
  for (TransformKind kind : {TransformKind::c2c, TransformKind::r2c, TransformKind::c2r})
    for (std::int64_t x = 1; x <= 4; ++x)
      for (std::int64_t y = 1; y <= 4; ++y)
        for (std::int64_t z = 1; z <= 4; ++z) {
          const Extents asked{x, y, z};
          const Extents squeezed = squeezed_extents(asked, kind);
          const bool keeps_x = kind != TransformKind::c2c;
          std::vector<std::int64_t> expected;
          if (keeps_x) expected.push_back(x);
          for (std::int64_t length : keeps_x ? std::vector<std::int64_t>{y, z} : std::vector<std::int64_t>{x, y, z})
            if (length != 1) expected.push_back(length);
          expected.resize(3, 1);
          EXPECT_EQ(squeezed, (Extents{expected[0], expected[1], expected[2]})) << to_string(asked);
          EXPECT_EQ(squeezed.elements(), asked.elements()) << to_string(asked);
          EXPECT_EQ(squeezed_extents(squeezed, kind), squeezed) << to_string(asked);
          if (keeps_x) {
            EXPECT_EQ(squeezed.nx, x) << to_string(asked);
          }
        }
}

// ---- the plan a size takes ----

// Points FFT3D_CACHE_DIR at a fresh directory, so that no wisdom of this machine takes part.
class SqueezedPlanTest : public FreshCacheDirTest {
 protected:
  SqueezedPlanTest() : FreshCacheDirTest("fft3d-squeeze-test-") {}
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_F(SqueezedPlanTest, A2dSizeWithAUnitXIsPlannedAsTheSameMemoryWithTheLengthsOnXAndY) {
  const Extents asked{1, 1024, 1024}, squeezed{1024, 1024, 1};
  const SizedPlan chosen = plan_for_size(asked, "hopper", false, {});
  EXPECT_EQ(chosen.parsed.plan.size, squeezed);
  EXPECT_TRUE(contains(chosen.source, "1x1024x1024 planned as 1024x1024x1")) << chosen.source;
  EXPECT_EQ(chosen.parsed.plan, plan_for_size(squeezed, "hopper", false, {}).parsed.plan);
  EXPECT_FALSE(contains(plan_for_size(squeezed, "hopper", false, {}).source, "planned as"));
}

TEST_F(SqueezedPlanTest, BatchesAndFp64AreSqueezedToo) {
  const Extents asked{1, 1024, 1024}, squeezed{1024, 1024, 1};
  const SizedPlan batched = plan_for_size(asked, "hopper", false, {}, TransformKind::c2c, Precision::fp32, 4);
  EXPECT_EQ(batched.parsed.plan.size, squeezed);
  EXPECT_TRUE(contains(batched.source, "planned as 1024x1024x1")) << batched.source;
  const SizedPlan fp64 = plan_for_size(asked, "hopper", false, {}, TransformKind::c2c, Precision::fp64);
  EXPECT_EQ(fp64.parsed.plan.size, squeezed);
  EXPECT_EQ(fp64.parsed.plan.precision, Precision::fp64);
  EXPECT_TRUE(contains(fp64.source, "planned as 1024x1024x1")) << fp64.source;
  const SizedPlan described = plan_for_descriptor({.extents = asked, .batch = 3}, "hopper", true);
  EXPECT_EQ(described.parsed.plan.size, squeezed);
  EXPECT_EQ(described.parsed.plan.batch, 3);
}

TEST_F(SqueezedPlanTest, A1dSizeInEveryPlacementTakesTheXPlan) {
  const Plan along_x = plan_for_size({4096, 1, 1}, "hopper", false, {}).parsed.plan;
  for (const Extents& asked : {Extents{1, 4096, 1}, Extents{1, 1, 4096}}) {
    const SizedPlan chosen = plan_for_size(asked, "hopper", false, {});
    EXPECT_EQ(chosen.parsed.plan, along_x) << to_string(asked);
    EXPECT_TRUE(contains(chosen.source, to_string(asked) + " planned as 4096x1x1")) << chosen.source;
  }
}

TEST_F(SqueezedPlanTest, ARealSizeKeepsXAndSqueezesZIntoY) {
  for (TransformKind kind : real_kinds) {
    const SizedPlan chosen = plan_for_size({64, 1, 32}, "hopper", false, {}, kind);
    EXPECT_EQ(chosen.parsed.plan.size, (Extents{64, 32, 1})) << to_string(kind);
    EXPECT_EQ(kind_of(chosen.parsed.plan), kind);
    EXPECT_TRUE(contains(chosen.source, "64x1x32 planned as 64x32x1")) << chosen.source;
  }
}

TEST_F(SqueezedPlanTest, TheWisdomOfTheSqueezedSizeServesTheSizeAsAsked) {
  const Extents squeezed{64, 32, 1};
  const Plan measured = default_plan(squeezed, "tesla");
  const std::string path = remember_plan("tesla", squeezed, false, "# measured\n" + to_yaml(measured));
  const SizedPlan chosen = plan_for_size({1, 64, 32}, "tesla", false, {});
  EXPECT_EQ(chosen.parsed.plan, measured);
  EXPECT_TRUE(contains(chosen.source, path)) << chosen.source;
  EXPECT_TRUE(contains(chosen.source, "wisdom")) << chosen.source;
  EXPECT_TRUE(contains(chosen.source, "1x64x32 planned as 64x32x1")) << chosen.source;
}

// ---- the CPU transform of such sizes against the definition ----

Values random_values(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Values values(static_cast<std::size_t>(count));
  for (Complex& v : values) v = {uniform(random), uniform(random)};
  return values;
}

Values poisoned(std::size_t count) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return Values(count, Complex(nan, nan));
}

// Relative L2 distance; a NaN anywhere makes it NaN, which fails every bound.
double relative_l2(const Values& got, const Values& expected) {
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    error += std::norm(got[i] - expected[i]);
    norm += std::norm(expected[i]);
  }
  return std::sqrt(error / norm);
}

const Extents squeezable_sizes[] = {{1, n, m}, {1, n, 1}, {1, 1, m}, {n, 1, 8}, {1, 8, n}};

TEST(SqueezedCpuTransform, EqualsTheDirectDftOfTheSizeAsAskedForwardInverseOutOfPlaceAndInPlace) {
  for (const Extents& size : squeezable_sizes)
    for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
      const CpuTransform transform({.extents = size, .placement = placement});
      EXPECT_EQ(transform.plan().size, squeezed_extents(size)) << to_string(size);
      const Values in = random_values(size.elements(), 11);
      for (Direction direction : {Direction::forward, Direction::inverse}) {
        const Values expected = direct_dft(size, in, direction);
        const TransformOptions options{.direction = direction};
        Values out = poisoned(in.size());
        if (placement == Placement::in_place) {
          out = in;
          transform.execute(std::span<Complex>(out), options);
        } else {
          transform.execute(in, out, options);
        }
        EXPECT_LT(relative_l2(out, expected), tolerance)
            << to_string(size) << " " << to_string(placement) << " " << to_string(direction);
      }
    }
}

// R2C of a real Nx1xM volume (planned as NxMx1) is the first NX/2 + 1 X frequencies of its DFT, and C2R of that
// half spectrum with full scaling returns the volume.
TEST(SqueezedCpuTransform, ARealVolumeWithAUnitYEqualsTheDirectDftsHalfSpectrumAndReturnsThroughC2r) {
  const Extents size{n, 1, 8};
  const std::int64_t half = n / 2 + 1;
  const CpuTransform r2c({.extents = size, .kind = TransformKind::r2c});
  const CpuTransform c2r({.extents = size, .kind = TransformKind::c2r});
  EXPECT_EQ(r2c.plan().size, (Extents{n, 8, 1}));
  EXPECT_EQ(c2r.plan().size, (Extents{n, 8, 1}));
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> reals(static_cast<std::size_t>(size.elements()));
  Values as_complex;
  for (double& v : reals) {
    v = uniform(random);
    as_complex.emplace_back(v, 0.0);
  }
  const Values full = direct_dft(size, as_complex, Direction::forward);
  Values expected;
  for (std::int64_t row = 0; row < size.ny * size.nz; ++row)
    for (std::int64_t kx = 0; kx < half; ++kx) expected.push_back(full[static_cast<std::size_t>(kx + n * row)]);
  Values spectrum = poisoned(expected.size());
  r2c.execute(reals.data(), spectrum.data());
  EXPECT_LT(relative_l2(spectrum, expected), tolerance);

  std::vector<double> back(reals.size(), std::numeric_limits<double>::quiet_NaN());
  c2r.execute(spectrum.data(), back.data(), {.direction = Direction::inverse, .scaling = Scaling::full});
  double worst = 0;
  for (std::size_t i = 0; i < reals.size(); ++i) worst = std::max(worst, std::abs(back[i] - reals[i]));
  EXPECT_LT(worst, tolerance);
}

// A plan the user writes is not squeezed: a 1 x 16 x 8 plan keeps its size and runs as written.
TEST(SqueezedCpuTransform, AnExplicitPlanWithAUnitXRunsAsWritten) {
  const Plan plan = parse_plan("size: [1, 16, 8]\narch: fermi\nplan: \"{Y(1, 16, 1, 16, no-tw)} {Z(1, 8, 1, 8, "
                               "no-tw)}\"\n").plan;
  const CpuTransform transform(plan);
  EXPECT_EQ(transform.plan().size, (Extents{1, 16, 8}));
  const Values in = random_values(plan.size.elements(), 13);
  Values out = poisoned(in.size());
  transform.execute(in, out, {});
  EXPECT_LT(relative_l2(out, direct_dft(plan.size, in, Direction::forward)), tolerance);
}

}  // namespace
}  // namespace fft3d::testing
