// Batches on the CPU backend: every volume of a batch against FFTW's fp64 transform of that volume, C2C packed, with
// a batch stride and with an output stride of its own (the values between volumes left as they were), R2C and C2R packed, in place and out of
// place, fp64 and fp32, with NaN-poisoned outputs; and the bad batches a descriptor is refused for.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/errors.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;
using Reals = std::vector<double>;

constexpr double fp64_bound = 1e-12;
constexpr std::uint64_t seed = 20261126;
constexpr std::size_t unset = static_cast<std::size_t>(-1);

std::size_t count(std::int64_t n) { return static_cast<std::size_t>(n); }

struct BatchCase {
  Extents size;
  std::int64_t batch = 1;
  std::int64_t stride = 0;  // 0: packed
};

// Small planner plans: power-of-two, mixed radix, and the batch shapes' smallest volume; packed and strided.
const BatchCase c2c_cases[] = {
    {{16, 16, 16}, 5, 0}, {{16, 16, 16}, 3, 16 * 16 * 16 + 40}, {{12, 10, 9}, 4, 0}, {{8, 4, 2}, 6, 100}};

std::string name_of(const BatchCase& c) {
  return to_string(c.size) + " x " + std::to_string(c.batch) + " (stride " + std::to_string(c.stride) + ")";
}

template <class Real>
double bound_for() {
  return sizeof(Real) == 8 ? fp64_bound : fp32_error_bound;
}

// Runs the batch (in place or out of place, into a NaN-poisoned output) and checks every volume against FFTW, and
// that the values between volumes are as they were (NaN out of place; the input in place).
template <class Real>
void check_c2c(const CpuTransform& backend, const BatchCase& c, Direction direction, bool in_place) {
  ASSERT_EQ(backend.plan().batch, c.batch);
  const std::int64_t volume = c.size.elements();
  const std::int64_t stride = c.stride > 0 ? c.stride : volume;
  Values input(count((c.batch - 1) * stride + volume));
  fill_random(input, seed + static_cast<std::uint64_t>(c.batch));
  std::vector<std::complex<Real>> in(input.begin(), input.end());
  std::vector<std::complex<Real>> out(in.size());
  poison(std::span(out));
  const TransformOptions options{.direction = direction};
  if (in_place) {
    out = in;
    backend.execute(std::span(out), options);
  } else {
    backend.execute(std::span<const std::complex<Real>>(in), std::span(out), options);
  }
  for (std::int64_t v = 0; v < c.batch; ++v) {
    const std::span<const std::complex<double>> volume_in(input.data() + v * stride, count(volume));
    Values reference(count(volume));
    fftw_reference(c.size, volume_in, reference, direction);
    const std::span<const std::complex<Real>> got(out.data() + v * stride, count(volume));
    const ErrorReport report = compare(got, reference);
    EXPECT_TRUE(report.passes(bound_for<Real>()))
        << name_of(c) << (in_place ? " in place" : " out of place") << ", volume " << v << ": relative L2 "
        << report.relative_l2 << ", " << report.non_finite << " non-finite";
  }
  std::size_t changed_gap = unset;
  for (std::int64_t v = 0; v + 1 < c.batch; ++v)
    for (std::int64_t i = v * stride + volume; i < (v + 1) * stride; ++i) {
      const std::complex<Real> value = out[count(i)];
      const bool kept = in_place ? value == in[count(i)] : std::isnan(value.real()) && std::isnan(value.imag());
      if (!kept && changed_gap == unset) changed_gap = count(i);
    }
  EXPECT_EQ(changed_gap, unset) << name_of(c) << ": a value between volumes was written";
}

TEST(CpuBatch, EveryVolumeOfAC2CBatchMatchesFftw) {
  for (const BatchCase& c : c2c_cases) {
    const CpuTransform backend(TransformDesc{.extents = c.size, .batch = c.batch, .batch_stride = c.stride}, 2);
    for (Direction direction : {Direction::forward, Direction::inverse})
      for (bool in_place : {false, true}) {
        check_c2c<double>(backend, c, direction, in_place);
        check_c2c<float>(backend, c, direction, in_place);
      }
  }
}

