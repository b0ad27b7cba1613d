// Properties of the CPU backend's real transforms: R2C then C2R with full scaling returns the input; the R2C output
// expanded by Hermitian symmetry is the C2C output of the same reals; the imaginary parts of the eight
// self-conjugate terms of a C2R input are ignored, by FFTW too.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <span>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/lengths.hpp"
#include "validate/oracle.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::validate {
namespace {

using Reals = std::vector<double>;
using Values = std::vector<std::complex<double>>;

constexpr double bound = 1e-12;
// Sizes with NX = 2, axes of length 1 and 2, and longer ones; powers of two, then mixed lengths (odd NX/2, odd NY
// and NZ).
const std::vector<Extents> sizes = {{2, 4, 8}, {8, 2, 1},  {16, 8, 4}, {32, 1, 2}, {4, 16, 16},
                                    {64, 8, 2}, {6, 9, 5}, {14, 1, 3}, {30, 6, 1}, {2, 5, 7}};
constexpr int plans_per_size = 6;

std::size_t count(std::int64_t n) { return static_cast<std::size_t>(n); }
std::int64_t spectrum_count(const Extents& size) { return (size.nx / 2 + 1) * size.ny * size.nz; }

// A random legal plan of `kind` for exactly `size`, drawn until one has that size.
Plan random_plan_of_size(const Extents& size, TransformKind kind, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const auto power_of_two = [](std::int64_t n) { return std::has_single_bit(static_cast<std::uint64_t>(n)); };
  const bool mixed = !power_of_two(size.nx) || !power_of_two(size.ny) || !power_of_two(size.nz);
  const auto ceiling = [](std::int64_t n) {
    return static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(n)));
  };
  const RandomPlanLimits limits{.max_axis_length = ceiling(std::max({size.nx, size.ny, size.nz, std::int64_t{2}})),
                                .max_elements = ceiling(std::max<std::int64_t>(size.elements(), 4)),
                                .factors = mixed ? std::span<const std::int64_t>(supported_factors)
                                                 : std::span<const std::int64_t>(power_of_two_factor)};
  for (;;) {
    Plan plan = kind == TransformKind::c2c ? random_legal_plan(random, limits)
                                           : random_legal_real_plan(random, kind, limits);
    if (plan.size == size) return plan;
  }
}

std::string describe(const Plan& first, const Plan& second) { return to_yaml(first) + "then\n" + to_yaml(second); }

TEST(CpuRealProperties, R2CThenScaledC2RReturnsTheInput) {
  std::uint64_t seed = 40;
  for (const Extents& size : sizes)
    for (int i = 0; i < plans_per_size; ++i, ++seed) {
      const CpuTransform r2c(random_plan_of_size(size, TransformKind::r2c, seed));
      const CpuTransform c2r(random_plan_of_size(size, TransformKind::c2r, seed + 1000));
      Reals reals(count(size.elements())), back(reals.size());
      fill_random(reals, seed);
      Values spectrum(count(spectrum_count(size)));
      r2c.execute(reals.data(), spectrum.data());
      poison(std::span(back));
      c2r.execute(spectrum.data(), back.data(), {.direction = Direction::inverse, .scaling = Scaling::full});
      const ErrorReport report = compare(std::span<const double>(back), reals);
      ASSERT_TRUE(report.passes(bound)) << report.relative_l2 << "\n" << describe(r2c.plan(), c2r.plan());
    }
}

// out[kx, ky, kz] for every kx < NX: the half spectrum where it holds kx, else the conjugate of its mirror.
Values hermitian_expansion(const Extents& size, const Values& half) {
  const std::int64_t columns = size.nx / 2 + 1;
  auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return half[count(x + columns * (y + size.ny * z))];
  };
  Values full(count(size.elements()));
  for (std::int64_t z = 0; z < size.nz; ++z)
    for (std::int64_t y = 0; y < size.ny; ++y)
      for (std::int64_t x = 0; x < size.nx; ++x)
        full[count(x + size.nx * (y + size.ny * z))] =
            x < columns ? at(x, y, z)
                        : std::conj(at(size.nx - x, (size.ny - y) % size.ny, (size.nz - z) % size.nz));
  return full;
}

