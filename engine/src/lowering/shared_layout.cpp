// Rule: the shared-memory layout. Real and imaginary parts live in two word arrays (paper §4.3.3); the address
// map is chosen among padding and XOR swizzles by the bank-conflict checker itself: fewest conflicts in the
// compute phases first, then in the natural-order store, then fewest words; a layout over the profile's shared
// memory loses to any that fits.
//
// The search checks each candidate against the distinct conflict-group patterns of the kernel's accesses
// (ConflictPatterns below; PeriodPatterns for the period paddings), not against every access: a 16384-element
// Hopper tile has thousands of conflict groups but a few dozen patterns, and the planner lowers every candidate
// plan, so checking every group of every candidate layout dominated planning time.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "lowering/tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

// The words a layout spans over elements [0, elements): closed forms where the map is monotone (identity, pad) or
// a bijection of each run of `banks` words (xor_rows over whole runs); a scan otherwise. The search calls this for
// every candidate, and a scan of a 128 KB tile per candidate dominated lowering time.
std::int64_t words_of(const SharedLayout& layout, std::int64_t elements) {
  if (layout.kind == SharedLayoutKind::identity) return elements;
  if (layout.kind == SharedLayoutKind::pad || layout.kind == SharedLayoutKind::pad_period)
    return tile::shared_address(layout, elements - 1) + 1;
  if (elements % layout.banks == 0) return elements;
  std::int64_t last = 0;
  for (std::int64_t e = 0; e < elements; ++e) last = std::max(last, tile::shared_address(layout, e));
  return last + 1;
}

// A conflict group's pattern: its phase and its values (ConflictPatterns, PeriodPatterns), hashed by FNV-1a.
using Pattern = std::pair<int, std::vector<std::int64_t>>;
struct PatternHash {
  std::size_t operator()(const Pattern& key) const {
    std::uint64_t h = 14695981039346656037ULL ^ static_cast<std::uint64_t>(key.first);
    for (std::int64_t e : key.second) h = (h ^ static_cast<std::uint64_t>(e)) * 1099511628211ULL;
    return static_cast<std::size_t>(h);
  }
};

// The report of a pattern check: each phase's degree, the most of a pattern's values that bank_of(value) puts in one
// of `banks` banks (the values of a pattern take distinct words). It gives up once a phase other than the
// natural-order store is over stop_above (tile::check_bank_conflicts's rule; the report is then partial).
template <class BankOf>
tile::BankReport pattern_degrees(const std::vector<std::string>& phases, const std::vector<Pattern>& patterns,
                                 int banks, const BankOf& bank_of, int stop_above) {
  tile::BankReport report;
  for (const std::string& phase : phases) report.phases.push_back({phase, 1});
  std::vector<int> per_bank(static_cast<std::size_t>(banks));
  for (const auto& [phase, values] : patterns) {
    std::fill(per_bank.begin(), per_bank.end(), 0);
    tile::PhaseConflict& conflict = report.phases[static_cast<std::size_t>(phase)];
    for (std::int64_t value : values)
      conflict.degree = std::max(conflict.degree, ++per_bank[static_cast<std::size_t>(bank_of(value))]);
    if (conflict.degree > stop_above && conflict.phase != "store natural") return report;
  }
  return report;
}

// Identity first, then the XOR swizzles (no extra words), then the paddings, then two-field swizzles: the search
// stops at the first layout that is conflict-free everywhere and costs no extra words, since nothing can beat it.
}  // namespace

int shared_word_banks(const ArchProfile& profile, Precision precision) {
  const int word_bytes = static_cast<int>(real_value_bytes(precision));
  return std::max(1, profile.shared_memory_banks * profile.bank_width_bytes / word_bytes);
}

