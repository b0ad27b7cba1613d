// The text `fft3d explain` prints for a lowered plan: every KernelSpec, its static-check results, and how natural
// order is reached.
#include <sstream>

#include "lowering/tile_maps.hpp"

namespace fft3d::tile {

namespace {

// "W of S whole" for a report over the launch's rows.
std::string whole_of(const CoalescingReport& report) {
  return std::to_string(report.segments - report.partial_segments) + " of " + std::to_string(report.segments) +
         " whole";
}

// A real kernel of an even NX: the same requests on the rows a run gives it (check_real_row_coalescing), in each
// placement, where the half spectrum's rows of NX/2 + 1 values start off a segment.
void write_real_row_coalescing(std::ostream& text, const KernelSpec& spec) {
  const CoalescingReport out = check_real_row_coalescing(spec, {.in_place = false});
  if (out.requests == 0) return;
  const CoalescingReport in = check_real_row_coalescing(spec, {.in_place = true});
  text << "on the launch's rows, " << spec.x_run_elements * spec.complex_bytes() << "-byte segments: out of place "
       << whole_of(out) << ", in place " << whole_of(in);
  if (!out.coalesced()) text << " (first partial: " << out.first_problem << ")";
  text << "\n";
}

}  // namespace

std::string explain(const LoweredPlan& lowered) {
  std::ostringstream text;
  for (const KernelSpec& spec : lowered.kernels) {
    text << to_string(spec);
    const BankReport banks = check_bank_conflicts(spec);
    text << "bank conflicts (worst words per bank per " << spec.conflict_group_threads << "-thread request):";
    for (const PhaseConflict& phase : banks.phases) text << " [" << phase.phase << ": " << phase.degree << "]";
    const CoalescingReport coalescing = check_coalescing(spec);
    // A real kernel's accesses are checked in its stage volume's layout: the launch gives the real rows' and the
    // half spectrum's pitches, which that layout does not hold (the pitch line of to_string says where they differ).
    text << "\nglobal accesses: "
         << (spec.real.kind == TransformKind::c2c
                 ? std::string()
                 : "in the stage layout (rows of " + std::to_string(spec.size.nx) +
                       " values, not the launch's row pitches), ")
         << coalescing.requests << " warp requests checked, "
         << (coalescing.coalesced() ? "all whole " + std::to_string(spec.x_run_elements * spec.complex_bytes()) + "-byte segments"
                                    : coalescing.first_problem)
         << "\n";
    write_real_row_coalescing(text, spec);
    if (spec.tiles_per_cluster() > 1) {
      const ClusterStoreReport cluster = check_cluster_stores(spec);
      text << "natural-order store across each cluster of " << spec.tiles_per_cluster() << " tiles: "
           << (!cluster.closed() ? cluster.first_problem
               : exchanges_across_cluster(spec)
                   ? "each block stores the elements it loaded (whole 128-byte segments), gathering the values "
                     "from the cluster's shared memory behind a cluster barrier"
                   : "stores exactly the elements the cluster loads (in-place safe behind the cluster barrier; "
                     "strided stores, each 128-byte segment written whole by the cluster)")
           << "\n";
    }
    text << "\n";
  }
  if (lowered.reorder) {
    const std::string sorted =
        "the first kernel stores the axes above in their sorted layout and their last stages leave them in natural "
        "order";
    const std::string pass = "a digit-reversal pass runs last through a workspace of " +
                             std::to_string(lowered.workspace_bytes()) + " B";
    text << to_string(*lowered.reorder);
    if (lowered.sorts_late_in_place)
      text << "natural order out of place: " << sorted << "; in place the kernels before the one in clusters of "
           << "sorted stores keep natural positions, and it loads them and stores sorted (the pass above never "
           << "runs)\n";
    else if (lowered.sorted_layout_in_place)
      text << "natural order: " << sorted << ", in place and out of place (the pass above never runs)\n";
    else if (lowered.sorted_layout)
      text << "natural order out of place: " << sorted << "; in place " << pass << "\n";
    else
      text << "natural order: the stages of the axes above span several kernels, so " << pass
           << " (digit-reversed order skips it)\n";
  } else if (lowered.stores_out_of_workspace()) {
    text << "natural order: the last kernel stores it out of a workspace of one volume (transposed store, runs of "
         << lowered.kernels.back().transposed_store_run
         << " frequencies): the kernels before it run in the workspace, in both placements (no extra pass)\n";
  } else {
    text << "natural order: reached by the kernels' own stores (no extra pass, no workspace)\n";
  }
  if (lowered.real_pass) {
    const bool r2c = lowered.real_pass->real.kind == TransformKind::r2c;
    text << "\n" << to_string(*lowered.real_pass) << "real step: the row's X stages span several kernels, so the step "
         << "runs as a pass of its own, " << (r2c ? "in place on the output after the kernels and the "
                                                    "digit-reversal pass"
                                                  : "from the half spectrum into the output before the kernels")
         << " (one more read and write of the half spectrum)\n";
  }
  return text.str();
}

}  // namespace fft3d::tile
