// The static checkers: bank conflicts of every shared-memory instruction, coalescing of every global one.
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "fft3d/cuda_tile_maps.hpp"

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

BankReport check_bank_conflicts(const KernelSpec& spec, const SharedLayout& layout) {
  return check_bank_conflicts(spec, layout, shared_accesses(spec));
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

CoalescingReport check_coalescing(const KernelSpec& spec) {
  CoalescingReport report;
  if (spec.role != KernelRole::tile) return report;
  constexpr int warp = 32;
  constexpr std::int64_t segment = 16;  // complex fp32 values per 128 bytes
  for (std::int64_t block : {std::int64_t{0}, spec.tiles - 1}) {
    // Loads and stores touch the same elements in the same order (element e = thread + i*threads).
    for (std::int64_t first = 0; first < spec.tile_elements; first += warp) {
      std::map<std::int64_t, std::set<std::int64_t>> touched;  // segment -> elements
      for (std::int64_t e = first; e < std::min(first + warp, spec.tile_elements); ++e) {
        const std::int64_t g = global_offset(spec, block, e);
        touched[g / segment].insert(g);
      }
      report.requests += 2;  // the load and the store
      for (const auto& [seg, elements] : touched) {
        if (static_cast<std::int64_t>(elements.size()) == segment) continue;
        report.partial_segments += 2;
        if (report.first_problem.empty())
          report.first_problem = "block " + std::to_string(block) + " elements " + std::to_string(first) + "+: " +
                                 std::to_string(elements.size()) + " of 16 values of segment " + std::to_string(seg);
      }
    }
  }
  return report;
}

ClusterStoreReport check_cluster_stores(const KernelSpec& spec) {
  ClusterStoreReport report;
  const std::int64_t tiles = spec.tiles_per_cluster();  // tiles of one cluster
  if (spec.role != KernelRole::tile || tiles <= 1) return report;
  const std::int64_t clusters = spec.tiles / tiles;
  for (std::int64_t cluster : {std::int64_t{0}, clusters - 1}) {
    std::vector<std::int64_t> loaded, stored;
    for (std::int64_t block = cluster * tiles; block < (cluster + 1) * tiles; ++block)
      for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
        loaded.push_back(global_offset(spec, block, e));
        stored.push_back(store_offset(spec, block, e, true));
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
            return report;
          }
          ++gathered[static_cast<std::size_t>((source_block - first) * spec.tile_elements + source_element)];
        }
      if (std::count(gathered.begin(), gathered.end(), 1) != static_cast<std::int64_t>(gathered.size()))
        report.first_problem = "cluster " + std::to_string(cluster) + " gathers some element twice";
    }
    if (!report.closed()) return report;
  }
  return report;
}

}  // namespace fft3d::tile
