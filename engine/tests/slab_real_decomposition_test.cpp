// The real slab decomposition (kind r2c) on the CPU backend: CpuSlabTransform's R2C and C2R against the 3D DFT of
// the real volume by definition, for several G, both layouts, in place (padded rows) and out of place; its plans and
// the half spectrum's layout arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "fft3d/cpu_slabs.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d {
namespace {

using Complex = std::complex<double>;
using Spectrum = std::vector<Complex>;
using Reals = std::vector<double>;

constexpr double tolerance = 1e-12;  // rel L2 of fp64 transforms of these sizes

Reals random_reals(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Reals v(count);
  for (double& value : v) value = uniform(random);
  return v;
}

// The half spectrum of a real volume by definition: X[kx, ky, kz] for kx <= NX/2, (NX/2 + 1, NY, NZ), X fastest.
Spectrum half_spectrum_dft(const Extents& n, const Reals& x) {
  const std::int64_t w = n.nx / 2 + 1;
  Spectrum out(w * n.ny * n.nz);
  const auto phase = [](std::int64_t k, std::int64_t j, std::int64_t length) {
    return std::polar(1.0, -2 * std::numbers::pi * static_cast<double>(k * j % length) / static_cast<double>(length));
  };
  for (std::int64_t kz = 0; kz < n.nz; ++kz)
    for (std::int64_t ky = 0; ky < n.ny; ++ky)
      for (std::int64_t kx = 0; kx < w; ++kx) {
        Complex sum = 0;
        for (std::int64_t z = 0; z < n.nz; ++z)
          for (std::int64_t y = 0; y < n.ny; ++y)
            for (std::int64_t i = 0; i < n.nx; ++i)
              sum += x[i + n.nx * (y + n.ny * z)] * phase(kx, i, n.nx) * phase(ky, y, n.ny) * phase(kz, z, n.nz);
        out[kx + w * (ky + n.ny * kz)] = sum;
      }
  return out;
}

template <class T>
double relative_l2(const std::vector<T>& got, const std::vector<T>& want) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num += std::norm(got[i] - want[i]);
    den += std::norm(want[i]);
  }
  return std::sqrt(num / den);
}

// GPU g's reals: its z slab of the volume, rows of NX values out of place, padded to 2*(NX/2 + 1) in place (NaN in
// the padding).
std::vector<Reals> scatter_reals(const SlabDecomposition& d, const Reals& x, bool in_place) {
  const std::int64_t nx = d.size.nx, rows = d.size.ny * d.size.nz / d.gpus;
  const std::int64_t pitch = in_place ? 2 * d.spectrum().nx : nx;
  std::vector<Reals> slabs(d.gpus, Reals(d.local_reals(in_place), std::nan("")));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < nx; ++i) slabs[g][i + pitch * r] = x[i + nx * (r + rows * g)];
  return slabs;
}

Reals gather_reals(const SlabDecomposition& d, const std::vector<Reals>& slabs, bool in_place) {
  const std::int64_t nx = d.size.nx, rows = d.size.ny * d.size.nz / d.gpus;
  const std::int64_t pitch = in_place ? 2 * d.spectrum().nx : nx;
  Reals x(d.size.elements());
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < nx; ++i) x[i + nx * (r + rows * g)] = slabs[g][i + pitch * r];
  return x;
}

std::vector<Spectrum> scatter_spectrum(const SlabDecomposition& d, SlabLayout layout, const Spectrum& whole) {
  std::vector<Spectrum> slabs(d.gpus, Spectrum(d.local_elements()));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t i = 0; i < d.local_elements(); ++i) slabs[g][i] = whole[volume_index(d, layout, g, i)];
  return slabs;
}

Spectrum gather_spectrum(const SlabDecomposition& d, SlabLayout layout, const std::vector<Spectrum>& slabs) {
  Spectrum whole(d.spectrum().elements());
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t i = 0; i < d.local_elements(); ++i) whole[volume_index(d, layout, g, i)] = slabs[g][i];
  return whole;
}

