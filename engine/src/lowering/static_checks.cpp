// The static checkers: bank conflicts of every shared-memory instruction, coalescing of every global one.
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "lowering/tile_maps.hpp"

namespace fft3d::tile {
namespace {

// Worst number of distinct words one bank serves for one conflict group (at most 32 threads) of one instruction.
int group_degree(const std::vector<std::int64_t>& elements, int first, int count, const SharedLayout& layout) {
  std::array<std::int64_t, 32> words{};
  int n = 0;
  for (int t = first; t < first + count && t < static_cast<int>(elements.size()); ++t)
    if (elements[t] >= 0) words[n++] = shared_address(layout, elements[t]);
  std::sort(words.begin(), words.begin() + n);
  n = static_cast<int>(std::unique(words.begin(), words.begin() + n) - words.begin());
  std::array<int, 32> per_bank{};
  int degree = 1;
  for (int i = 0; i < n; ++i) degree = std::max(degree, ++per_bank[words[i] % layout.banks]);
  return degree;
}

}  // namespace

int BankReport::worst() const {
  int worst = 1;
  for (const PhaseConflict& p : phases) worst = std::max(worst, p.degree);
  return worst;
}

int BankReport::worst_excluding_natural_store() const {
  int worst = 1;
  for (const PhaseConflict& p : phases)
    if (p.phase != "store natural") worst = std::max(worst, p.degree);
  return worst;
}

BankReport check_bank_conflicts(const KernelSpec& spec) { return check_bank_conflicts(spec, spec.shared); }

// The writer-order exchange's words take no layout: its phases are checked as words, over the layout's banks.
BankReport check_bank_conflicts(const KernelSpec& spec, const SharedLayout& layout) {
  BankReport report = check_bank_conflicts(spec, layout, shared_accesses(spec));
  if (const std::optional<WriterExchange> exchange = writer_exchange(spec)) {
    const SharedLayout words{.kind = SharedLayoutKind::identity, .banks = layout.banks, .words = spec.part_elements()};
    const BankReport exchanged = check_bank_conflicts(spec, words, writer_exchange_accesses(spec, *exchange));
    report.phases.insert(report.phases.end(), exchanged.phases.begin(), exchanged.phases.end());
  }
  return report;
}

BankReport check_bank_conflicts(const KernelSpec& spec, const SharedLayout& layout, const SharedAccesses& accesses,
                                int stop_above) {
  BankReport report;
  for (const std::string& phase : accesses.phases) report.phases.push_back({phase, 1});
  const int group = spec.conflict_group_threads;
  for (const AccessInstruction& access : accesses.instructions) {
    int& degree = report.phases[access.phase].degree;
    for (int first = 0; first < spec.threads; first += group)
      degree = std::max(degree, group_degree(access.element, first, group, layout));
    if (degree > stop_above && report.phases[access.phase].phase != "store natural") return report;
  }
  return report;
}

namespace {

// Why a request covers segment `index` (of `segment` elements, aligned by global address) only in part: the X rows
// share it (their length is not a multiple of the segment, so a row ends inside it), the tile's X runs are shorter
// than a segment (the rest of it belongs to other tiles), or the warp's elements are strided across segments.
std::string partial_reason(const KernelSpec& spec, std::int64_t index, std::int64_t segment) {
  const std::int64_t nx = spec.row_pitch(), first = index * segment;
  if (nx % segment != 0 && first / nx != (first + segment - 1) / nx)
    return " (X rows of " + std::to_string(nx) + " values share this 128-byte-aligned segment: " +
           std::to_string(nx) + " is not a multiple of " + std::to_string(segment) + ")";
  if (spec.masks_x())
    return " (X rows of " + std::to_string(nx) + " values padded to " + std::to_string(spec.size.nx) +
           ": the runs start where the rows do, not on 128-byte boundaries)";
  const std::int64_t run = spec.axes[0].tile.empty() || spec.axes[0].tile.front().stride != 1
                               ? 1 : spec.axes[0].tile.front().extent;
  if (run % segment != 0 && run < nx)
    return " (the tile's contiguous X runs of " + std::to_string(run) + " values do not fill segments; other tiles "
           "touch the rest)";
  return " (the warp's elements are strided across segments)";
}

// Where a stage-layout offset lies in memory (RealRows): itself, for a real kernel the element of the launch's
// rows, for padded rows the volume's element (volume_offset); -1 for an element the kernel does not access there
// (masked columns or positions, a Nyquist column kept apart).
struct RowMap {
  const RealRows* rows = nullptr;  // null: the stage layout, or padded rows where the spec has them
  const KernelSpec* spec = nullptr;
  bool maps() const { return rows || (spec && spec->masks_x()); }
  std::int64_t operator()(std::int64_t offset, bool load) const {
    if (rows) return real_row_address(*spec, *rows, offset, load);
    return spec ? volume_offset(*spec, offset) : offset;
  }
};

// One warp-wide global access: the global element each of its threads touches. Counts the segments of `segment`
// elements (16: 128 bytes; KernelSpec::x_run_elements), aligned by global address, it touches but does not cover
// whole. `where()` names the request; called only for the first problem, which also says why (partial_reason).
template <class Where>
void check_request(const KernelSpec& spec, std::vector<std::int64_t> offsets, std::int64_t segment, Where where,
                   CoalescingReport& report, const RowMap& map = {}, bool load = true) {
  if (map.maps()) {
    for (std::int64_t& offset : offsets) offset = map(offset, load);
    std::erase(offsets, std::int64_t{-1});
    if (offsets.empty()) return;
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  ++report.requests;
  for (std::size_t first = 0; first < offsets.size();) {  // one run of elements per segment touched
    std::size_t end = first;
    while (end < offsets.size() && offsets[end] / segment == offsets[first] / segment) ++end;
    const std::size_t count = end - first;
    ++report.segments;
    if (count != static_cast<std::size_t>(segment)) {
      ++report.partial_segments;
      if (report.first_problem.empty()) {
        const std::int64_t index = offsets[first] / segment;
        report.first_problem = where() + ": " + std::to_string(count) + " of " + std::to_string(segment) +
                               " values of segment " + std::to_string(index) +
                               (map.rows ? " (of the launch's rows)" : partial_reason(spec, index, segment));
      }
    }
    first = end;
  }
}

constexpr std::int64_t warp = 32;

// The layouts a kernel's accesses take: the plain one, and the sorted one when an axis has it (sorted_layout.cpp).
std::vector<bool> layouts(const KernelSpec& spec) {
  for (const AxisTile& axis : spec.axes)
    if (!axis.sorted_radices.empty()) return {false, true};
  return {false};
}

std::string layout_name(bool sorted) { return sorted ? " (sorted layout)" : ""; }

// The load or store phase: each block of the tile walks its own part, element e = part_element(part, thread +
// i*threads), so a warp touches 32 consecutive elements of its part (the emitted part loop's order).
void check_element_phase(const KernelSpec& spec, std::int64_t block, bool load, CoalescingReport& report,
                         const RowMap& map = {}) {
  const std::int64_t elements = spec.part_elements();
  for (bool sorted : layouts(spec))
    for (std::int64_t part = 0; part < spec.tile_blocks; ++part)
      for (std::int64_t first = 0; first < elements; first += warp) {
        std::vector<std::int64_t> offsets;
        for (std::int64_t local = first; local < std::min(first + warp, elements); ++local) {
          const std::int64_t e = part_element(spec, part, local);
          offsets.push_back(load ? load_offset(spec, block, e, sorted) : store_offset(spec, block, e, false, sorted));
        }
        check_request(spec, std::move(offsets), spec.x_run_elements, [&] {
          const std::string part_name = spec.tile_blocks > 1 ? " part " + std::to_string(part) : "";
          return "block " + std::to_string(block) + part_name + (load ? " load" : " store") + layout_name(sorted) +
                 " elements " + std::to_string(first) + "+";
        }, report, map, load);
      }
}

// The natural-order store of a transposed store (KernelSpec::transposed_store_run T): slot s = thread + i*threads
// writes tile element transposed_store_element(s) to its frequency, so each warp must cover whole runs of T values.
void check_transposed_store(const KernelSpec& spec, std::int64_t block, CoalescingReport& report, const RowMap& map) {
  if (spec.transposed_store_run == 0) return;
  for (std::int64_t first = 0; first < spec.tile_elements; first += warp) {
    std::vector<std::int64_t> offsets;
    for (std::int64_t slot = first; slot < std::min(first + warp, spec.tile_elements); ++slot)
      offsets.push_back(store_offset(spec, block, transposed_store_element(spec, slot), true));
    check_request(spec, std::move(offsets), spec.transposed_store_run, [&] {
      return "block " + std::to_string(block) + " transposed store slots " + std::to_string(first) + "+";
    }, report, map, false);
  }
}

// A butterfly pass reaching global memory: the part's butterfly b = part_butterfly(thread + i*threads) (split
// between the parts of a spread tile as the pass's crossing says), one request per (warp, k); `offset(base, k)` is
// the global element the thread whose butterfly starts at `base` touches. With `stop`, it returns at the first
// partial segment.
template <class Offset>
void check_pass(const KernelSpec& spec, const ButterflyPass& pass, std::int64_t block, const std::string& phase,
                Offset offset, CoalescingReport& report, bool stop, const RowMap& map, bool load) {
  const std::int64_t butterflies = spec.part_elements() / pass.radix;
  for (std::int64_t part = 0; part < spec.tile_blocks; ++part)
    for (std::int64_t first = 0; first < butterflies; first += warp)
      for (std::int64_t k = 0; k < pass.radix; ++k) {
        std::vector<std::int64_t> offsets;
        for (std::int64_t local = first; local < std::min(first + warp, butterflies); ++local) {
          const std::int64_t b = part_butterfly(spec, pass.element_step, pass.radix, pass.cross, part, local);
          offsets.push_back(offset(butterfly_base(pass.element_step, pass.radix, b), k));
        }
        check_request(spec, std::move(offsets), spec.x_run_elements, [&] {
          return "block " + std::to_string(block) + " part " + std::to_string(part) + " " + phase + " butterflies " +
                 std::to_string(first) + "+ input " + std::to_string(k);
        }, report, map, load);
        if (stop && !report.coalesced()) return;
      }
}

// stop: return at the first partial segment (the report then counts up to it).
void check_first_pass_loads(const KernelSpec& spec, std::int64_t block, CoalescingReport& report, bool stop,
                            const RowMap& map = {}) {
  const ButterflyPass first = first_pass(spec);
  for (bool sorted : layouts(spec)) {
    check_pass(spec, first, block, "first-pass load" + layout_name(sorted), [&](std::int64_t base, std::int64_t k) {
      return load_offset(spec, block, base + k * first.element_step, sorted);
    }, report, stop, map, true);
    if (stop && !report.coalesced()) return;
  }
}

void check_last_pass_stores(const KernelSpec& spec, std::int64_t block, CoalescingReport& report, bool stop,
                            const RowMap& map = {}) {
  const ButterflyPass last = last_pass(spec);
  for (bool sorted : layouts(spec))
    for (bool natural : {false, true}) {
      check_pass(spec, last, block,
                 (natural ? "last-pass store natural" : "last-pass store") + layout_name(sorted),
                 [&](std::int64_t base, std::int64_t m) {
                   return last_pass_store_offset(spec, block, last_pass_output_element(spec, base, m), natural,
                                                 sorted);
                 }, report, stop, map, false);
      if (stop && !report.coalesced()) return;
    }
}

// Both checked blocks (the first, and the grid's last tile), each through `check(block, report)`.
template <class Check>
CoalescingReport for_first_and_last_block(const KernelSpec& spec, Check check) {
  CoalescingReport report;
  if (spec.role != KernelRole::tile) return report;
  for (std::int64_t block : {std::int64_t{0}, last_grid_tile(spec)}) check(block, report);
  return report;
}

}  // namespace

namespace {
CoalescingReport check_through(const KernelSpec& spec, const RowMap& map) {
  return for_first_and_last_block(spec, [&spec, &map](std::int64_t block, CoalescingReport& report) {
    if (spec.load_in_first_pass)
      check_first_pass_loads(spec, block, report, false, map);
    else
      check_element_phase(spec, block, true, report, map);
    if (spec.store_in_last_pass) {
      check_last_pass_stores(spec, block, report, false, map);
    } else {
      check_element_phase(spec, block, false, report, map);
      check_transposed_store(spec, block, report, map);
    }
  });
}
}  // namespace

CoalescingReport check_coalescing(const KernelSpec& spec) { return check_through(spec, RowMap{nullptr, &spec}); }

std::int64_t real_row_address(const KernelSpec& spec, const RealRows& rows, std::int64_t offset, bool load) {
  const std::int64_t nx = spec.size.nx, half = spec.real.half;
  const std::int64_t x = offset % nx, row = offset / nx;
  const bool r2c = spec.real.kind == TransformKind::r2c;
  // The side of the access: the real rows (NX reals: half complex values), the half spectrum (half + 1), or a C2R
  // intermediate, which out of place lives in the output's real rows with column `half` in a plane of its own.
  const bool real_side = spec.real.has_step() && (r2c ? load : !load);
  const bool input_spectrum = !r2c && load && spec.kernel_index == 0;
  const bool spectrum_side = r2c ? !real_side : input_spectrum;
  if (rows.in_place) return x > half ? -1 : x + (half + 1) * row;
  if (real_side) return x + half * row;
  if (spectrum_side) return x > half ? -1 : x + (half + 1) * row;
  return x >= half ? -1 : x + half * row;  // the C2R intermediate in the output's real rows
}

CoalescingReport check_real_row_coalescing(const KernelSpec& spec, const RealRows& rows) {
  if (spec.real.kind == TransformKind::c2c || spec.real.odd) return {};
  return check_through(spec, RowMap{&rows, &spec});
}

CoalescingReport check_first_pass_loads(const KernelSpec& spec, std::int64_t block) {
  CoalescingReport report;
  if (spec.role == KernelRole::tile) check_first_pass_loads(spec, block, report, false);
  return report;
}

CoalescingReport check_last_pass_stores(const KernelSpec& spec, std::int64_t block) {
  CoalescingReport report;
  if (spec.role == KernelRole::tile) check_last_pass_stores(spec, block, report, false);
  return report;
}

bool first_pass_loads_coalesced(const KernelSpec& spec, std::int64_t block) {
  CoalescingReport report;
  if (spec.role == KernelRole::tile) check_first_pass_loads(spec, block, report, true);
  return report.coalesced();
}

bool last_pass_stores_coalesced(const KernelSpec& spec, std::int64_t block) {
  CoalescingReport report;
  if (spec.role == KernelRole::tile) check_last_pass_stores(spec, block, report, true);
  return report.coalesced();
}

namespace {

// The offsets add over the three axes (each axis's position depends on its own local index and its tile's origin
// only), and a pass's butterflies step along one axis: so `exact(block, base, k)` against the form the emitter
// computes, `head(block, base) + step(base, k)` (head: the butterfly's first offset; step: a constant of block 0),
// is checked for every butterfly base along that axis (the other axes' indices zero) in every tile along it (or in
// its end tiles: OffsetCheck::end_tiles; or in the first only where the maps take the axis's positions as they are:
// `maps_positions` false). False at the first difference.
template <class Exact, class Head, class Step>
bool pass_offsets_match(const KernelSpec& spec, Axis axis, const ButterflyPass& pass, OffsetCheck check,
                        bool maps_positions, Exact exact, Head head, Step step) {
  const std::int64_t stride = axis_linear_stride(spec, axis);
  const AxisTile& tile = spec.axes[axis_index(axis)];
  std::int64_t block_weight = 1;  // blocks walk the axes in grid_order (block_origin)
  for (Axis a : spec.grid_order) {
    if (a == axis) break;
    block_weight *= walked_tiles(spec, a);
  }
  // Positions taken as they are: exact - head is the same in every tile (tile_maps.hpp), so the first answers.
  const std::int64_t tiles = maps_positions ? tile.tiles() : 1;
  const std::int64_t ends = tiles_checked_at_each_end;
  const bool skips_middle = check == OffsetCheck::end_tiles && tiles > 2 * ends;
  for (std::int64_t t = 0; t < tiles; t = skips_middle && t + 1 == ends ? tiles - ends : t + 1)
    for (std::int64_t l = 0; l < tile.extent(); ++l) {
      const std::int64_t base = l * stride;
      if (base / pass.element_step % pass.radix != 0) continue;  // not a butterfly's first input
      const std::int64_t block = t * block_weight, first = head(block, base);
      for (std::int64_t k = 0; k < pass.radix; ++k)
        if (exact(block, base, k) != first + step(base, k)) return false;
    }
  return true;
}

}  // namespace

bool first_pass_offsets_add(const KernelSpec& spec, OffsetCheck check) {
  if (spec.role != KernelRole::tile) return false;
  const ButterflyPass first = first_pass(spec);
  const std::int64_t step = first.element_step;
  for (bool sorted : layouts(spec)) {
    std::vector<std::int64_t> steps;  // block 0's offset of input k: the same for every butterfly
    for (std::int64_t k = 0; k < first.radix; ++k) steps.push_back(load_offset(spec, 0, k * step, sorted));
    const Axis axis = spec.stages.front().sub.axis;
    if (!pass_offsets_match(
            spec, axis, first, check, load_maps_positions(spec, axis, sorted),
            [&](std::int64_t block, std::int64_t base, std::int64_t k) {
              return load_offset(spec, block, base + k * step, sorted);
            },
            [&](std::int64_t block, std::int64_t base) { return load_offset(spec, block, base, sorted); },
            [&](std::int64_t, std::int64_t k) { return steps[static_cast<std::size_t>(k)]; }))
      return false;
  }
  return true;
}

bool last_pass_offsets_add(const KernelSpec& spec, OffsetCheck check) {
  if (spec.role != KernelRole::tile) return false;
  const ButterflyPass last = last_pass(spec);
  for (bool sorted : layouts(spec))
    for (bool natural : {false, true}) {
      const auto store = [&](std::int64_t block, std::int64_t p) {
        return last_pass_store_offset(spec, block, p, natural, sorted);
      };
      const Axis axis = spec.stages.back().sub.axis;
      if (!pass_offsets_match(
              spec, axis, last, check, store_maps_positions(spec, axis, natural, sorted),
              [&](std::int64_t block, std::int64_t base, std::int64_t m) {
                return store(block, last_pass_output_element(spec, base, m));
              },
              [&](std::int64_t block, std::int64_t base) {
                return store(block, last_pass_output_element(spec, base, 0));
              },
              [&](std::int64_t base, std::int64_t m) {
                return store(0, last_pass_output_element(spec, base, m) - last_pass_output_element(spec, base, 0));
              }))
        return false;
    }
  return true;
}

namespace {

// Clusters of `tiles` consecutive tiles, the first and the last, storing in natural order (sorted: in the sorted
// layout): the elements they store are those they load. Such clusters load natural positions (a sorted run's
// first kernel loads no axis sorted, and the late form's kernel loads natural positions in place).
void check_cluster_stores(const KernelSpec& spec, std::int64_t tiles, bool sorted, ClusterStoreReport& report) {
  const std::int64_t clusters = spec.tiles / tiles;
  for (std::int64_t cluster : {std::int64_t{0}, clusters - 1}) {
    std::vector<std::int64_t> loaded, stored;
    for (std::int64_t block = cluster * tiles; block < (cluster + 1) * tiles; ++block)
      for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
        loaded.push_back(load_offset(spec, block, e, false));
        stored.push_back(store_offset(spec, block, e, true, sorted));
      }
    std::sort(loaded.begin(), loaded.end());
    std::sort(stored.begin(), stored.end());
    ++report.clusters_checked;
    if (std::adjacent_find(stored.begin(), stored.end()) != stored.end())
      report.first_problem = "cluster " + std::to_string(cluster) + " stores some element twice";
    else if (loaded != stored)
      report.first_problem = "cluster " + std::to_string(cluster) + " stores outside the elements it loads";
    if (report.closed() && exchanges_across_cluster(spec)) {
      const std::int64_t first = cluster * tiles;
      std::vector<int> gathered(static_cast<std::size_t>(tiles * spec.tile_elements), 0);
      for (std::int64_t block = first; block < first + tiles; ++block)
        for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
          const auto [source_block, source_element] = exchange_source(spec, block, e);
          if (source_block < first || source_block >= first + tiles) {
            report.first_problem = "cluster " + std::to_string(cluster) + " gathers from block " +
                                   std::to_string(source_block) + " outside it";
            return;
          }
          ++gathered[static_cast<std::size_t>((source_block - first) * spec.tile_elements + source_element)];
        }
      if (std::count(gathered.begin(), gathered.end(), 1) != static_cast<std::int64_t>(gathered.size()))
        report.first_problem = "cluster " + std::to_string(cluster) + " gathers some element twice";
    }
    if (!report.closed()) return;
  }
}

}  // namespace

ClusterStoreReport check_cluster_stores(const KernelSpec& spec) {
  ClusterStoreReport report;
  if (spec.role != KernelRole::tile) return report;
  // The clusters of a natural-order store across tiles, and those of sorted stores run in place.
  if (spec.tiles_per_cluster() > 1) check_cluster_stores(spec, spec.tiles_per_cluster(), false, report);
  if (report.closed() && spec.sorted_store_cluster > 1)
    check_cluster_stores(spec, spec.sorted_store_cluster, true, report);
  return report;
}

}  // namespace fft3d::tile
