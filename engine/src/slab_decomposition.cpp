// The slab decomposition's checks and local plans (slab_decomposition.hpp).
#include "fft3d/slab_decomposition.hpp"

#include <string>

#include "fft3d/errors.hpp"
#include "fft3d/planner.hpp"

namespace fft3d {

SlabDecomposition slab_decomposition(const Extents& size, int gpus, const std::string& arch) {
  require_slab_split(size, gpus);
  SlabDecomposition d;
  d.size = size;
  d.gpus = gpus;
  // Each local plan is planned for its own volume: X and Y on the z slab, Z on the y slab.
  d.slab = default_axes_plan(d.z_slab(), arch, {Axis::x, Axis::y});
  d.column = default_axes_plan(d.y_slab(), arch, {Axis::z});
  return d;
}

}  // namespace fft3d