// In place, one buffer of local_elements() complex values viewed as the padded reals.
Spectrum as_spectrum(const Reals& reals) {
  Spectrum s(reals.size() / 2);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = {reals[2 * i], reals[2 * i + 1]};
  return s;
}
Reals as_reals(const Spectrum& spectrum) {
  Reals r(2 * spectrum.size());
  for (std::size_t i = 0; i < spectrum.size(); ++i) r[2 * i] = spectrum[i].real(), r[2 * i + 1] = spectrum[i].imag();
  return r;
}

template <class T>
std::vector<T*> pointers(std::vector<std::vector<T>>& slabs) {
  std::vector<T*> p;
  for (auto& s : slabs) p.push_back(s.data());
  return p;
}
template <class T>
std::vector<const T*> const_pointers(const std::vector<std::vector<T>>& slabs) {
  std::vector<const T*> p;
  for (const auto& s : slabs) p.push_back(s.data());
  return p;
}

using Shape = std::tuple<Extents, int, SlabLayout>;
class RealSlabDecompositionOnCpu : public ::testing::TestWithParam<Shape> {};

std::string shape_name(const ::testing::TestParamInfo<Shape>& info) {
  const bool natural = std::get<2>(info.param) == SlabLayout::natural;
  return to_string(std::get<0>(info.param)) + "_G" + std::to_string(std::get<1>(info.param)) +
         (natural ? "_natural" : "_y_slabs");
}

