// Plans of a subset of axes (numpy's fftn(axes=...)): the CPU backend against FFTW's guru interface in fp64, on
// random inputs, for every subset of axes, both directions, both orders, both scalings, in place and out of place.
#include <gtest/gtest.h>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/planner.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;

constexpr double bound = 1e-12;
constexpr std::uint64_t seed = 20261125;

const std::vector<std::vector<Axis>> every_subset = {{Axis::x},          {Axis::y},          {Axis::z},
                                                    {Axis::x, Axis::y}, {Axis::x, Axis::z}, {Axis::y, Axis::z},
                                                    {Axis::x, Axis::y, Axis::z}};

std::string described(const Plan& plan, const TransformOptions& options, bool in_place) {
  return to_yaml(plan) + (options.direction == Direction::forward ? "forward" : "inverse") +
         (options.order == Order::natural ? ", natural" : ", digit-reversed") +
         (options.scaling == Scaling::full ? ", full scaling" : ", no scaling") +
         (in_place ? ", in place" : ", out of place");
}

// One run of `plan` against FFTW over the plan's axes.
void expect_matches_fftw(const Plan& plan, const TransformOptions& options, bool in_place) {
  SCOPED_TRACE(described(plan, options, in_place));
  const CpuTransform transform(plan);
  Values in(static_cast<std::size_t>(plan.size.elements()));
  fill_random(in, seed);
  Values reference(in.size());
  fftw_axes_reference(plan.size, plan.axes, in, reference, options.direction, options.scaling);
  Values out = in;
  if (!in_place) {
    poison(out);
    transform.execute(std::span<const std::complex<double>>(in), out, options);
  } else {
    transform.execute(std::span<std::complex<double>>(out), options);
  }
  if (options.order == Order::digit_reversed) to_natural_order(plan, out);
  const ErrorReport report = compare(out, reference);
  EXPECT_TRUE(report.passes(bound)) << "relative L2 " << report.relative_l2 << ", peak " << report.peak_error
                                    << " at " << report.peak_index;
}

TEST(CpuAxesVsFftw, EverySubsetOfAxesInEveryOptionMatchesFftw) {
  for (const Extents& size : {Extents{16, 8, 4}, Extents{32, 16, 8}, Extents{8, 4, 32}})
    for (const char* arch : {"fermi", "hopper"})
      for (const std::vector<Axis>& axes : every_subset) {
        const Plan plan = default_axes_plan(size, arch, axes);
        for (Direction direction : {Direction::forward, Direction::inverse})
          for (Order order : {Order::natural, Order::digit_reversed})
            for (Scaling scaling : {Scaling::none, Scaling::full})
              for (bool in_place : {false, true}) expect_matches_fftw(plan, {direction, order, scaling}, in_place);
      }
}

TEST(CpuAxesVsFftw, TheSlabAndColumnPlansOfASlabDecompositionMatchFftw) {
  // GPU g of 4 holds a z slab (NX, NY, NZ/4) and, after the exchange, a y slab (NX, NY/4, NZ).
  constexpr std::int64_t gpus = 4;
  const Extents volume{64, 32, 16};
  const Plan slab = default_axes_plan({volume.nx, volume.ny, volume.nz / gpus}, "hopper", {Axis::x, Axis::y});
  const Plan column = default_axes_plan({volume.nx, volume.ny / gpus, volume.nz}, "hopper", {Axis::z});
  for (const Plan& plan : {slab, column})
    for (Direction direction : {Direction::forward, Direction::inverse})
      expect_matches_fftw(plan, {direction, Order::natural, Scaling::full}, false);
}

TEST(FftwAxesReference, AllThreeAxesAreThe3dReference) {
  const Extents size{8, 4, 16};
  Values in(static_cast<std::size_t>(size.elements())), all(in.size()), axes(in.size());
  fill_random(in, seed);
  fftw_reference(size, in, all, Direction::inverse, Scaling::full);
  fftw_axes_reference(size, {Axis::x, Axis::y, Axis::z}, in, axes, Direction::inverse, Scaling::full);
  EXPECT_LE(compare(axes, all).relative_l2, 1e-15);
}

TEST(FftwAxesReference, AnImpulseTransformedAlongZAloneFillsItsZLine) {
  const Extents size{4, 2, 8};
  constexpr std::int64_t x0 = 3, y0 = 1;
  Values in(static_cast<std::size_t>(size.elements())), out(in.size()), expected(in.size());
  in[static_cast<std::size_t>(x0 + size.nx * y0)] = 1;
  for (std::int64_t z = 0; z < size.nz; ++z)
    expected[static_cast<std::size_t>(x0 + size.nx * (y0 + size.ny * z))] = 1.0 / static_cast<double>(size.nz);
  fftw_axes_reference(size, {Axis::z}, in, out, Direction::forward, Scaling::full);
  EXPECT_EQ(compare(out, expected).peak_error, 0);
}

TEST(FftwAxesReference, NoAxisOrARepeatedAxisIsAUsageError) {
  const Extents size{4, 2, 8};
  Values in(static_cast<std::size_t>(size.elements())), out(in.size());
  EXPECT_THROW(fftw_axes_reference(size, {}, in, out, Direction::forward), UsageError);
  EXPECT_THROW(fftw_axes_reference(size, {Axis::y, Axis::y}, in, out, Direction::forward), UsageError);
}

}  // namespace
// The real DFT over X and Y is the complex one of the same reals over X and Y, kept to its first NX/2 + 1 columns;
// its c2r returns the reals (full scaling).
TEST(FftwAxesRealReference, R2cOverXAndYIsTheComplexOneHalvedAndC2rReturnsTheReals) {
  const Extents size{8, 4, 6};
  const std::int64_t half = size.nx / 2 + 1;
  Values noise(static_cast<std::size_t>(size.elements())), complex_in(noise.size()), complex_out(noise.size());
  fill_random(noise, seed);
  std::vector<double> reals(noise.size()), back(noise.size());
  for (std::size_t i = 0; i < noise.size(); ++i) complex_in[i] = reals[i] = noise[i].real();
  Values spectrum(static_cast<std::size_t>(half * size.ny * size.nz)), expected(spectrum.size());
  fftw_axes_r2c_reference(size, {Axis::x, Axis::y}, reals, spectrum);
  fftw_axes_reference(size, {Axis::x, Axis::y}, complex_in, complex_out, Direction::forward);
  for (std::int64_t row = 0; row < size.ny * size.nz; ++row)
    for (std::int64_t x = 0; x < half; ++x)
      expected[static_cast<std::size_t>(x + half * row)] = complex_out[static_cast<std::size_t>(x + size.nx * row)];
  EXPECT_LE(compare(spectrum, expected).relative_l2, 1e-15);
  fftw_axes_c2r_reference(size, {Axis::y, Axis::x}, spectrum, back, Scaling::full);
  EXPECT_LE(compare(back, reals).relative_l2, 1e-15);
}

TEST(FftwAxesRealReference, WithoutXOrWithARepeatedAxisIsAUsageError) {
  const Extents size{8, 4, 6};
  std::vector<double> reals(static_cast<std::size_t>(size.elements()));
  Values spectrum(static_cast<std::size_t>((size.nx / 2 + 1) * size.ny * size.nz));
  EXPECT_THROW(fftw_axes_r2c_reference(size, {Axis::y, Axis::z}, reals, spectrum), UsageError);
  EXPECT_THROW(fftw_axes_c2r_reference(size, {Axis::x, Axis::x}, spectrum, reals), UsageError);
}

}  // namespace fft3d::validate