// cufftPlanMany's idist != odist (TransformDesc::output_batch_stride), out of place: every volume read `in_stride`
// apart and written `out_stride` apart matches FFTW, the values between the output's volumes stay NaN; a run in place
// is refused.
template <class Real>
void check_output_stride(std::int64_t in_stride, std::int64_t out_stride, Direction direction) {
  const Extents size{12, 10, 9};
  const std::int64_t batch = 4, volume = size.elements();
  const CpuTransform backend(
      TransformDesc{.extents = size, .batch = batch, .batch_stride = in_stride, .output_batch_stride = out_stride}, 2);
  const std::int64_t in_distance = in_stride > 0 ? in_stride : volume;
  const std::int64_t out_distance = out_stride > 0 ? out_stride : in_distance;
  Values input(count((batch - 1) * in_distance + volume));
  fill_random(input, seed + 7);
  const std::vector<std::complex<Real>> in(input.begin(), input.end());
  std::vector<std::complex<Real>> out(count((batch - 1) * out_distance + volume));
  poison(std::span(out));
  backend.execute(std::span<const std::complex<Real>>(in), std::span(out), {.direction = direction});
  for (std::int64_t v = 0; v < batch; ++v) {
    Values reference(count(volume));
    fftw_reference(size, std::span<const std::complex<double>>(input.data() + v * in_distance, count(volume)),
                   reference, direction);
    const ErrorReport report =
        compare(std::span<const std::complex<Real>>(out.data() + v * out_distance, count(volume)), reference);
    EXPECT_TRUE(report.passes(bound_for<Real>())) << "volume " << v << ": " << report.relative_l2;
  }
  for (std::int64_t v = 0; v + 1 < batch; ++v)
    for (std::int64_t i = v * out_distance + volume; i < (v + 1) * out_distance; ++i)
      ASSERT_TRUE(std::isnan(out[count(i)].real())) << "a value between the output's volumes was written at " << i;
  std::vector<std::complex<Real>> data = out;
  EXPECT_THROW(backend.execute(std::span(data), {}), UsageError);
}

TEST(CpuBatch, AC2CBatchWithItsOwnOutputStrideMatchesFftw) {
  const std::int64_t volume = 12 * 10 * 9;
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    check_output_stride<double>(volume + 30, 2 * volume, direction);  // wider out
    check_output_stride<float>(2 * volume, volume, direction);        // packed out
    check_output_stride<double>(0, volume + 7, direction);            // packed in
  }
}

// A transform built from a plan with a batch runs packed volumes.
TEST(CpuBatch, APlansBatchRunsPackedVolumes) {
  const BatchCase c{{16, 8, 4}, 3, 0};
  Plan plan = CpuTransform(TransformDesc{.extents = c.size}).plan();
  plan.batch = c.batch;
  const CpuTransform backend(plan, 1);
  Values in(count(c.size.elements() * c.batch)), out(in.size());
  fill_random(in, seed);
  poison(std::span(out));
  backend.execute(in.data(), out.data());
  for (std::int64_t v = 0; v < c.batch; ++v) {
    Values reference(count(c.size.elements()));
    fftw_reference(c.size, std::span<const std::complex<double>>(in.data() + v * c.size.elements(), reference.size()),
                   reference, Direction::forward);
    const ErrorReport report =
        compare(std::span<const std::complex<double>>(out.data() + v * c.size.elements(), reference.size()), reference);
    EXPECT_TRUE(report.passes(fp64_bound)) << "volume " << v << ": " << report.relative_l2;
  }
}