// 32x4x8: rows of 17 values (a prime the planner takes for no transformed axis) in the column plan.
TEST_P(RealSlabDecompositionOnCpu, MatchesTheDftOfTheRealVolumeBothWaysInPlaceAndOutOfPlace) {
  const auto [size, gpus, layout] = GetParam();
  const CpuSlabTransform fft(slab_decomposition(size, gpus, "hopper", Precision::fp64, TransformKind::r2c), layout);
  const SlabDecomposition& d = fft.decomposition();
  const Reals x = random_reals(size.elements(), 7);
  const Spectrum spectrum = half_spectrum_dft(size, x);
  for (bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    const std::vector<Reals> reals = scatter_reals(d, x, in_place);
    std::vector<Spectrum> forward(d.gpus, Spectrum(d.local_elements(), {std::nan(""), std::nan("")}));
    if (in_place) {
      for (int g = 0; g < d.gpus; ++g) forward[g] = as_spectrum(reals[g]);
      std::vector<Complex*> data = pointers(forward);
      std::vector<const double*> as_doubles;
      for (Complex* p : data) as_doubles.push_back(reinterpret_cast<const double*>(p));
      fft.execute(as_doubles, data, {});
    } else {
      fft.execute(const_pointers(reals), pointers(forward), {});
      EXPECT_TRUE(gather_reals(d, reals, false) == x) << "R2C wrote its input";
    }
    EXPECT_LE(relative_l2(gather_spectrum(d, layout, forward), spectrum), tolerance) << "R2C";

    for (Scaling scaling : {Scaling::full, Scaling::none}) {
      SCOPED_TRACE("C2R, scaling " + to_string(scaling));
      const TransformOptions options{.direction = Direction::inverse, .scaling = scaling};
      std::vector<Spectrum> spectra = scatter_spectrum(d, layout, spectrum);
      std::vector<Reals> back(d.gpus, Reals(d.local_reals(in_place), std::nan("")));
      if (in_place) {
        std::vector<Complex*> data = pointers(spectra);
        std::vector<double*> as_doubles;
        for (Complex* p : data) as_doubles.push_back(reinterpret_cast<double*>(p));
        fft.execute(data, as_doubles, options);
        for (int g = 0; g < d.gpus; ++g) back[g] = as_reals(spectra[g]);
      } else {
        fft.execute(pointers(spectra), pointers(back), options);
      }
      const double scale = scaling == Scaling::full ? 1.0 : static_cast<double>(size.elements());
      Reals want = x;
      for (double& value : want) value *= scale;
      EXPECT_LE(relative_l2(gather_reals(d, back, in_place), want), tolerance);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RealSlabDecompositionOnCpu,
    ::testing::Combine(::testing::Values(Extents{16, 8, 8}, Extents{12, 6, 10}, Extents{32, 4, 8}),
                       ::testing::Values(1, 2), ::testing::Values(SlabLayout::natural, SlabLayout::y_slabs)),
    shape_name);

INSTANTIATE_TEST_SUITE_P(
    MoreGpus, RealSlabDecompositionOnCpu,
    ::testing::Combine(::testing::Values(Extents{16, 16, 8}), ::testing::Values(4, 8),
                       ::testing::Values(SlabLayout::natural, SlabLayout::y_slabs)),
    shape_name);

TEST(RealSlabDecompositionPlans, ExchangesTheHalfSpectrumAndPlansTheColumnOnItsRows) {
  const SlabDecomposition d = slab_decomposition({64, 32, 16}, 4, "hopper", Precision::fp32, TransformKind::r2c);
  EXPECT_EQ(d.spectrum(), (Extents{33, 32, 16}));
  EXPECT_EQ(d.z_slab(), (Extents{33, 32, 4}));
  EXPECT_EQ(d.y_slab(), (Extents{33, 8, 16}));
  EXPECT_EQ(d.local_elements(), 33 * 32 * 4);
  EXPECT_EQ(d.local_reals(false), 64 * 32 * 4);
  EXPECT_EQ(d.local_reals(true), 2 * 33 * 32 * 4);
  EXPECT_EQ(kind_of(d.slab), TransformKind::r2c);
  EXPECT_EQ(kind_of(d.slab_c2r), TransformKind::c2r);
  EXPECT_EQ(d.slab.size, (Extents{64, 32, 1}));
  EXPECT_EQ(d.slab.batch, 4);
  EXPECT_EQ(d.slab_c2r.batch, 4);
  EXPECT_EQ(d.column.axes, (std::vector<Axis>{Axis::z}));
  EXPECT_EQ(d.column.size.elements(), d.y_slab().elements());
  EXPECT_EQ(d.column.size.nz, 16);
  const SlabDecomposition units = in_exchange_units(
      slab_decomposition({64, 32, 16}, 4, "hopper", Precision::fp64, TransformKind::r2c));
  EXPECT_EQ(units.size, (Extents{66, 32, 16}));
  EXPECT_EQ(units.kind, TransformKind::c2c);
}

// The column's volume (513 * 512 rows of 1024 Z values on each of 2 GPUs) has an X length that is not a power of
// two, but its tile is all powers of two: the planner takes Z whole in one spread kernel, as for the complex column,
// and not in two (docs/performance.md L169).
TEST(RealSlabDecompositionPlans, PlansAFlatColumnOfPowerOfTwoZInOneKernelInBothPrecisions) {
  for (Precision precision : {Precision::fp32, Precision::fp64}) {
    const SlabDecomposition d = slab_decomposition({1024, 1024, 1024}, 2, "hopper", precision, TransformKind::r2c);
    EXPECT_EQ(d.column.size.nx, 513 * 512);
    EXPECT_EQ(d.column.kernels.size(), 1u) << to_string(precision);
  }
}

TEST(RealSlabDecompositionPlans, RefusesAnOddXLengthAndTheC2rKind) {
  EXPECT_THROW(slab_decomposition({15, 8, 8}, 2, "hopper", Precision::fp32, TransformKind::r2c), UsageError);
  EXPECT_THROW(slab_decomposition({16, 8, 8}, 2, "hopper", Precision::fp32, TransformKind::c2r), UsageError);
}

TEST(RealSlabDecompositionUsage, RefusesTheOtherKindsDataAndADirectionAgainstTheRun) {
  const CpuSlabTransform real(slab_decomposition({8, 8, 8}, 2, "hopper", Precision::fp64, TransformKind::r2c));
  const CpuSlabTransform complex(slab_decomposition({8, 8, 8}, 2, "hopper", Precision::fp64));
  std::vector<Reals> reals(2, Reals(real.decomposition().local_reals(false)));
  std::vector<Spectrum> spectra(2, Spectrum(complex.decomposition().local_elements()));
  std::vector<Spectrum> other = spectra;
  EXPECT_THROW(real.execute(const_pointers(spectra), pointers(other), {}), UsageError);
  EXPECT_THROW(complex.execute(const_pointers(reals), pointers(spectra), {}), UsageError);
  EXPECT_THROW(real.execute(const_pointers(reals), pointers(spectra), {.direction = Direction::inverse}), UsageError);
  EXPECT_THROW(real.execute(pointers(spectra), pointers(reals), {.direction = Direction::forward}), UsageError);
}

}  // namespace
}  // namespace fft3d
