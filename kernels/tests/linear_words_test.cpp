// The premises of the emitter's butterfly addressing (emit_parts.hpp: declare_butterfly_word, write_global_store_at).
// With an identity or XOR-swizzled layout, the distributed-shared-memory word of tile element base + k*element_step
// (base with a zero k field, as every butterfly's first element has) is the base's word XOR the word of
// k*element_step, so the emitter declares the base's word once and takes one XOR per k. The paddings are not linear,
// and the emitter keeps their full form. And the global offset the last pass stores output k to is output 0's plus a
// constant per value of the flags, whatever the block.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "lowering/tile_maps.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

struct Pass {
  std::int64_t element_step;
  std::int64_t radix;
};

std::vector<Pass> butterfly_passes(const TileStage& stage) {
  if (!stage.is_split()) return {{stage.element_step, stage.sub.radix}};
  std::vector<Pass> passes;
  for (const tile::SplitPass& pass : tile::split_passes(stage)) passes.push_back({pass.element_step, pass.radix});
  return passes;
}

// The word cluster_word(e) names: the part's rank above bit 24, the word in that part below.
std::int64_t cluster_word(const KernelSpec& spec, std::int64_t e) {
  return (tile::element_part(spec, e) << 24) | tile::shared_address(spec.shared, tile::part_local_element(spec, e));
}

TEST(LinearTileWords, AButterflysWordsAreItsBaseWordXorAConstantInEveryLayoutButThePaddings) {
  std::vector<NamedPlan> plans = shipped_plans();
  for (std::vector<NamedPlan> more : {distributed_tile_plans(), gpu_random_plans()})
    plans.insert(plans.end(), more.begin(), more.end());
  std::int64_t checked = 0, spread = 0;
  for (const NamedPlan& named : plans) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      if (spec.shared.kind == SharedLayoutKind::pad) continue;
      spread += spec.tile_blocks > 1;
      for (const TileStage& stage : spec.stages) {
        for (const Pass& pass : butterfly_passes(stage)) {
          const std::int64_t butterflies = spec.tile_elements / pass.radix;
          const std::int64_t stride = std::max<std::int64_t>(1, butterflies / 257);
          for (std::int64_t b = 0; b < butterflies; b += stride) {
            const std::int64_t base = tile::butterfly_base(pass.element_step, pass.radix, b);
            for (std::int64_t k = 0; k < pass.radix; ++k) {
              const std::int64_t offset = k * pass.element_step;
              ASSERT_EQ(cluster_word(spec, base + offset), cluster_word(spec, base) ^ cluster_word(spec, offset))
                  << named.name << " " << spec.entry_name() << " step " << pass.element_step << " radix "
                  << pass.radix << " base " << base << " k " << k;
              ++checked;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(spread, 5);  // the spread tiles, whose crossing passes the premise matters most for
}

TEST(LinearGlobalStores, OutputKsOffsetIsOutputZerosPlusAConstantInEveryBlockAndOrder) {
  std::vector<NamedPlan> plans = shipped_plans();
  for (std::vector<NamedPlan> more : {distributed_tile_plans(), gpu_random_plans()})
    plans.insert(plans.end(), more.begin(), more.end());
  std::int64_t checked = 0;
  for (const NamedPlan& named : plans) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      if (!spec.store_in_last_pass || spec.stages.empty()) continue;
      ASSERT_EQ(tile::block_origin(spec, 0), (std::array<std::int64_t, 3>{0, 0, 0})) << named.name;
      const tile::ButterflyPass pass = tile::last_pass(spec);
      const std::int64_t butterflies = spec.tile_elements / pass.radix;
      const std::int64_t blocks = spec.tiles;
      for (std::int64_t block : {std::int64_t{0}, std::int64_t{1}, blocks / 3, blocks - 1}) {
        if (block < 0 || block >= blocks) continue;
        for (std::int64_t b = 0; b < butterflies; b += std::max<std::int64_t>(1, butterflies / 97)) {
          const std::int64_t base = tile::butterfly_base(pass.element_step, pass.radix, b);
          const std::int64_t first = tile::last_pass_output_element(spec, base, 0);
          for (std::int64_t m = 0; m < pass.radix; ++m) {
            const std::int64_t constant = tile::last_pass_output_element(spec, 0, m);
            const std::int64_t element = tile::last_pass_output_element(spec, base, m);
            ASSERT_EQ(first & constant, 0) << named.name << " " << spec.entry_name() << " base " << base;
            ASSERT_EQ(element, first | constant) << named.name << " " << spec.entry_name() << " base " << base;
            for (bool natural : {false, true})
              for (bool sorted : {false, true})
                ASSERT_EQ(tile::last_pass_store_offset(spec, block, element, natural, sorted),
                          tile::last_pass_store_offset(spec, block, first, natural, sorted) +
                              tile::last_pass_store_offset(spec, 0, constant, natural, sorted))
                    << named.name << " " << spec.entry_name() << " block " << block << " base " << base << " m "
                    << m << " natural " << natural << " sorted " << sorted;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

// Why the emitter leaves the paddings out: e + (e >> shift) carries, so the same check fails on a padded layout.
TEST(LinearTileWords, APaddedLayoutIsNotLinear) {
  const std::optional<LoweredPlan> lowered = lower_if_it_fits(shipped_plans().front());
  ASSERT_TRUE(lowered);
  KernelSpec spec = lowered->kernels.front();
  spec.shared.kind = SharedLayoutKind::pad;
  spec.shared.shift = 5;
  const std::int64_t base = tile::butterfly_base(32, 2, 1);  // element 1; its partner is element 33
  EXPECT_NE(cluster_word(spec, base + 32), cluster_word(spec, base) ^ cluster_word(spec, 32));
}

}  // namespace
}  // namespace fft3d::testing
