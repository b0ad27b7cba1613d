// The slab decomposition's checks and local plans (slab_decomposition.hpp).
#include "fft3d/slab_decomposition.hpp"

#include <string>

#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d {

SlabDecomposition slab_decomposition(const Extents& size, int gpus, const std::string& arch, Precision precision) {
  require_slab_split(size, gpus);
  SlabDecomposition d;
  d.size = size;
  d.gpus = gpus;
  // Each local plan is planned for its own volume: X and Y on the z slab, Z on the y slab.
  const PlanPasses passes = passes_in_precision(passes_on_its_profile, precision);
  d.slab = default_axes_plan(d.z_slab(), arch, {Axis::x, Axis::y}, passes);
  d.column = default_axes_plan(d.y_slab(), arch, {Axis::z}, passes);
  d.slab.precision = d.column.precision = precision;
  return d;
}

SlabDecomposition in_exchange_units(const SlabDecomposition& d) {
  SlabDecomposition units = d;
  units.size.nx *= static_cast<std::int64_t>(complex_value_bytes(d.slab.precision)) / exchange_unit_bytes;
  return units;
}

}  // namespace fft3d
