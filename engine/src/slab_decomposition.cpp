// The slab decomposition's checks and local plans (slab_decomposition.hpp).
#include "fft3d/slab_decomposition.hpp"

#include <optional>
#include <string>

#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d {

namespace {

// The Z work on a y slab of `y` (X contiguous): the cheaper of the plan on `y` and on the same memory as one row of
// Z lines, (NX*NY/G, 1, NZ), whose tiles take runs of X the row's length allows (NX = NX/2 + 1 of a half spectrum
// leaves only odd runs) where the plan on `y` may ride X stages or tile Y with Z.
Plan column_plan(const Extents& y, const std::string& arch, const PlanPasses& passes) {
  Plan column = default_axes_plan(y, arch, {Axis::z}, passes);
  if (y.ny == 1) return column;
  Plan flattened = default_axes_plan({y.nx * y.ny, 1, y.nz}, arch, {Axis::z}, passes);
  const std::optional<double> column_passes = passes(column), flattened_passes = passes(flattened);
  return flattened_passes && (!column_passes || *flattened_passes < *column_passes) ? flattened : column;
}

// The R2C of a z slab's (NX, NY) planes, a batch of NZ/G: the default planner's for a run in place (padded rows),
// kept where it and its C2R mirror lower in natural order in both placements (the slab plan runs in each), else
// the whole-axes plan, which does.
Plan real_planes_plan(const Extents& size, int gpus, const std::string& arch, const PlanPasses& passes) {
  const Extents plane{size.nx, size.ny, 1};
  const std::int64_t planes = size.nz / gpus;
  Plan slab = default_plan_of_kind(plane, arch, TransformKind::r2c, passes_in_batch(passes, planes), true);
  const Plan mirror = c2r_mirror(slab);
  const bool lowers_everywhere = lowers_in_natural_order(slab, false) && lowers_in_natural_order(mirror, true) &&
                                 lowers_in_natural_order(mirror, false);
  if (!lowers_everywhere) slab = real_whole_axes_plan(plane, arch, TransformKind::r2c);
  slab.batch = planes;
  return slab;
}

}  // namespace

SlabDecomposition slab_decomposition(const Extents& size, int gpus, const std::string& arch, Precision precision,
                                     TransformKind kind) {
  require_slab_split(size, gpus);
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
    d.column = column_plan(d.y_slab(), arch, passes);
  }
  d.slab.precision = d.slab_c2r.precision = d.column.precision = precision;
  return d;
}

SlabDecomposition in_exchange_units(const SlabDecomposition& d) {
  SlabDecomposition units = d;
  units.kind = TransformKind::c2c;
  units.size = d.spectrum();
  units.size.nx *= static_cast<std::int64_t>(complex_value_bytes(d.slab.precision)) / exchange_unit_bytes;
  return units;
}

}  // namespace fft3d
