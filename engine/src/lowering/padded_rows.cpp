// Rule: padded rows. A complex fp32 plan's kernel without X stages walks X in runs (axis_tiling.cpp). Where no run
// of a whole 128-byte chunk divides the row (NX over 16 and not a multiple of it), and the row's own run is under
// 96 bytes or ends inside a 32-byte sector (343 takes runs of 7, 100 runs of 4, 1000 runs of 8; 300's runs of 12
// are 3 whole sectors), the kernel lowers on rows padded to whole chunks and keeps the volume's row length as
// KernelSpec::volume_nx: its global accesses take that length as the row pitch, and the tile positions past it are
// masked. Such runs start where the rows do, not on chunk boundaries, so narrow_x_runs leaves them whole.
// Why: runs that short make more requests per byte, or share their sectors with other tiles' runs. Rows of
// 12-value runs and fp64 rows keep their runs: padding them won at some sizes and lost at others, for reasons not
// known (docs/performance.md L184 has the measurements).
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

constexpr std::int64_t sector_bytes = 32;
constexpr std::int64_t long_run_bytes = 96;  // a run of whole sectors this long keeps its rows

}  // namespace

bool pads_x_rows(const Plan& plan, const Kernel& kernel) {
  const std::int64_t nx = plan.size.nx;
  if (plan.precision != Precision::fp32 || nx <= x_chunk || nx % x_chunk == 0 || has_stages(kernel, Axis::x))
    return false;
  const std::int64_t run_bytes =
      x_run_without_stages(plan, false) * static_cast<std::int64_t>(complex_value_bytes(plan.precision));
  return run_bytes < long_run_bytes || run_bytes % sector_bytes != 0;
}

Plan padded_rows_plan(const Plan& plan) {
  Plan padded = plan;
  padded.size.nx = whole_chunks(plan.size.nx);
  return padded;
}

}  // namespace fft3d::lowering
