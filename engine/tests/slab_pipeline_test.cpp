// How a one-process multi-GPU run chunks its work (fft3d/slab_pipeline.hpp): the counts MultiGpuTransform takes for
// the sizes measured in docs/performance.md, the floors, the peer stores' cap and the caller's min_chunk_bytes.
#include "fft3d/slab_pipeline.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "fft3d/checks.hpp"

namespace fft3d {
namespace {

constexpr std::int64_t mib = std::int64_t{1} << 20;

// The decomposition in exchange units, as the schedule counts it.
SlabDecomposition units_of(const Extents& size, int gpus, Precision precision = Precision::fp32,
                           TransformKind kind = TransformKind::c2c) {
  return in_exchange_units(slab_decomposition(size, gpus, "hopper", precision, kind));
}

TEST(SlabPipeline, SlabChunksOfAtLeast64MiBUpToEight) {
  EXPECT_EQ(slab_chunk_planes(units_of({1024, 1024, 1024}, 2)), 64);  // 4 GiB a GPU: 8 chunks of 64 planes
  EXPECT_EQ(slab_chunk_planes(units_of({512, 512, 512}, 2)), 32);     // 512 MiB: 8 chunks of 64 MiB
  EXPECT_EQ(slab_chunk_planes(units_of({256, 256, 256}, 2)), 128);    // 64 MiB: one chunk, the whole slab
  EXPECT_EQ(slab_chunk_planes(units_of({256, 256, 256}, 2), 4 * mib), 16);  // the caller's floor; still 8 chunks
}

TEST(SlabPipeline, RowChunksOfAtLeast256MiBInTheNaturalLayoutOnly) {
  EXPECT_EQ(column_row_chunks(units_of({1024, 1024, 1024}, 2), SlabLayout::natural, false), 8);
  EXPECT_EQ(column_row_chunks(units_of({512, 512, 512}, 2), SlabLayout::natural, false), 2);
  EXPECT_EQ(column_row_chunks(units_of({512, 512, 512}, 1), SlabLayout::natural, false), 4);
  EXPECT_EQ(column_row_chunks(units_of({256, 256, 256}, 2), SlabLayout::natural, false), 1);
  EXPECT_EQ(column_row_chunks(units_of({1024, 1024, 1024}, 2), SlabLayout::y_slabs, false), 1);
  // fp64 counts twice the bytes: 512³ is 1 GiB a GPU on 2 GPUs.
  EXPECT_EQ(column_row_chunks(units_of({512, 512, 512}, 2, Precision::fp64), SlabLayout::natural, false), 4);
  // A real transform's half spectrum: 513 * 1024 * 512 values a GPU at 1024³ on 2 GPUs, 2.15 GB.
  EXPECT_EQ(column_row_chunks(units_of({1024, 1024, 1024}, 2, Precision::fp32, TransformKind::r2c),
                              SlabLayout::natural, false),
            8);
}

TEST(SlabPipeline, PeerStoresTakeAtMostEightPiecesASenderInRowChunks) {
  const SlabDecomposition four = units_of({1024, 1024, 1024}, 4);
  EXPECT_EQ(column_row_chunks(four, SlabLayout::natural, false), 8);
  EXPECT_EQ(column_row_chunks(four, SlabLayout::natural, true), 2);  // 2 row chunks x 4 destinations
  EXPECT_EQ(column_row_chunks(units_of({2048, 2048, 2048}, 8), SlabLayout::natural, true), 1);
}

TEST(SlabPipeline, RowChunksDivideTheRowsAndHonourTheCallersFloor) {
  EXPECT_EQ(column_row_chunks(units_of({64, 64, 64}, 2), SlabLayout::natural, false, 4096), 8);
  EXPECT_EQ(column_row_chunks(units_of({64, 24, 64}, 2), SlabLayout::natural, false, 4096), 4);  // 12 rows
  EXPECT_EQ(column_row_chunks(units_of({64, 64, 64}, 2), SlabLayout::natural, true, 4096), 4);
}

}  // namespace
}  // namespace fft3d

