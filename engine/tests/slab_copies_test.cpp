// The exchanges of the slab decomposition as strided copies: every value lands where the y-slab layout says, and
// the copies back restore the z slabs exactly.
#include "slab_copies.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace fft3d {
namespace {

using Slabs = std::vector<std::vector<std::int64_t>>;

// Value (x, y, z) of the whole volume is its index x + NX*(y + NY*z): each GPU's z slab holds its planes.
Slabs numbered_z_slabs(const SlabDecomposition& d) {
  const std::int64_t local = d.size.elements() / d.gpus;
  Slabs slabs(d.gpus, std::vector<std::int64_t>(local));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t i = 0; i < local; ++i) slabs[g][i] = g * local + i;
  return slabs;
}

std::vector<const std::int64_t*> sources(const Slabs& slabs) {
  std::vector<const std::int64_t*> out;
  for (const auto& s : slabs) out.push_back(s.data());
  return out;
}

std::vector<std::int64_t*> targets(Slabs& slabs) {
  std::vector<std::int64_t*> out;
  for (auto& s : slabs) out.push_back(s.data());
  return out;
}

Slabs to_y_slabs(const SlabDecomposition& d, const Slabs& z_slabs, std::int64_t chunk) {
  Slabs y_slabs(d.gpus, std::vector<std::int64_t>(z_slabs[0].size(), -1));
  const std::int64_t planes = d.size.nz / d.gpus;
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t z0 = 0; z0 < planes; z0 += chunk)
      run_copies(to_y_slab_copies(d, g, z0, z0 + chunk), sources(z_slabs), targets(y_slabs));
  return y_slabs;
}

class SlabCopies : public ::testing::TestWithParam<std::tuple<Extents, int, std::int64_t>> {};

TEST_P(SlabCopies, YSlabsHoldTheirRowsOfEveryPlaneAndTheCopiesBackRestoreTheZSlabs) {
  const auto [size, gpus, chunk] = GetParam();
  SlabDecomposition d;
  d.size = size;
  d.gpus = gpus;
  const Slabs z_slabs = numbered_z_slabs(d);
  const Slabs y_slabs = to_y_slabs(d, z_slabs, chunk);
  const std::int64_t rows = size.ny / gpus;
  for (int h = 0; h < gpus; ++h)
    for (std::int64_t z = 0; z < size.nz; ++z)
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t x = 0; x < size.nx; ++x)
          ASSERT_EQ(y_slabs[h][x + size.nx * (r + rows * z)], x + size.nx * (h * rows + r + size.ny * z))
              << "GPU " << h << " x " << x << " row " << r << " z " << z;
  Slabs back(gpus, std::vector<std::int64_t>(z_slabs[0].size(), -1));
  const std::int64_t planes = size.nz / gpus;
  for (int h = 0; h < gpus; ++h)
    for (std::int64_t z0 = 0; z0 < planes; z0 += chunk)
      run_copies(to_z_slab_copies(d, h, z0, z0 + chunk), sources(y_slabs), targets(back));
  EXPECT_EQ(back, z_slabs);
}

TEST(SlabCopiesShape, EachCopyIsOnePlaneBlockPerPlaneAndPairOfGpus) {
  SlabDecomposition d;
  d.size = {16, 8, 8};
  d.gpus = 2;
  const std::vector<PlaneCopy> copies = to_y_slab_copies(d, 1, 2, 4);
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0], (PlaneCopy{.from = 1, .to = 0, .src_offset = 2 * 128, .src_pitch = 128,
                                  .dst_offset = (4 + 2) * 64, .dst_pitch = 64, .width = 64, .height = 2}));
  EXPECT_EQ(copies[1].src_offset, 2 * 128 + 64);
}

class SlabCopiesInRowChunks : public ::testing::TestWithParam<std::tuple<Extents, int, std::int64_t>> {};

// The y slabs held chunk-major: chunk c of GPU h, an (NX*R/C, 1, NZ) volume, holds rows [c*R/C, (c+1)*R/C) of h's
// y slab in every plane; the copies back, chunk by chunk, restore the z slabs.
TEST_P(SlabCopiesInRowChunks, EachChunkHoldsItsRowsOfEveryPlaneAndTheCopiesBackRestoreTheZSlabs) {
  const auto [size, gpus, row_chunks] = GetParam();
  SlabDecomposition d;
  d.size = size;
  d.gpus = gpus;
  const Slabs z_slabs = numbered_z_slabs(d);
  const std::int64_t rows = size.ny / gpus, planes = size.nz / gpus, chunk_rows = rows / row_chunks;
  Slabs y_slabs(gpus, std::vector<std::int64_t>(z_slabs[0].size(), -1));
  for (int g = 0; g < gpus; ++g)
    run_copies(in_row_chunks(d, to_y_slab_copies(d, g, 0, planes), row_chunks, true), sources(z_slabs),
               targets(y_slabs));
  for (int h = 0; h < gpus; ++h)
    for (std::int64_t c = 0; c < row_chunks; ++c)
      for (std::int64_t z = 0; z < size.nz; ++z)
        for (std::int64_t r = 0; r < chunk_rows; ++r)
          for (std::int64_t x = 0; x < size.nx; ++x) {
            const std::int64_t y = h * rows + c * chunk_rows + r;
            ASSERT_EQ(y_slabs[h][x + size.nx * (r + chunk_rows * (z + size.nz * c))], x + size.nx * (y + size.ny * z))
                << "GPU " << h << " chunk " << c << " x " << x << " row " << r << " z " << z;
          }
  Slabs back(gpus, std::vector<std::int64_t>(z_slabs[0].size(), -1));
  for (std::int64_t c = 0; c < row_chunks; ++c)
    for (int h = 0; h < gpus; ++h)
      run_copies(in_row_chunks(d, to_z_slab_copies(d, h, 0, planes), row_chunks, false, c), sources(y_slabs),
                 targets(back));
  EXPECT_EQ(back, z_slabs);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SlabCopiesInRowChunks,
                         ::testing::Values(std::tuple{Extents{4, 4, 4}, 1, std::int64_t{2}},
                                           std::tuple{Extents{8, 8, 8}, 2, std::int64_t{4}},
                                           std::tuple{Extents{6, 8, 8}, 4, std::int64_t{2}},
                                           std::tuple{Extents{4, 16, 8}, 2, std::int64_t{1}},
                                           std::tuple{Extents{3, 16, 32}, 8, std::int64_t{2}}));

INSTANTIATE_TEST_SUITE_P(Shapes, SlabCopies,
                         ::testing::Values(std::tuple{Extents{4, 4, 4}, 1, std::int64_t{2}},
                                           std::tuple{Extents{8, 4, 8}, 2, std::int64_t{1}},
                                           std::tuple{Extents{8, 8, 8}, 4, std::int64_t{2}},
                                           std::tuple{Extents{4, 16, 8}, 8, std::int64_t{1}},
                                           std::tuple{Extents{16, 8, 32}, 8, std::int64_t{4}}));

}  // namespace
}  // namespace fft3d