TEST(CpuRealProperties, TheHalfSpectrumExpandedByHermitianSymmetryIsTheC2COutput) {
  std::uint64_t seed = 60;
  for (const Extents& size : sizes)
    for (int i = 0; i < plans_per_size; ++i, ++seed) {
      const CpuTransform r2c(random_plan_of_size(size, TransformKind::r2c, seed));
      const CpuTransform c2c(random_plan_of_size(size, TransformKind::c2c, seed + 1000));
      Reals reals(count(size.elements()));
      fill_random(reals, seed);
      Values spectrum(count(spectrum_count(size)));
      r2c.execute(reals.data(), spectrum.data());
      const Values as_complex(reals.begin(), reals.end());
      Values full(as_complex.size());
      c2c.execute(as_complex.data(), full.data());
      const ErrorReport report = compare(hermitian_expansion(size, spectrum), full);
      ASSERT_TRUE(report.passes(bound)) << report.relative_l2 << "\n" << describe(r2c.plan(), c2c.plan());
    }
}

// The self-conjugate terms: kx in {0, NX/2}, ky in {0, NY/2}, kz in {0, NZ/2}, the halves only of even lengths
// (eight terms, fewer where an axis is 1 or odd).
std::int64_t half_if_even(std::int64_t n) { return n % 2 == 0 ? n / 2 : 0; }

std::vector<std::int64_t> self_conjugate_indices(const Extents& size) {
  const std::int64_t columns = size.nx / 2 + 1;
  std::vector<std::int64_t> indices;
  for (std::int64_t z : {std::int64_t{0}, half_if_even(size.nz)})
    for (std::int64_t y : {std::int64_t{0}, half_if_even(size.ny)})
      for (std::int64_t x : {std::int64_t{0}, size.nx / 2}) indices.push_back(x + columns * (y + size.ny * z));
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

Reals c2r_of(const CpuTransform& c2r, const Values& spectrum) {
  Reals out(count(c2r.plan().size.elements()));
  poison(std::span(out));
  c2r.execute(spectrum.data(), out.data());
  return out;
}

Reals fftw_c2r_of(const Extents& size, const Values& spectrum) {
  Reals out(count(size.elements()));
  fftw_c2r_reference(size, spectrum, out);
  return out;
}

TEST(CpuRealProperties, ImaginaryPartsOfTheSelfConjugateTermsAreIgnoredAsFftwIgnoresThem) {
  constexpr double perturbation = 0.75;
  std::uint64_t seed = 80;
  for (const Extents& size : sizes) {
    const CpuTransform c2r(random_plan_of_size(size, TransformKind::c2r, seed++));
    Values spectrum(count(spectrum_count(size)));
    fill_random(spectrum, seed);
    Values perturbed = spectrum;
    for (std::int64_t index : self_conjugate_indices(size)) perturbed[count(index)] += std::complex(0.0, perturbation);
    const Reals ours = c2r_of(c2r, spectrum);
    const Reals fftw = fftw_c2r_of(size, spectrum);
    EXPECT_TRUE(compare(std::span<const double>(c2r_of(c2r, perturbed)), ours).passes(bound)) << to_yaml(c2r.plan());
    EXPECT_TRUE(compare(std::span<const double>(fftw_c2r_of(size, perturbed)), fftw).passes(bound)) << to_string(size);
    EXPECT_TRUE(compare(std::span<const double>(ours), fftw).passes(bound)) << to_yaml(c2r.plan());
    // Any other term's imaginary part counts, (1, 0, 0) or, where NX = 2, (0, 1, 0): the check above is not vacuous.
    Values other = spectrum;
    other[size.nx >= 4 ? 1 : count(size.nx / 2 + 1)] += std::complex(0.0, perturbation);
    EXPECT_FALSE(compare(std::span<const double>(c2r_of(c2r, other)), ours).passes(bound)) << to_yaml(c2r.plan());
  }
}

}  // namespace
}  // namespace fft3d::validate
