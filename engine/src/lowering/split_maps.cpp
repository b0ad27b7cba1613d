// The index maps of a split stage's passes (contracts in tile_maps.hpp). The passes are the DIF stages of an
// r-point line, so their order and twiddles follow the plan language's own rule (docs/plan-language.md) on that line,
// and the group's outputs come out where fft3d::digit_reversed_position puts them; the last pass undoes that in-group.
#include "lowering/tile_maps.hpp"
#include "fft3d/index_maps.hpp"

namespace fft3d::tile {

std::vector<SplitPass> split_passes(const TileStage& stage) {
  std::vector<SplitPass> passes;
  std::int64_t local_span = stage.sub.radix;
  for (std::size_t i = 0; i < stage.split_radices.size(); ++i) {
    const std::int64_t radix = stage.split_radices[i];
    const std::int64_t local_stride = local_span / radix;
    passes.push_back({radix, local_stride, local_span, stage.element_step * local_stride,
                      i + 1 == stage.split_radices.size()});
    local_span = local_stride;
  }
  return passes;
}

std::int64_t group_index(const TileStage& stage, std::int64_t e) {
  return (e / stage.element_step) % stage.sub.radix;
}

std::int64_t split_output_frequency(const TileStage& stage, std::int64_t base, std::int64_t m) {
  return frequency_at_position(group_index(stage, base) + m, stage.split_radices);
}

std::int64_t split_output_element(const TileStage& stage, std::int64_t base, std::int64_t m) {
  const std::int64_t group_base = base - group_index(stage, base) * stage.element_step;
  return group_base + split_output_frequency(stage, base, m) * stage.element_step;
}

}  // namespace fft3d::tile
