// The CPU backend's real transforms: their usage contract (kind, direction, order, buffer sizes, each refusal a
// UsageError saying what is wrong), the descriptor checks of real kinds, the stage loops over pitched rows, and the
// smallest case NX = 2 against its definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "cpu_loops.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d {
namespace {

Plan plan_of(const std::string& size, const std::string& kernels) {
  return parse_plan("size: " + size + "\narch: fermi\nplan: \"" + kernels + "\"\n").plan;
}

// 16 x 4 x 2 reals: X stages over 8 complex values, the half spectrum 9 x 4 x 2.
const char* r2c_16x4x2 = "{X(4, 2, 4, 8, tw), X(2, 4, 1, 4, no-tw), R2C(X, 16)} {Y(1, 4, 1, 4, no-tw), "
                         "Z(1, 2, 1, 2, no-tw)}";
const char* c2r_16x4x2 = "{Z(1, 2, 1, 2, no-tw), Y(1, 4, 1, 4, no-tw), C2R(X, 16)} {X(1, 8, 1, 8, no-tw)}";
const char* c2c_16x4x2 = "{X(1, 16, 1, 16, no-tw), Y(1, 4, 1, 4, no-tw), Z(1, 2, 1, 2, no-tw)}";
constexpr std::size_t reals_16x4x2 = 16 * 4 * 2;
constexpr std::size_t padded_16x4x2 = 18 * 4 * 2;
constexpr std::size_t spectrum_16x4x2 = 9 * 4 * 2;

// The message of the UsageError that `run` throws ("" when it throws none).
template <class Run>
std::string usage_error_of(Run run) {
  try {
    run();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(CpuRealTransform, APlanRunsOnlyThroughTheOverloadsOfItsKind) {
  const CpuTransform r2c(plan_of("[16, 4, 2]", r2c_16x4x2));
  const CpuTransform c2r(plan_of("[16, 4, 2]", c2r_16x4x2));
  const CpuTransform c2c(plan_of("[16, 4, 2]", c2c_16x4x2));
  std::vector<double> reals(reals_16x4x2, 1.0);
  std::vector<std::complex<double>> spectrum(spectrum_16x4x2), volume(reals_16x4x2);
  EXPECT_EQ(usage_error_of([&] { c2r.execute(reals.data(), spectrum.data()); }),
            "CpuTransform: the real-to-complex execute runs r2c plans; this plan is c2r");
  EXPECT_EQ(usage_error_of([&] { r2c.execute(spectrum.data(), reals.data()); }),
            "CpuTransform: the complex-to-real execute runs c2r plans; this plan is r2c");
  EXPECT_EQ(usage_error_of([&] { c2c.execute(reals.data(), spectrum.data()); }),
            "CpuTransform: the real-to-complex execute runs r2c plans; this plan is c2c");
  EXPECT_EQ(usage_error_of([&] { r2c.execute(volume.data(), volume.data()); }),
            "CpuTransform: this is an r2c plan: run it through the real-to-complex execute (real in, complex out), "
            "not the complex-to-complex one");
  EXPECT_NE(usage_error_of([&] { c2r.execute(std::span(volume), TransformOptions{}); }), "");
}

TEST(CpuRealTransform, DirectionAndOrderAreTheKinds) {
  const CpuTransform r2c(plan_of("[16, 4, 2]", r2c_16x4x2));
  const CpuTransform c2r(plan_of("[16, 4, 2]", c2r_16x4x2));
  std::vector<double> reals(reals_16x4x2, 1.0);
  std::vector<std::complex<double>> spectrum(spectrum_16x4x2);
  EXPECT_EQ(usage_error_of([&] { r2c.execute(reals.data(), spectrum.data(), {.direction = Direction::inverse}); }),
            "CpuTransform: an r2c plan runs forward only; options.direction is inverse");
  EXPECT_EQ(usage_error_of([&] { c2r.execute(spectrum.data(), reals.data(), {.direction = Direction::forward}); }),
            "CpuTransform: a c2r plan runs inverse only; options.direction is forward");
  EXPECT_EQ(usage_error_of([&] { r2c.execute(reals.data(), spectrum.data(), {.order = Order::digit_reversed}); }),
            "CpuTransform: real transforms run in natural order only; options.order is digit-reversed");
}

TEST(CpuRealTransform, SpanSizesAreCheckedAgainstTheLayout) {
  const CpuTransform r2c(plan_of("[16, 4, 2]", r2c_16x4x2));
  const CpuTransform c2r(plan_of("[16, 4, 2]", c2r_16x4x2));
  std::vector<double> reals(reals_16x4x2 + 1, 1.0);
  std::vector<std::complex<double>> spectrum(spectrum_16x4x2 + 1);
  const auto real_span = std::span<const double>(reals).first(reals_16x4x2);
  const auto spectrum_span = std::span(spectrum).first(spectrum_16x4x2);
  EXPECT_EQ(usage_error_of([&] { r2c.execute(std::span<const double>(reals), spectrum_span); }),
            "CpuTransform: the real input span holds 129 values; the r2c plan of size 16x4x2 needs 128");
  EXPECT_EQ(usage_error_of([&] { r2c.execute(real_span, std::span(spectrum)); }),
            "CpuTransform: the complex output span holds 73 values; the r2c plan of size 16x4x2 needs 72");
  EXPECT_EQ(usage_error_of([&] {
              c2r.execute(std::span<const std::complex<double>>(spectrum), std::span(reals).first(reals_16x4x2));
            }),
            "CpuTransform: the complex input span holds 73 values; the c2r plan of size 16x4x2 needs 72");
  EXPECT_EQ(usage_error_of([&] {
              c2r.execute(std::span<const std::complex<double>>(spectrum_span), std::span(reals));
            }),
            "CpuTransform: the real output span holds 129 values; the c2r plan of size 16x4x2 needs 128");
  // In place the one buffer holds the padded rows, 2 * 9 reals each.
  std::vector<std::complex<double>> buffer(spectrum_16x4x2);
  auto* as_reals = reinterpret_cast<double*>(buffer.data());
  EXPECT_EQ(usage_error_of([&] {
              r2c.execute(std::span<const double>(as_reals, reals_16x4x2), std::span(buffer));
            }),
            "CpuTransform: the real (in place, rows padded to 2*(NX/2+1) reals) span holds 128 values; the r2c "
            "plan of size 16x4x2 needs 144");
  EXPECT_EQ(usage_error_of([&] { r2c.execute(std::span<const double>(as_reals, padded_16x4x2), std::span(buffer)); }),
            "");
  EXPECT_EQ(usage_error_of([&] {
              r2c.execute(std::span<const double>(as_reals + 2, reals_16x4x2), std::span(buffer));
            }),
            "CpuTransform: the input and output buffers overlap without being the same buffer");
  EXPECT_EQ(usage_error_of([&] { r2c.execute(static_cast<const double*>(nullptr), buffer.data()); }),
            "CpuTransform::execute: null pointer (in or out)");
}

TEST(CpuRealTransform, DescriptorsOfRealKindsTakeEveryNx) {
  EXPECT_EQ(usage_error_of([&] { require_supported({.extents = {255, 16, 16}, .kind = TransformKind::r2c}, false); }),
            "");
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    EXPECT_NO_THROW(require_supported({.extents = {256, 16, 16}, .kind = kind}, false));
    EXPECT_NO_THROW(require_supported({.extents = {256, 16, 16}, .kind = kind}, true));
    EXPECT_NO_THROW(require_supported({.extents = {256, 16, 16}, .kind = kind, .batch = 2}, false));
    EXPECT_THROW(require_supported({.extents = {256, 16, 16}, .kind = kind, .batch = 2, .batch_stride = 1 << 20}, false),
                 UsageError);  // real batches are packed
    EXPECT_NO_THROW(
        require_supported({.extents = {256, 16, 16}, .kind = kind, .precision = Precision::fp64}, true));
  }
}

// A descriptor of a real kind gets a plan of that kind or a UsageError saying there is none, never a C2C plan.
TEST(CpuRealTransform, ADescriptorNeverRunsAPlanOfAnotherKind) {
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    const TransformDesc desc{.extents = {16, 4, 2}, .kind = kind, .precision = Precision::fp64};
    try {
      EXPECT_EQ(kind_of(CpuTransform(desc, 1).plan()), kind);
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("no " + to_string(kind) + " plan for size 16x4x2"), std::string::npos)
          << error.what();
    }
  }
}