std::vector<SharedLayout> shared_layout_candidates(const ArchProfile& profile, Precision precision,
                                                   std::int64_t elements) {
  const int banks = shared_word_banks(profile, precision);
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

namespace {

// Calls visit(group) for each conflict group of each access instruction that touches an element: group.first its
// phase, group.second the elements (>= 0) its threads touch, in thread order, for visit to rewrite (the one Pattern
// is reused between calls).
template <class Visit>
void for_each_conflict_group(const KernelSpec& spec, const tile::SharedAccesses& accesses, int group_threads,
                             const Visit& visit) {
  Pattern key;
  for (const tile::AccessInstruction& access : accesses.instructions) {
    const int threads = static_cast<int>(access.element.size());
    for (int first = 0; first < spec.threads && first < threads; first += group_threads) {
      key.first = access.phase;
      key.second.clear();
      for (int t = first; t < std::min(first + group_threads, threads); ++t)
        if (access.element[t] >= 0) key.second.push_back(access.element[t]);
      if (!key.second.empty()) visit(key);
    }
  }
}

}  // namespace

// Why a group's degree depends only on its pattern: write each element of the group as e = r | c, where c holds
// the bits every element shares (c = e_0 & ~V, V = OR of e ^ e_0) and r = e & V; r and c have no bit in common,
// so e = r + c = r ^ c. Every candidate address map A is then a translate on the group:
//   identity: A(e) = A(r) + c;
//   pad:      A(e) = e + (e >> s) = A(r) + A(c), since (r | c) >> s = (r >> s) | (c >> s) and those are disjoint;
//   xor_rows: A is linear over GF(2) (XORs of shifted, masked copies of e), so A(e) = A(r) ^ A(c).
// Adding a constant rotates the banks (A mod banks) and XOR with a constant permutes the low (bank) bits; both keep
// distinct words distinct, so the number of distinct words per bank, the group's degree, is the same for r as
// for e. Groups with equal sets of r in the same phase are checked once.
ConflictPatterns::ConflictPatterns(const KernelSpec& spec, const tile::SharedAccesses& accesses)
    : phases_(accesses.phases), group_threads_(spec.conflict_group_threads) {
  // Translated groups usually give the same r in the same thread order: dedupe on that first (hash), and sort
  // only the groups not seen before.
  std::unordered_set<Pattern, PatternHash> seen_ordered, seen_sorted;
  for_each_conflict_group(spec, accesses, group_threads_, [&](Pattern& group) {
    std::vector<std::int64_t>& pattern = group.second;
    std::int64_t varying = 0;
    for (std::int64_t e : pattern) varying |= e ^ pattern.front();
    for (std::int64_t& e : pattern) e &= varying;
    if (!seen_ordered.insert(group).second) return;
    std::sort(pattern.begin(), pattern.end());
    pattern.erase(std::unique(pattern.begin(), pattern.end()), pattern.end());
    if (seen_sorted.insert(group).second) patterns_.push_back(group);
  });
}

// A pattern's elements are distinct (sorted and deduplicated above) and every candidate map is injective
// (tile::shared_address), so each element takes a word of its own: the degree counts the elements per bank.
tile::BankReport ConflictPatterns::check(const SharedLayout& layout, int stop_above) const {
  const auto bank_of = [&layout](std::int64_t e) { return tile::shared_address(layout, e) % layout.banks; };
  return pattern_degrees(phases_, patterns_, layout.banks, bank_of, stop_above);
}

// Why a group's degree under pad_period(P, Q) depends only on its pairs: A(e) = e + (e / P) * Q is strictly
// increasing, so distinct elements take distinct words, and A(e) mod B = (e mod B + ((e / P) mod B) * Q) mod B
// depends only on e's pair (e mod B, (e / P) mod B). The degree, the most distinct words one bank serves, is then
// the most distinct elements whose pairs fall in one bank, for every Q. Subtracting one pair (a0, b0) from every
// pair, modulo B, rotates every element's bank by a0 + b0 * Q and keeps that count: the pairs are taken relative to
// the group's first element, and groups with equal sorted relative pairs in the same phase are checked once.
// Translating a group by a multiple of P, kP, adds k(P + Q) to every word, which rotates the banks too: groups equal
// element for element (thread order) once moved to the first period, are deduplicated on that first (hash), and
// only the groups not seen before are sorted.
PeriodPatterns::PeriodPatterns(const KernelSpec& spec, const tile::SharedAccesses& accesses, std::int64_t period,
                               int banks)
    : phases_(accesses.phases), period_(period), banks_(banks) {
  std::unordered_set<Pattern, PatternHash> seen_ordered, seen;
  for_each_conflict_group(spec, accesses, spec.conflict_group_threads, [&](Pattern& group) {
    std::vector<std::int64_t>& pairs = group.second;
    const std::int64_t moved = *std::min_element(pairs.begin(), pairs.end()) / period_ * period_;
    for (std::int64_t& e : pairs) e -= moved;
    if (!seen_ordered.insert(group).second) return;
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    const std::int64_t a0 = pairs.front() % banks_, b0 = pairs.front() / period_ % banks_;
    for (std::int64_t& e : pairs) {
      const std::int64_t a = (e % banks_ - a0 + banks_) % banks_, b = (e / period_ % banks_ - b0 + banks_) % banks_;
      e = a + banks_ * b;
    }
    std::sort(pairs.begin(), pairs.end());
    if (seen.insert(group).second) patterns_.push_back(group);
  });
}

tile::BankReport PeriodPatterns::check(const SharedLayout& layout, int stop_above) const {
  if (layout.kind != SharedLayoutKind::pad_period || layout.period != period_ || layout.banks != banks_)
    throw std::invalid_argument("PeriodPatterns::check: " + to_string(layout) + " is not a padding of period " +
                                std::to_string(period_) + " over " + std::to_string(banks_) + " banks");
  const auto bank_of = [&](std::int64_t pair) {
    return (pair % banks_ + pair / banks_ * layout.period_words) % banks_;
  };
  return pattern_degrees(phases_, patterns_, banks_, bank_of, stop_above);
}

// Paddings by a period for tiles whose digits are not bit fields: Q words after each P elements, where P is an X
// row or plane of the tile (passes striding by whole rows or planes of a length that is not a power of two) or the
// span E*r of a butterfly pass's inputs (a warp then reads runs of E consecutive elements E*r apart: Q = E puts
// consecutive runs on consecutive banks), Q from 1 to banks - 1. Checked on PeriodPatterns: ConflictPatterns'
// argument does not hold for e / P.
std::vector<SharedLayout> period_pad_candidates(const KernelSpec& spec, const ArchProfile& profile) {
  std::vector<SharedLayout> layouts;
  if (tile::bit_fields(spec)) return layouts;
  std::set<std::int64_t> periods;
  for (Axis axis : {Axis::y, Axis::z}) periods.insert(tile::axis_linear_stride(spec, axis));
  for (const tile::ButterflyPass& pass : tile::butterfly_pass_list(spec)) periods.insert(pass.element_step * pass.radix);
  const int banks = shared_word_banks(profile, spec.precision);
  for (std::int64_t period : periods) {
    if (period <= 1 || period >= spec.part_elements()) continue;
    for (std::int64_t words = 1; words < banks; ++words) {
      SharedLayout layout{SharedLayoutKind::pad_period, 0, banks, 0, 0, period, words};
      layout.words = words_of(layout, spec.part_elements());
      layouts.push_back(layout);
    }
  }
  return layouts;
}

SharedLayout choose_shared_layout(const KernelSpec& spec, const ArchProfile& profile, LayoutSearch search) {
  SharedLayout best;
  std::tuple<bool, int, int, std::int64_t> best_cost{true, 1 << 30, 1 << 30, 0};
  const tile::SharedAccesses accesses = tile::shared_accesses(spec);
  std::optional<ConflictPatterns> patterns;
  if (search == LayoutSearch::by_pattern) patterns.emplace(spec, accesses);
  std::map<std::int64_t, PeriodPatterns> period_patterns;  // by period, built when its first padding is checked
  const auto check_by_pattern = [&](const SharedLayout& layout, int stop_above) {
    if (layout.kind != SharedLayoutKind::pad_period) return patterns->check(layout, stop_above);
    auto at = period_patterns.find(layout.period);
    if (at == period_patterns.end())
      at = period_patterns.emplace(layout.period, PeriodPatterns(spec, accesses, layout.period, layout.banks)).first;
    return at->second.check(layout, stop_above);
  };
  std::vector<SharedLayout> candidates = shared_layout_candidates(profile, spec.precision, spec.part_elements());
  for (const SharedLayout& layout : period_pad_candidates(spec, profile)) candidates.push_back(layout);
  for (const SharedLayout& layout : candidates) {
    // Once the best fits, a layout with more conflicts in the compute phases cannot win: stop checking it early.
    const int stop_above = std::get<0>(best_cost) ? 1 << 30 : std::get<1>(best_cost);
    // The period paddings come last and are checked only while no fitting layout is conflict-free.
    const bool conflict_free = !std::get<0>(best_cost) && std::get<1>(best_cost) == 1 && std::get<2>(best_cost) == 1;
    if (layout.kind == SharedLayoutKind::pad_period && conflict_free) break;
    const tile::BankReport report = patterns ? check_by_pattern(layout, stop_above)
                                             : tile::check_bank_conflicts(spec, layout, accesses, stop_above);
    const bool over = 2 * layout.words * spec.real_bytes() > profile.shared_memory_per_block;
    const std::tuple<bool, int, int, std::int64_t> cost{over, report.worst_excluding_natural_store(), report.worst(),
                                                        layout.words};
    if (cost < best_cost) {
      best_cost = cost;
      best = layout;
    }
    if (best_cost == std::tuple<bool, int, int, std::int64_t>{false, 1, 1, spec.part_elements()}) break;
  }
  return best;
}

}  // namespace fft3d::lowering
