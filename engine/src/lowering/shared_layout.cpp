// Rule: the shared-memory layout. Real and imaginary parts live in two word arrays (paper §4.3.3); the address
// map is chosen among padding and XOR swizzles by the bank-conflict checker itself: fewest conflicts in the
// compute phases first, then in the natural-order store, then fewest words; a layout over the profile's shared
// memory loses to any that fits.
#include <tuple>

#include "fft3d/cuda_tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

// The words a layout spans over elements [0, elements): closed forms where the map is monotone (identity, pad) or
// a bijection of each run of `banks` words (xor_rows over whole runs); a scan otherwise. The search calls this for
// every candidate, and a scan of a 128 KB tile per candidate dominated lowering time.
std::int64_t words_of(const SharedLayout& layout, std::int64_t elements) {
  if (layout.kind == SharedLayoutKind::identity) return elements;
  if (layout.kind == SharedLayoutKind::pad) return tile::shared_address(layout, elements - 1) + 1;
  if (elements % layout.banks == 0) return elements;
  std::int64_t last = 0;
  for (std::int64_t e = 0; e < elements; ++e) last = std::max(last, tile::shared_address(layout, e));
  return last + 1;
}

// Identity first, then the XOR swizzles (no extra words), then the paddings, then two-field swizzles: the search
// stops at the first layout that is conflict-free everywhere and costs no extra words, since nothing can beat it.
std::vector<SharedLayout> candidates(const ArchProfile& profile, std::int64_t elements) {
  const int banks = profile.shared_memory_banks;
  const int bank_bits = tile::log2_exact(banks);
  std::vector<SharedLayout> layouts{{SharedLayoutKind::identity, 0, banks, 0}};
  // XOR of higher index bits into the bank bits: a linear bijection within each run of `banks` words (any
  // shift >= 1), so it costs no words; the shift decides which index bits stagger the banks.
  for (int shift = 1; (std::int64_t{1} << shift) < elements; ++shift)
    layouts.push_back({SharedLayoutKind::xor_rows, shift, banks, 0});
  for (int shift = bank_bits - 2; shift <= bank_bits + 4; ++shift) {
    if (shift < 1 || (std::int64_t{1} << shift) >= elements) continue;
    layouts.push_back({SharedLayoutKind::pad, shift, banks, 0});
  }
  // Two XORed fields (still a bijection: I + a strictly bit-lowering linear map), last since they cost the most
  // checking: needed where the passes of a split stage stride along one index field and its permuting writes along
  // another. The fields that help start within the bank bits of the index (measured: (1,3), (1,4), (3,4)), which
  // keeps the search to about 30 layouts.
  for (int shift = 1; shift <= bank_bits; ++shift)
    for (int second = shift + 1; second <= bank_bits + 4 && (std::int64_t{1} << second) < elements; ++second)
      layouts.push_back({SharedLayoutKind::xor_rows, shift, banks, 0, second});
  for (SharedLayout& layout : layouts) layout.words = words_of(layout, elements);
  return layouts;
}

}  // namespace

SharedLayout choose_shared_layout(const KernelSpec& spec, const ArchProfile& profile) {
  SharedLayout best;
  std::tuple<bool, int, int, std::int64_t> best_cost{true, 1 << 30, 1 << 30, 0};
  const tile::SharedAccesses accesses = tile::shared_accesses(spec);
  for (const SharedLayout& layout : candidates(profile, spec.tile_elements)) {
    // Once the best fits, a layout with more conflicts in the compute phases cannot win: stop checking it early.
    const int stop_above = std::get<0>(best_cost) ? 1 << 30 : std::get<1>(best_cost);
    const tile::BankReport report = tile::check_bank_conflicts(spec, layout, accesses, stop_above);
    const bool over = 2 * layout.words * 4 > profile.shared_memory_per_block;
    const std::tuple<bool, int, int, std::int64_t> cost{over, report.worst_excluding_natural_store(), report.worst(),
                                                        layout.words};
    if (cost < best_cost) {
      best_cost = cost;
      best = layout;
    }
    if (best_cost == std::tuple<bool, int, int, std::int64_t>{false, 1, 1, spec.tile_elements}) break;
  }
  return best;
}

}  // namespace fft3d::lowering