TEST(CpuRealTransform, AnIllegalRealPlanIsAPlanError) {
  Plan plan = plan_of("[16, 4, 2]", r2c_16x4x2);
  plan.kernels[0].real->axis = Axis::y;
  EXPECT_THROW(CpuTransform{plan}, PlanError);
}

// NX = 2, no X stage: the half spectrum of each row (a, b) is (a + b, a - b), then the Y and Z DFTs.
TEST(CpuRealTransform, NxOfTwoIsTheSumAndDifferenceOfEachRow) {
  const CpuTransform r2c(plan_of("[2, 2, 1]", "{R2C(X, 2), Y(1, 2, 1, 2, no-tw)}"));
  const std::vector<double> reals{1, 2, 4, 8};
  std::vector<std::complex<double>> spectrum(4);
  r2c.execute(reals.data(), spectrum.data());
  EXPECT_EQ(spectrum, (std::vector<std::complex<double>>{{15, 0}, {-5, 0}, {-9, 0}, {3, 0}}));
  const CpuTransform c2r(plan_of("[2, 2, 1]", "{Y(1, 2, 1, 2, no-tw), C2R(X, 2)}"));
  std::vector<double> back(4);
  c2r.execute(spectrum.data(), back.data(), {.direction = Direction::inverse, .scaling = Scaling::full});
  EXPECT_EQ(back, reals);
}

// For pitched rows (pitch > nx): every address of the first nx columns exactly once, never a padding column.
TEST(ButterflyLoops, PitchedRowsVisitEveryColumnOnceAndNeverThePadding) {
  for (std::int64_t pad : {1, 3})
    for (std::int64_t nx = 1; nx <= 8; nx *= 2) {
      const cpu::VolumeLayout layout({nx, 4, 2}, nx + pad);
      for (Axis axis : all_axes) {
        const std::int64_t length = layout.extents[axis];
        for (std::int64_t radix = 2; radix <= length; radix *= 2) {
          const cpu::ButterflyLoops loops = cpu::butterfly_loops(layout, axis, radix, length / radix, length, 3);
          std::vector<int> hits(static_cast<std::size_t>(layout.row_pitch * 4 * 2), 0);
          for (std::int64_t index = 0; index < loops.batches(); ++index) {
            const cpu::ButterflyBatch batch = loops.batch_at(index);
            for (std::int64_t b = 0; b < batch.count; ++b)
              for (std::int64_t k = 0; k < loops.points; ++k)
                ++hits[static_cast<std::size_t>(batch.base + b * loops.batch.step + k * loops.point_step)];
          }
          for (std::size_t address = 0; address < hits.size(); ++address) {
            const bool column = static_cast<std::int64_t>(address) % layout.row_pitch < nx;
            ASSERT_EQ(hits[address], column ? 1 : 0) << "nx " << nx << " pad " << pad << " " << axis_letter(axis);
          }
        }
      }
    }
}

}  // namespace
}  // namespace fft3d
