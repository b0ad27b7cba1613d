// Rule: the writer-order exchange of a spread tile's last pass (tile_maps.hpp, WriterExchange). The last pass of a
// split stage writes each group in natural order; where that order crosses the tile's parts, natural-order words
// put a warp's 32 outputs k in 32 scattered words of another block, one remote store each. Laid out in the
// writers' order instead, the receiving part takes a warp's outputs k as 32 consecutive words (one run), and the
// store sweep, which reads only its own part, finds element e at exchange_word(e).
#include <fft3d/index_maps.hpp>

#include "lowering/tile_maps.hpp"

namespace fft3d::tile {
namespace {

// The swizzle that spreads the sweep's first conflict group over distinct banks: the word bits that vary across
// the group at or above the bank bits move onto the bank bits that do not vary. It reads only bits above the bank
// bits, so a warp of writers (consecutive b_in_part, the low word bits) keeps one run, and it is its own inverse
// on those bits: the map is a bijection of each run of `banks` words.
std::vector<std::pair<int, int>> sweep_swizzle(const KernelSpec& spec, const WriterExchange& x) {
  const int bank_bits = log2_exact(spec.shared.banks);
  const std::int64_t group = std::min<std::int64_t>(spec.conflict_group_threads, spec.part_elements());
  const std::int64_t first = exchange_word(spec, x, part_element(spec, 0, 0));
  std::int64_t varying = 0;
  for (std::int64_t t = 1; t < group; ++t) varying |= exchange_word(spec, x, part_element(spec, 0, t)) ^ first;
  std::vector<int> high, free_bank_bits;
  for (int bit = 0; bit < 63; ++bit) {
    const bool varies = (varying >> bit) & 1;
    if (bit < bank_bits && !varies) free_bank_bits.push_back(bit);
    if (bit >= bank_bits && varies) high.push_back(bit);
  }
  std::vector<std::pair<int, int>> swizzle;
  for (std::size_t i = 0; i < high.size() && i < free_bank_bits.size(); ++i)
    swizzle.emplace_back(high[i], free_bank_bits[i]);
  return swizzle;
}

std::int64_t swizzled(const WriterExchange& x, std::int64_t word) {
  std::int64_t out = word;
  for (const auto& [from, to] : x.swizzle) out ^= ((word >> from) & 1) << to;
  return out;
}

}  // namespace

std::optional<WriterExchange> writer_exchange(const KernelSpec& spec) {
  if (spec.role != KernelRole::tile || spec.real.kind != TransformKind::c2c || spec.tile_blocks == 1 ||
      spec.store_in_last_pass || spec.stages.empty() || !spec.stages.back().is_split() || !bit_fields(spec) ||
      exchanges_across_cluster(spec) || spec.part_elements() % spec.shared.banks != 0)
    return std::nullopt;
  for (const AxisTile& axis : spec.axes)
    if (!axis.reversal_radices.empty()) return std::nullopt;
  const TileStage& stage = spec.stages.back();
  const SplitPass last = split_passes(stage).back();
  if (!pass_crosses_parts(spec, stage, last) || crosses_parts(spec, last.element_step, last.radix))
    return std::nullopt;
  WriterExchange x;
  x.stage = spec.stages.size() - 1;
  x.step = stage.element_step;
  x.radix = stage.sub.radix;
  x.last_radix = last.radix;
  const std::int64_t k_unit = x.step * (x.radix / x.last_radix);  // the element stride of output k's digit
  if (spec.part_stride % k_unit != 0) return std::nullopt;
  x.k_run = spec.part_stride / k_unit;
  if (x.last_radix % (x.k_run * spec.tile_blocks) != 0) return std::nullopt;
  x.butterfly_part_stride = part_butterfly_stride(spec, last.element_step, last.radix);
  x.swizzle = sweep_swizzle(spec, x);
  return x;
}

std::int64_t writer_exchange_part(const KernelSpec& spec, const WriterExchange& x, std::int64_t k) {
  return k / x.k_run % spec.tile_blocks;
}

std::int64_t writer_exchange_word(const KernelSpec& spec, const WriterExchange& x, std::int64_t part,
                                  std::int64_t b_in_part, std::int64_t k) {
  const std::int64_t blocks = spec.tile_blocks;
  const std::int64_t k_in_part = k % x.k_run + k / (x.k_run * blocks) * x.k_run;  // < last_radix / blocks
  const std::int64_t butterflies = spec.part_elements() / x.last_radix;
  return swizzled(x, (part * (x.last_radix / blocks) + k_in_part) * butterflies + b_in_part);
}

std::int64_t exchange_word(const KernelSpec& spec, const WriterExchange& x, std::int64_t e) {
  const TileStage& stage = spec.stages[x.stage];
  const std::int64_t f = group_index(stage, e);
  const std::int64_t position = digit_reversed_position(f, stage.split_radices);  // q + k (split_output_frequency)
  const std::int64_t k = position % x.last_radix;
  const std::int64_t base = e + (position - k - f) * x.step;
  const std::int64_t b = base % x.step + base / (x.step * x.last_radix) * x.step;  // butterfly_base's inverse
  const std::int64_t s = x.butterfly_part_stride, blocks = spec.tile_blocks;
  return writer_exchange_word(spec, x, b / s % blocks, b % s + b / (s * blocks) * s, k);
}

SharedAccesses writer_exchange_accesses(const KernelSpec& spec, const WriterExchange& x) {
  SharedAccesses out;
  out.phases = {"exchange stores", "store from exchange"};
  const std::int64_t butterflies = spec.part_elements() / x.last_radix;
  for (std::int64_t first = 0; first < butterflies; first += spec.threads)
    for (std::int64_t k = 0; k < x.last_radix; ++k) {
      AccessInstruction access{0, std::vector<std::int64_t>(spec.threads, -1)};
      for (int t = 0; t < spec.threads; ++t)
        if (first + t < butterflies) access.element[t] = writer_exchange_word(spec, x, 0, first + t, k);
      out.instructions.push_back(std::move(access));
    }
  for (std::int64_t first = 0; first < spec.part_elements(); first += spec.threads) {
    AccessInstruction access{1, std::vector<std::int64_t>(spec.threads, -1)};
    for (int t = 0; t < spec.threads; ++t)
      if (first + t < spec.part_elements())
        access.element[t] = exchange_word(spec, x, part_element(spec, 0, first + t));
    out.instructions.push_back(std::move(access));
  }
  return out;
}

}  // namespace fft3d::tile
