// The whole slab decomposition on the CPU backend (CpuSlabTransform: the local plans, the steps and the exchange
// blocks MultiGpuTransform runs) against the 3D DFT by definition, for G = 1, 2, 4, 8, forward and inverse, both
// layouts, in place and out of place; the decomposition's plans and checks; and the exchange of fp64 values as
// exchange units.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <numbers>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "fft3d/cpu_slabs.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d {
namespace {

using Volume = std::vector<std::complex<double>>;
using Slabs = std::vector<Volume>;

constexpr double tolerance = 1e-12;  // rel L2 of fp64 transforms of these sizes

Volume random_volume(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Volume v(count);
  for (auto& value : v) value = {uniform(random), uniform(random)};
  return v;
}

double relative_l2(const Volume& got, const Volume& want) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num += std::norm(got[i] - want[i]);
    den += std::norm(want[i]);
  }
  return std::sqrt(num / den);
}

Slabs scatter(const SlabDecomposition& d, SlabLayout layout, const Volume& whole) {
  Slabs slabs(d.gpus, Volume(d.local_elements()));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t i = 0; i < d.local_elements(); ++i) slabs[g][i] = whole[volume_index(d, layout, g, i)];
  return slabs;
}

Volume gather(const SlabDecomposition& d, SlabLayout layout, const Slabs& slabs) {
  Volume whole(d.size.elements());
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t i = 0; i < d.local_elements(); ++i) whole[volume_index(d, layout, g, i)] = slabs[g][i];
  return whole;
}

Slabs poisoned(const SlabDecomposition& d) {
  return Slabs(d.gpus, Volume(d.local_elements(), {std::nan(""), std::nan("")}));
}

std::vector<const std::complex<double>*> inputs(const Slabs& slabs) {
  std::vector<const std::complex<double>*> pointers;
  for (const Volume& s : slabs) pointers.push_back(s.data());
  return pointers;
}

std::vector<std::complex<double>*> outputs(Slabs& slabs) {
  std::vector<std::complex<double>*> pointers;
  for (Volume& s : slabs) pointers.push_back(s.data());
  return pointers;
}

// Runs the decomposed transform on `input` (slabs in the direction's input layout), in place or out of place;
// returns the output slabs, and checks that out of place the input stayed as it was.
Slabs run(const CpuSlabTransform& fft, const Slabs& input, const TransformOptions& options, bool in_place) {
  if (in_place) {
    Slabs data = input;
    fft.execute(inputs(data), outputs(data), options);
    return data;
  }
  Slabs out = poisoned(fft.decomposition());
  fft.execute(inputs(input), outputs(out), options);
  return out;
}

// The DFT along one axis of every line, by definition: an oracle that shares nothing with the engine.
void dft_axis(Volume& v, const Extents& n, Axis axis, double sign) {
  const std::int64_t length = n[axis];
  const std::int64_t stride = axis == Axis::x ? 1 : axis == Axis::y ? n.nx : n.nx * n.ny;
  Volume twiddle(length), line(length);
  for (std::int64_t k = 0; k < length; ++k)
    twiddle[k] = std::polar(1.0, sign * 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(length));
  for (std::int64_t start = 0; start < n.elements(); ++start) {
    if (start / stride % length != 0) continue;  // not the first point of its line
    for (std::int64_t k = 0; k < length; ++k) {
      line[k] = 0;
      for (std::int64_t j = 0; j < length; ++j) line[k] += v[start + j * stride] * twiddle[j * k % length];
    }
    for (std::int64_t k = 0; k < length; ++k) v[start + k * stride] = line[k];
  }
}

Volume dft(const Extents& n, Volume v, const TransformOptions& options) {
  const double sign = options.direction == Direction::forward ? -1 : 1;
  for (Axis axis : all_axes) dft_axis(v, n, axis, sign);
  if (options.scaling == Scaling::full)
    for (auto& value : v) value /= static_cast<double>(n.elements());
  return v;
}

class SlabDecompositionOnCpu : public ::testing::TestWithParam<std::tuple<Extents, int, SlabLayout>> {};

