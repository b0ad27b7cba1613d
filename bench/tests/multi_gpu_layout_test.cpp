// The pieces of slab_pieces (no GPU): every element of the volume lies in exactly one piece of one GPU, each GPU's
// pieces fill its buffer in order, and the y-slab pieces put (x, y, z) where the y slabs say; and the multi-GPU
// CSV writes no figure for a row that was not timed.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "bench/multi_gpu_bench.hpp"
#include "bench/multi_gpu_layout.hpp"

namespace fft3d::bench {
namespace {

const std::vector<Extents> shapes = {{4, 4, 4}, {8, 4, 2}, {2, 8, 8}, {6, 12, 4}, {1, 8, 16}};

TEST(SlabPieces, CoverTheVolumeOnceAndEachBufferInOrder) {
  for (const Extents& size : shapes)
    for (int gpus : {1, 2, 4})
      for (SlabLayout layout : {SlabLayout::natural, SlabLayout::y_slabs}) {
        if (size.ny % gpus != 0 || size.nz % gpus != 0) continue;
        std::vector<int> seen(static_cast<std::size_t>(size.elements()), 0);
        for (int g = 0; g < gpus; ++g) {
          std::int64_t next_local = 0;
          for (const SlabPiece& p : slab_pieces(size, gpus, g, layout)) {
            EXPECT_EQ(p.local_offset, next_local);
            next_local += p.count;
            for (std::int64_t i = 0; i < p.count; ++i) ++seen[static_cast<std::size_t>(p.natural_offset + i)];
          }
          EXPECT_EQ(next_local, size.elements() / gpus);
        }
        for (int count : seen) ASSERT_EQ(count, 1) << to_string(size) << " over " << gpus;
      }
}

TEST(SlabPieces, YSlabElementLiesWhereTheYSlabSays) {
  const Extents size{6, 12, 4};
  const int gpus = 3;
  const std::int64_t rows = size.ny / gpus;
  for (int g = 0; g < gpus; ++g)
    for (const SlabPiece& p : slab_pieces(size, gpus, g, SlabLayout::y_slabs))
      for (std::int64_t i = 0; i < p.count; ++i) {
        const std::int64_t local = p.local_offset + i, natural = p.natural_offset + i;
        const std::int64_t x = local % size.nx, y = g * rows + local / size.nx % rows, z = local / (size.nx * rows);
        EXPECT_EQ(natural, x + size.nx * (y + size.ny * z));
      }
}

TEST(MultiGpuCsv, UntimedRowWritesNoFigure) {
  MultiGpuRun run;
  run.gpus = 2;
  MultiGpuRow failed;
  failed.library = "cufftXt";
  failed.variant = "in place, its own format";
  failed.size = {2048, 2048, 2048};
  failed.gpus = 2;
  failed.failure = "cufftMakePlan3d: CUFFT_INTERNAL_ERROR";
  failed.time.median_ms = 1;
  run.rows.push_back(failed);
  std::ostringstream csv;
  write_multi_gpu_csv(run, csv);
  const std::string text = csv.str();
  const std::string line = text.substr(text.find('\n') + 1);
  EXPECT_NE(line.find(",0,,,,0,,,,"), std::string::npos) << line;
  EXPECT_NE(line.find("CUFFT_INTERNAL_ERROR"), std::string::npos);
}

}  // namespace
}  // namespace fft3d::bench
