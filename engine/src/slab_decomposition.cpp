// The slab decomposition's checks and local plans (slab_decomposition.hpp).
#include "fft3d/slab_decomposition.hpp"

#include <string>

#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d {

namespace {

// The Z work on `rows` rows of every Z plane of a y slab (X length y.nx), planned on the same memory as one row of Z
// lines, (y.nx*rows, 1, NZ): its tiles then take whole 128-byte runs of X, where the half spectrum's rows of NX/2 + 1
// values would leave only odd runs, which the cost model does not charge.
Plan flat_column_plan(const Extents& y, std::int64_t rows, const std::string& arch, const PlanPasses& passes) {
  return default_axes_plan({y.nx * rows, 1, y.nz}, arch, {Axis::z}, passes);
}

// The R2C of a z slab's (NX, NY) planes, a batch of NZ/G: the default planner's for a run in place (padded rows),
// kept where it and its C2R mirror lower in natural order in both placements (the slab plan runs in each), else
// the whole-axes plan, which does.
Plan real_planes_plan(const Extents& size, int gpus, const std::string& arch, const PlanPasses& passes) {
  const Extents plane{size.nx, size.ny, 1};
  const std::int64_t planes = size.nz / gpus;
  Plan slab = default_plan_of_kind(plane, arch, TransformKind::r2c, passes_in_batch(passes, planes), true);
  const Plan mirror = c2r_mirror(slab);
  const NaturalOrderPlacements mirror_placements = natural_order_placements(mirror);
  const bool lowers_everywhere =
      lowers_in_natural_order(slab, false) && mirror_placements.in_place && mirror_placements.out_of_place;
  if (!lowers_everywhere) slab = real_whole_axes_plan(plane, arch, TransformKind::r2c);
  slab.batch = planes;
  return slab;
}

}  // namespace

SlabDecomposition slab_decomposition(const Extents& size, int gpus, const std::string& arch, Precision precision,
                                     TransformKind kind) {
  require_slab_split(size, gpus);
  require_even_real_rows(size, kind, "the slab decomposition");
  if (kind == TransformKind::c2r)
    throw UsageError("slab decomposition of " + to_string(size) +
                     ": ask for r2c (its inverse runs C2R), not c2r");
  SlabDecomposition d;
  d.size = size;
  d.gpus = gpus;
  d.kind = kind;
  // Each local plan is planned for its own volume: X and Y on the z slab, Z on the spectrum's y slab.
  const PlanPasses passes = passes_in_precision(passes_on_its_profile, precision);
  if (kind == TransformKind::c2c) {
    d.slab = default_axes_plan(d.z_slab(), arch, {Axis::x, Axis::y}, passes);
    d.column = default_axes_plan(d.y_slab(), arch, {Axis::z}, passes);
  } else {
    d.slab = real_planes_plan(size, gpus, arch, passes);
    d.slab_c2r = c2r_mirror(d.slab);
    d.slab_c2r.batch = d.slab.batch;
    d.column = flat_column_plan(d.y_slab(), d.y_slab().ny, arch, passes);
  }
  d.slab.precision = d.slab_c2r.precision = d.column.precision = precision;
  return d;
}

Plan column_chunk_plan(const SlabDecomposition& d, std::int64_t row_chunks, const std::string& arch) {
  const Extents y = d.y_slab();
  if (row_chunks < 1 || y.ny % row_chunks != 0)
    throw UsageError("column chunks of " + to_string(y) + ": " + std::to_string(row_chunks) +
                     " chunks do not divide its " + std::to_string(y.ny) + " rows");
  Plan chunk = flat_column_plan(y, y.ny / row_chunks, arch,
                                passes_in_precision(passes_on_its_profile, d.column.precision));
  chunk.precision = d.column.precision;
  return chunk;
}

SlabDecomposition in_exchange_units(const SlabDecomposition& d) {
  SlabDecomposition units = d;
  units.kind = TransformKind::c2c;
  units.size = d.spectrum();
  units.size.nx *= static_cast<std::int64_t>(complex_value_bytes(d.slab.precision)) / exchange_unit_bytes;
  return units;
}

}  // namespace fft3d