namespace fft3d {
namespace {

TEST(SlabPipeline, OneProcessTakesCopyEnginesOnTwoGpusPeerStoresOnMoreAndNcclWhole) {
  const SlabDecomposition two = units_of({1024, 1024, 1024}, 2), four = units_of({1024, 1024, 1024}, 4);
  const SlabPipeline on_two = one_process_pipeline(two, SlabLayout::natural, SlabExchange::automatic);
  EXPECT_EQ(on_two.exchange, SlabExchange::copy_engines);
  EXPECT_EQ(on_two.chunk_planes, 64);
  EXPECT_EQ(on_two.row_chunks, 8);
  const SlabPipeline on_four = one_process_pipeline(four, SlabLayout::natural, SlabExchange::automatic);
  EXPECT_EQ(on_four.exchange, SlabExchange::peer_stores);
  EXPECT_EQ(on_four.row_chunks, 2);
  EXPECT_EQ(one_process_pipeline(two, SlabLayout::natural, SlabExchange::nccl).row_chunks, 1);
  EXPECT_EQ(one_process_pipeline(two, SlabLayout::y_slabs, SlabExchange::copy_engines).row_chunks, 1);
}

}  // namespace
}  // namespace fft3d

namespace fft3d {
namespace {

TEST(SlabPipeline, TheSlabPlansLastKernelRunsApartOnEachGpusRowsWhereItHoldsEveryXStage) {
  const SlabDecomposition d = slab_decomposition({1024, 1024, 1024}, 2, "hopper");
  ASSERT_EQ(d.slab.kernels.size(), 2u);  // {Y 1024} {X 1024}
  const std::optional<SlabLastKernelApart> apart = slab_last_kernel_apart(d, 64);
  ASSERT_TRUE(apart);
  EXPECT_EQ(apart->y_part.size, (Extents{1024, 1024, 64}));
  EXPECT_EQ(apart->y_part.axes, std::vector<Axis>{Axis::y});
  EXPECT_EQ(apart->y_part.batch, 1);
  for (const Plan* x : {&apart->x_own, &apart->x_peers}) {
    EXPECT_EQ(x->size, (Extents{1024, 512, 1}));  // one GPU's rows of a plane, a volume
    EXPECT_EQ(x->axes, std::vector<Axis>{Axis::x});
    EXPECT_EQ(x->batch, 64);                      // the chunk's planes
    EXPECT_EQ(stages_of(*x, Axis::x), stages_of(d.slab, Axis::x));
    EXPECT_NO_THROW(require_legal(*x));
  }
  // Together the parts run the slab plan's stages, each part a legal plan of its own.
  EXPECT_EQ(stages_of(apart->y_part, Axis::y), stages_of(d.slab, Axis::y));
  EXPECT_NO_THROW(require_legal(apart->y_part));
  EXPECT_EQ(slab_last_kernel_apart(slab_decomposition({1024, 1024, 1024}, 2, "hopper", Precision::fp64), 32)
                ->x_own.precision,
            Precision::fp64);
}

TEST(SlabPipeline, InRowChunksTheOwnRowsRunAChunkAtATime) {
  const SlabDecomposition d = slab_decomposition({1024, 1024, 1024}, 2, "hopper");
  const std::optional<SlabLastKernelApart> apart = slab_last_kernel_apart(d, 64, 8);
  ASSERT_TRUE(apart);
  EXPECT_EQ(apart->x_own.size, (Extents{1024, 64, 1}));    // 512 rows of a GPU in 8 row chunks
  EXPECT_EQ(apart->x_peers.size, (Extents{1024, 512, 1}));  // a peer's rows whole, in place
  EXPECT_FALSE(slab_last_kernel_apart(d, 64, 3));  // 3 row chunks do not divide 512 rows
}

TEST(SlabPipeline, NoSlabPlanRunsApartWhereXStagesShareAKernelWithYOrTheTransformIsReal) {
  // 64³ on 2 GPUs: one kernel {X 64, Y 64}.
  EXPECT_FALSE(slab_last_kernel_apart(slab_decomposition({64, 64, 64}, 2, "hopper"), 32));
  EXPECT_FALSE(slab_last_kernel_apart(
      slab_decomposition({1024, 1024, 1024}, 2, "hopper", Precision::fp32, TransformKind::r2c), 64));
  SlabDecomposition x_first = slab_decomposition({1024, 1024, 1024}, 2, "hopper");
  std::swap(x_first.slab.kernels.front(), x_first.slab.kernels.back());  // {X 1024} {Y 1024}
  EXPECT_FALSE(slab_last_kernel_apart(x_first, 64));
}

}  // namespace
}  // namespace fft3d