TEST_P(SlabDecompositionOnCpu, MatchesTheDftForwardAndInverseInPlaceAndOutOfPlace) {
  const auto [size, gpus, layout] = GetParam();
  const CpuSlabTransform fft(slab_decomposition(size, gpus, "hopper"), layout);
  const SlabDecomposition& d = fft.decomposition();
  const Volume x = random_volume(size.elements(), 5);
  const Volume spectrum = dft(size, x, {});
  for (bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    const Slabs z_slabs = scatter(d, SlabLayout::natural, x);
    const Slabs forward = run(fft, z_slabs, {}, in_place);
    EXPECT_LE(relative_l2(gather(d, layout, forward), spectrum), tolerance) << "forward";
    if (!in_place) {
      EXPECT_TRUE(gather(d, SlabLayout::natural, z_slabs) == x) << "forward wrote its input";
    }
    for (Scaling scaling : {Scaling::full, Scaling::none}) {
      SCOPED_TRACE("inverse, scaling " + to_string(scaling));
      const TransformOptions options{.direction = Direction::inverse, .scaling = scaling};
      const Slabs spectra = scatter(d, layout, spectrum);
      const Slabs back = run(fft, spectra, options, in_place);
      EXPECT_LE(relative_l2(gather(d, SlabLayout::natural, back), dft(size, spectrum, options)), tolerance);
      if (!in_place) {
        EXPECT_TRUE(gather(d, layout, spectra) == spectrum) << "inverse wrote its input";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SlabDecompositionOnCpu,
    ::testing::Combine(::testing::Values(Extents{16, 16, 16}, Extents{8, 16, 32}, Extents{32, 8, 8}),
                       ::testing::Values(1, 2, 4, 8), ::testing::Values(SlabLayout::natural, SlabLayout::y_slabs)),
    [](const auto& info) {
      const bool natural = std::get<2>(info.param) == SlabLayout::natural;
      return to_string(std::get<0>(info.param)) + "_G" + std::to_string(std::get<1>(info.param)) +
             (natural ? "_natural" : "_y_slabs");
    });

TEST(SlabDecompositionPlans, TheSlabPlanTransformsXAndYOfAZSlabAndTheColumnPlanZOfAYSlab) {
  const SlabDecomposition d = slab_decomposition({64, 32, 16}, 4, "hopper");
  EXPECT_EQ(d.z_slab(), (Extents{64, 32, 4}));
  EXPECT_EQ(d.y_slab(), (Extents{64, 8, 16}));
  EXPECT_EQ(d.local_elements(), 64 * 32 * 4);
  EXPECT_EQ(d.slab.size, d.z_slab());
  EXPECT_EQ(d.column.size, d.y_slab());
  EXPECT_EQ(d.slab.axes, (std::vector<Axis>{Axis::x, Axis::y}));
  EXPECT_EQ(d.column.axes, (std::vector<Axis>{Axis::z}));
  EXPECT_EQ(d.slab.arch, "hopper");
}

// The column plan on each row chunk of a chunk-major y slab (in_row_chunks' layout) gives what the column plan gives
// on the whole y slab; a chunk count that does not divide the rows is refused.
TEST(SlabDecompositionPlans, TheColumnPlanOnRowChunksMatchesTheWholeColumnPlan) {
  const SlabDecomposition d = slab_decomposition({8, 16, 16}, 2, "hopper", Precision::fp64);
  const Extents y = d.y_slab();
  constexpr std::int64_t chunks = 4;
  const std::int64_t chunk_rows = y.ny / chunks;
  const Plan chunk_plan = column_chunk_plan(d, chunks, "hopper");
  EXPECT_EQ(chunk_plan.size, (Extents{y.nx * chunk_rows, 1, y.nz}));
  EXPECT_EQ(chunk_plan.axes, (std::vector<Axis>{Axis::z}));
  EXPECT_EQ(chunk_plan.precision, Precision::fp64);
  const Volume slab = random_volume(y.elements(), 7);
  Volume whole(slab.size());
  CpuTransform(d.column, 1).execute(slab.data(), whole.data());
  // chunk-major: value (x, r, z) of chunk c at x + NX*(r + R/C*(z + NZ*c))
  const auto chunked_index = [&](std::int64_t x, std::int64_t row, std::int64_t z) {
    return x + y.nx * (row % chunk_rows + chunk_rows * (z + y.nz * (row / chunk_rows)));
  };
  Volume chunked(slab.size());
  for (std::int64_t z = 0; z < y.nz; ++z)
    for (std::int64_t row = 0; row < y.ny; ++row)
      for (std::int64_t x = 0; x < y.nx; ++x) chunked[chunked_index(x, row, z)] = slab[x + y.nx * (row + y.ny * z)];
  const CpuTransform on_chunk(chunk_plan, 1);
  const std::int64_t chunk_values = chunk_plan.size.elements();
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::complex<double>* chunk = chunked.data() + c * chunk_values;
    on_chunk.execute(chunk, chunk);
  }
  Volume unchunked(slab.size());
  for (std::int64_t z = 0; z < y.nz; ++z)
    for (std::int64_t row = 0; row < y.ny; ++row)
      for (std::int64_t x = 0; x < y.nx; ++x)
        unchunked[x + y.nx * (row + y.ny * z)] = chunked[chunked_index(x, row, z)];
  EXPECT_LT(relative_l2(unchunked, whole), tolerance);
  EXPECT_THROW(column_chunk_plan(d, 3, "hopper"), UsageError);
}

TEST(SlabDecompositionPlans, LocalPlansCarryTheTransformsPrecision) {
  const SlabDecomposition fp32 = slab_decomposition({64, 32, 16}, 4, "hopper");
  const SlabDecomposition fp64 = slab_decomposition({64, 32, 16}, 4, "hopper", Precision::fp64);
  EXPECT_EQ(fp32.slab.precision, Precision::fp32);
  EXPECT_EQ(fp32.column.precision, Precision::fp32);
  EXPECT_EQ(fp64.slab.precision, Precision::fp64);
  EXPECT_EQ(fp64.column.precision, Precision::fp64);
  EXPECT_EQ(fp64.slab.axes, fp32.slab.axes);
  EXPECT_EQ(fp64.column.size, fp32.column.size);
}

TEST(SlabExchangeUnits, AnFp32ExchangeCountsInValues) {
  const SlabDecomposition d = slab_decomposition({16, 8, 8}, 2, "hopper");
  EXPECT_EQ(in_exchange_units(d).size, d.size);
  EXPECT_EQ(exchange_sends(in_exchange_units(d), 1, true), exchange_sends(d, 1, true));
}

// The blocks of the units decomposition, moved byte for byte between fp64 buffers, build the fp64 y slabs (and
// back): what the GPUs' copies, peer stores and NCCL sends do with the same lists.
TEST(SlabExchangeUnits, TheUnitBlocksMoveFp64ValuesBetweenTheLayouts) {
  for (int gpus : {1, 2, 4}) {
    SCOPED_TRACE(std::to_string(gpus) + " GPUs");
    const SlabDecomposition d = slab_decomposition({8, 8, 8}, gpus, "hopper", Precision::fp64);
    const SlabDecomposition units = in_exchange_units(d);
    ASSERT_EQ(units.local_elements() * exchange_unit_bytes,
              d.local_elements() * static_cast<std::int64_t>(sizeof(std::complex<double>)));
    const Volume x = random_volume(d.size.elements(), 9);
    for (bool to_y_slabs : {true, false}) {
      const SlabLayout from_layout = to_y_slabs ? SlabLayout::natural : SlabLayout::y_slabs;
      const SlabLayout to_layout = to_y_slabs ? SlabLayout::y_slabs : SlabLayout::natural;
      const Slabs from = scatter(d, from_layout, x);
      Slabs to = poisoned(d);
      for (int g = 0; g < gpus; ++g) {
        const std::vector<ExchangeBlock> sends = exchange_sends(units, g, to_y_slabs);
        for (int h = 0; h < gpus; ++h) {
          std::vector<ExchangeBlock> receives;
          for (const ExchangeBlock& r : exchange_receives(units, h, to_y_slabs))
            if (r.peer == g) receives.push_back(r);
          std::size_t next = 0;
          for (const ExchangeBlock& s : sends) {
            if (s.peer != h) continue;
            ASSERT_LT(next, receives.size());
            ASSERT_EQ(receives[next].count, s.count);
            std::memcpy(reinterpret_cast<char*>(to[h].data()) + receives[next].offset * exchange_unit_bytes,
                        reinterpret_cast<const char*>(from[g].data()) + s.offset * exchange_unit_bytes,
                        static_cast<std::size_t>(s.count * exchange_unit_bytes));
            ++next;
          }
          EXPECT_EQ(next, receives.size());
        }
      }
      EXPECT_TRUE(gather(d, to_layout, to) == x) << (to_y_slabs ? "to y slabs" : "to z slabs");
    }
  }
}

TEST(SlabDecompositionPlans, RefusesAGpuCountThatDoesNotSplitTheVolume) {
  EXPECT_THROW(slab_decomposition({64, 64, 64}, 0, "hopper"), UsageError);
  EXPECT_THROW(slab_decomposition({64, 64, 64}, 16, "hopper"), UsageError);
  EXPECT_THROW(slab_decomposition({64, 64, 4}, 8, "hopper"), UsageError);
  EXPECT_THROW(slab_decomposition({64, 64, 64}, 2, "no-such-arch"), UsageError);
}

TEST(CpuSlabTransformUsage, RefusesWrongPointersMixedPlacementAndDigitReversedOrder) {
  const CpuSlabTransform fft(slab_decomposition({8, 8, 8}, 2, "hopper"));
  Slabs a = poisoned(fft.decomposition()), b = poisoned(fft.decomposition());
  EXPECT_THROW(fft.execute(inputs(a), {outputs(b)[0]}, {}), UsageError);
  EXPECT_THROW(fft.execute({inputs(a)[0], nullptr}, outputs(b), {}), UsageError);
  EXPECT_THROW(fft.execute(inputs(a), {outputs(a)[0], outputs(b)[1]}, {}), UsageError);
  EXPECT_THROW(fft.execute(inputs(a), outputs(b), {.order = Order::digit_reversed}), UsageError);
}

}  // namespace
}  // namespace fft3d