// Real batches are packed: the real rows (padded to 2*(NX/2+1) reals in place) and the half spectra one after
// another.
template <class Real>
void check_real(const Extents& size, std::int64_t batch, bool in_place) {
  const std::int64_t half = size.nx / 2 + 1, rows = size.ny * size.nz;
  const std::int64_t spectrum = half * rows;
  const std::int64_t real_pitch = in_place ? 2 * half : size.nx;
  const CpuTransform r2c(TransformDesc{.extents = size, .kind = TransformKind::r2c, .batch = batch}, 2);
  const CpuTransform c2r(TransformDesc{.extents = size, .kind = TransformKind::c2r, .batch = batch}, 2);
  Reals reals(count(size.elements() * batch));
  fill_random(reals, seed + 1);
  // The batch's real rows in the placement's layout (NaN padding), and a NaN-poisoned spectrum.
  std::vector<Real> rows_in(count(real_pitch * rows * batch), std::numeric_limits<Real>::quiet_NaN());
  for (std::int64_t r = 0; r < rows * batch; ++r)
    for (std::int64_t x = 0; x < size.nx; ++x) rows_in[count(r * real_pitch + x)] = static_cast<Real>(reals[count(r * size.nx + x)]);
  std::vector<std::complex<Real>> spectra(count(spectrum * batch));
  poison(std::span(spectra));
  if (in_place) {
    std::memcpy(spectra.data(), rows_in.data(), rows_in.size() * sizeof(Real));
    r2c.execute(reinterpret_cast<const Real*>(spectra.data()), spectra.data());
  } else {
    r2c.execute(rows_in.data(), spectra.data());
  }
  std::vector<Values> references;
  for (std::int64_t v = 0; v < batch; ++v) {
    Values reference(count(spectrum));
    fftw_r2c_reference(size, std::span<const double>(reals.data() + v * size.elements(), count(size.elements())),
                       reference);
    const ErrorReport report =
        compare(std::span<const std::complex<Real>>(spectra.data() + v * spectrum, count(spectrum)), reference);
    EXPECT_TRUE(report.passes(bound_for<Real>()))
        << "R2C " << to_string(size) << " volume " << v << (in_place ? " in place" : "") << ": " << report.relative_l2;
    references.push_back(std::move(reference));
  }
  // C2R of the FFTW spectra back to the reals (scaled), into NaN-poisoned rows.
  std::vector<std::complex<Real>> spectra_in;
  for (const Values& reference : references) spectra_in.insert(spectra_in.end(), reference.begin(), reference.end());
  std::vector<Real> rows_out(rows_in.size(), std::numeric_limits<Real>::quiet_NaN());
  const TransformOptions inverse{.direction = Direction::inverse, .scaling = Scaling::full};
  Real* result = rows_out.data();
  if (in_place) {
    c2r.execute(spectra_in.data(), reinterpret_cast<Real*>(spectra_in.data()), inverse);
    result = reinterpret_cast<Real*>(spectra_in.data());
  } else {
    c2r.execute(spectra_in.data(), rows_out.data(), inverse);
  }
  for (std::int64_t v = 0; v < batch; ++v) {
    std::vector<Real> got(count(size.elements()));
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t x = 0; x < size.nx; ++x)
        got[count(r * size.nx + x)] = result[count((v * rows + r) * real_pitch + x)];
    const ErrorReport report = compare(std::span<const Real>(got),
                                       std::span<const double>(reals.data() + v * size.elements(), got.size()));
    EXPECT_TRUE(report.passes(bound_for<Real>()))
        << "C2R " << to_string(size) << " volume " << v << (in_place ? " in place" : "") << ": " << report.relative_l2;
  }
}

TEST(CpuBatch, EveryVolumeOfARealBatchMatchesFftw) {
  for (const Extents& size : {Extents{16, 16, 16}, Extents{12, 10, 6}})
    for (bool in_place : {false, true}) {
      check_real<double>(size, 3, in_place);
      check_real<float>(size, 3, in_place);
    }
}

std::string usage_error_of(const TransformDesc& desc) {
  try {
    CpuTransform backend(desc, 1);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "no error";
}

TEST(CpuBatch, BadBatchesAreRefusedByName) {
  const Extents size{16, 16, 16};
  EXPECT_EQ(usage_error_of({.extents = size, .batch = 0}), "batch 0: a transform takes 1 or more volumes");
  EXPECT_EQ(usage_error_of({.extents = size, .batch = 2, .batch_stride = 4000}),
            "batch stride 4000 is smaller than a volume of 16x16x16 = 4096 elements (0: volumes packed one after "
            "another)");
  EXPECT_EQ(usage_error_of({.extents = size, .kind = TransformKind::r2c, .batch = 2, .batch_stride = 8192}),
            "batch stride 8192: real batches (r2c) take packed volumes only (batch stride 0)");
  EXPECT_EQ(usage_error_of({.extents = size, .batch = 2, .output_batch_stride = 100}),
            "output batch stride 100 is smaller than a volume of 16x16x16 = 4096 elements (0: volumes packed one "
            "after another)");
  EXPECT_EQ(usage_error_of({.extents = size, .kind = TransformKind::c2r, .batch = 2, .output_batch_stride = 8192}),
            "output batch stride 8192: real batches (c2r) take packed volumes only (batch stride 0)");
  EXPECT_EQ(usage_error_of({.extents = size, .batch = 2, .batch_stride = 4096, .output_batch_stride = 8192,
                            .placement = Placement::in_place}),
            "output batch stride 8192: in place, the output's volumes lie where the input's do (batch stride 4096)");
  EXPECT_NE(usage_error_of({.extents = size, .batch = std::int64_t{1} << 60}).find("does not fit in 64 bits"),
            std::string::npos);
  EXPECT_NE(usage_error_of({.extents = size, .batch = 3, .batch_stride = std::int64_t{1} << 61})
                .find("does not fit in 64 bits"),
            std::string::npos);
  // A buffer of one volume for a batch of two.
  const CpuTransform backend(TransformDesc{.extents = size, .batch = 2}, 1);
  std::vector<std::complex<double>> one(count(size.elements()));
  try {
    backend.execute(std::span(one), {});
    ADD_FAILURE() << "no error";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "CpuTransform: the data buffer holds 4096 values; the plan's size 16x16x16 (a batch of 2 volumes) "
                 "needs 8192");
  }
}

}  // namespace
}  // namespace fft3d::validate
