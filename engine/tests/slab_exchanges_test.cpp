// The slab decomposition's layout arithmetic, exhaustively on small shapes: exchange blocks that match pairwise in
// order and count, cover every value once and land it where the y-slab (or z-slab) layout says; the steps of every
// flow; volume_index a bijection.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "slab_steps.hpp"

namespace fft3d {
namespace {

SlabDecomposition layout_only(const Extents& size, int gpus) {
  SlabDecomposition d;
  d.size = size;
  d.gpus = gpus;
  return d;
}

std::vector<ExchangeBlock> with_peer(const std::vector<ExchangeBlock>& blocks, int peer) {
  std::vector<ExchangeBlock> out;
  for (const ExchangeBlock& b : blocks)
    if (b.peer == peer) out.push_back(b);
  return out;
}

class SlabExchanges : public ::testing::TestWithParam<std::tuple<Extents, int>> {
 protected:
  SlabDecomposition d = layout_only(std::get<0>(GetParam()), std::get<1>(GetParam()));
};

TEST_P(SlabExchanges, EverySendMatchesTheReceiveOfTheSameIndexInCount) {
  for (bool to_y : {true, false})
    for (int g = 0; g < d.gpus; ++g)
      for (int h = 0; h < d.gpus; ++h) {
        const auto sends = with_peer(exchange_sends(d, g, to_y), h);
        const auto receives = with_peer(exchange_receives(d, h, to_y), g);
        ASSERT_EQ(sends.size(), receives.size()) << "GPU " << g << " to GPU " << h << (to_y ? " (to y)" : " (to z)");
        for (std::size_t i = 0; i < sends.size(); ++i) EXPECT_EQ(sends[i].count, receives[i].count) << "block " << i;
      }
}

TEST_P(SlabExchanges, EveryValueIsSentOnceAndReceivedOnce) {
  for (bool to_y : {true, false})
    for (int g = 0; g < d.gpus; ++g) {
      std::vector<int> sent(d.local_elements()), received(d.local_elements());
      for (const ExchangeBlock& b : exchange_sends(d, g, to_y))
        for (std::int64_t i = 0; i < b.count; ++i) ++sent.at(b.offset + i);
      for (const ExchangeBlock& b : exchange_receives(d, g, to_y))
        for (std::int64_t i = 0; i < b.count; ++i) ++received.at(b.offset + i);
      EXPECT_EQ(sent, std::vector<int>(d.local_elements(), 1)) << "GPU " << g;
      EXPECT_EQ(received, std::vector<int>(d.local_elements(), 1)) << "GPU " << g;
    }
}

// Value i of send k of g to h lands at value i of receive k of h from g: the same point of the whole volume in the
// sender's layout and in the receiver's.
TEST_P(SlabExchanges, EachValueLandsAtItsPlaceInTheOtherLayout) {
  for (bool to_y : {true, false}) {
    const SlabLayout source = to_y ? SlabLayout::natural : SlabLayout::y_slabs;
    const SlabLayout target = to_y ? SlabLayout::y_slabs : SlabLayout::natural;
    for (int g = 0; g < d.gpus; ++g)
      for (int h = 0; h < d.gpus; ++h) {
        const auto sends = with_peer(exchange_sends(d, g, to_y), h);
        const auto receives = with_peer(exchange_receives(d, h, to_y), g);
        for (std::size_t k = 0; k < sends.size(); ++k)
          for (std::int64_t i = 0; i < sends[k].count; ++i)
            ASSERT_EQ(volume_index(d, source, g, sends[k].offset + i), volume_index(d, target, h, receives[k].offset + i))
                << "GPU " << g << " to GPU " << h << " block " << k << " value " << i;
      }
  }
}

TEST_P(SlabExchanges, VolumeIndexIsABijectionInBothLayouts) {
  for (SlabLayout layout : {SlabLayout::natural, SlabLayout::y_slabs}) {
    std::vector<int> hits(d.size.elements());
    for (int g = 0; g < d.gpus; ++g)
      for (std::int64_t i = 0; i < d.local_elements(); ++i) ++hits.at(volume_index(d, layout, g, i));
    EXPECT_EQ(hits, std::vector<int>(d.size.elements(), 1));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SlabExchanges,
                         ::testing::Values(std::tuple{Extents{4, 4, 4}, 1}, std::tuple{Extents{8, 4, 8}, 2},
                                           std::tuple{Extents{2, 8, 16}, 4}, std::tuple{Extents{4, 8, 8}, 8},
                                           std::tuple{Extents{1, 16, 8}, 8}, std::tuple{Extents{16, 16, 32}, 4}));

TEST(SlabExchangeBlocks, OneBlockPerPlaneAndPeerAsTheDesignSays) {
  const SlabDecomposition d = layout_only({16, 8, 8}, 2);  // plane 128 values, block 64, 4 planes per GPU
  const auto sends = exchange_sends(d, 1, true);
  ASSERT_EQ(sends.size(), 8u);
  EXPECT_EQ(sends[0], (ExchangeBlock{.peer = 0, .offset = 0, .count = 64}));
  EXPECT_EQ(sends[1], (ExchangeBlock{.peer = 0, .offset = 128, .count = 64}));
  EXPECT_EQ(sends[4], (ExchangeBlock{.peer = 1, .offset = 64, .count = 64}));
  const auto receives = exchange_receives(d, 0, true);  // from GPU 1, plane z: at (1*4 + z)*64
  EXPECT_EQ(receives[4], (ExchangeBlock{.peer = 1, .offset = 256, .count = 64}));
  EXPECT_EQ(receives[5], (ExchangeBlock{.peer = 1, .offset = 320, .count = 64}));
}

TEST(SlabExchangeBlocks, OneGpuSendsItsWholeVolumeToItselfAsOneBlock) {
  const SlabDecomposition d = layout_only({8, 4, 16}, 1);
  for (bool to_y : {true, false}) {
    const std::vector<ExchangeBlock> whole{{.peer = 0, .offset = 0, .count = 8 * 4 * 16}};
    EXPECT_EQ(exchange_sends(d, 0, to_y), whole);
    EXPECT_EQ(exchange_receives(d, 0, to_y), whole);
  }
}

TEST(SlabExchangeBlocks, ExchangingThereAndBackRestoresEveryZSlab) {
  const SlabDecomposition d = layout_only({4, 8, 16}, 4);
  using Slabs = std::vector<std::vector<std::int64_t>>;
  const auto run = [&](const Slabs& from, bool to_y) {
    Slabs to(d.gpus, std::vector<std::int64_t>(d.local_elements(), -1));
    for (int g = 0; g < d.gpus; ++g)
      for (int h = 0; h < d.gpus; ++h) {
        const auto sends = with_peer(exchange_sends(d, g, to_y), h);
        const auto receives = with_peer(exchange_receives(d, h, to_y), g);
        for (std::size_t k = 0; k < sends.size(); ++k)
          for (std::int64_t i = 0; i < sends[k].count; ++i)
            to[h][receives[k].offset + i] = from[g][sends[k].offset + i];
      }
    return to;
  };
  Slabs z_slabs(d.gpus, std::vector<std::int64_t>(d.local_elements()));
  for (int g = 0; g < d.gpus; ++g)
    for (std::int64_t i = 0; i < d.local_elements(); ++i) z_slabs[g][i] = volume_index(d, SlabLayout::natural, g, i);
  EXPECT_EQ(run(run(z_slabs, true), false), z_slabs);
}

TEST(SlabSplit, RefusesGpuCountsOutOfRangeOrNotDividingNyAndNz) {
  EXPECT_NO_THROW(require_slab_split({64, 64, 64}, 1));
  EXPECT_NO_THROW(require_slab_split({4, 8, 8}, 8));
  EXPECT_THROW(require_slab_split({64, 64, 64}, 0), UsageError);
  EXPECT_THROW(require_slab_split({64, 64, 64}, max_slab_gpus + 1), UsageError);
  EXPECT_THROW(require_slab_split({64, 64, 32}, 3), UsageError);  // divides neither
  EXPECT_THROW(require_slab_split({64, 4, 64}, 8), UsageError);   // NY
  EXPECT_THROW(require_slab_split({64, 64, 4}, 8), UsageError);   // NZ
  try {
    require_slab_split({64, 64, 4}, 8);
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("64x64x4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("8 GPUs"), std::string::npos) << e.what();
  }
}

// The flows' contract (slab_steps.hpp @post), for every direction, layout and placement.
TEST(SlabSteps, EveryFlowChainsItsBuffersEndsInTheOutputAndNeverWritesTheInput) {
  for (Direction direction : {Direction::forward, Direction::inverse})
    for (SlabLayout layout : {SlabLayout::natural, SlabLayout::y_slabs})
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(to_string(direction) + (layout == SlabLayout::natural ? " natural" : " y slabs") +
                     (in_place ? " in place" : " out of place"));
        const std::vector<SlabStep> steps = slab_steps(direction, layout, in_place);
        ASSERT_FALSE(steps.empty());
        EXPECT_EQ(steps.front().from, in_place ? SlabBuffer::out : SlabBuffer::in);
        EXPECT_EQ(steps.back().to, SlabBuffer::out);
        for (std::size_t i = 0; i < steps.size(); ++i) {
          EXPECT_NE(steps[i].to, SlabBuffer::in) << "step " << i;
          if (in_place) {
            EXPECT_NE(steps[i].from, SlabBuffer::in) << "step " << i;
          }
          if (i > 0) {
            EXPECT_EQ(steps[i].from, steps[i - 1].to) << "step " << i;
          }
          const bool exchange = steps[i].kind == SlabStepKind::to_y_slabs || steps[i].kind == SlabStepKind::to_z_slabs;
          if (exchange) {
            EXPECT_NE(steps[i].from, steps[i].to) << "step " << i;
          }
        }
      }
}

// Forward: slab, to y slabs, column, and back for natural order; inverse: the mirror.
TEST(SlabSteps, TheStagesRunInTheDecompositionsOrder) {
  using enum SlabStepKind;
  const auto kinds = [](Direction direction, SlabLayout layout) {
    std::vector<SlabStepKind> out;
    for (const SlabStep& s : slab_steps(direction, layout, false)) out.push_back(s.kind);
    return out;
  };
  EXPECT_EQ(kinds(Direction::forward, SlabLayout::natural),
            (std::vector<SlabStepKind>{slab, to_y_slabs, column, to_z_slabs}));
  EXPECT_EQ(kinds(Direction::forward, SlabLayout::y_slabs), (std::vector<SlabStepKind>{slab, to_y_slabs, column}));
  EXPECT_EQ(kinds(Direction::inverse, SlabLayout::natural),
            (std::vector<SlabStepKind>{to_y_slabs, column, to_z_slabs, slab}));
  EXPECT_EQ(kinds(Direction::inverse, SlabLayout::y_slabs), (std::vector<SlabStepKind>{column, to_z_slabs, slab}));
}

}  // namespace
}  // namespace fft3d
