// Rule: where a stage's butterfly inputs sit in the tile. Input k of a butterfly is k*stride further along the
// axis; inside the tile that is (stride / mode.stride) steps of the tile mode whose strides cover it.
#include "lowering/tile_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

std::int64_t element_step(const KernelSpec& spec, const SubComputation& sub) {
  const AxisTile& axis = spec.axes[axis_index(sub.axis)];
  std::int64_t local_stride = 1;  // local-index distance between consecutive values of this mode
  for (const TileMode& mode : axis.tile) {
    const bool inside = sub.stride >= mode.stride && sub.span <= mode.stride * mode.extent;
    if (inside && sub.stride % mode.stride == 0)
      return (sub.stride / mode.stride) * local_stride * tile::axis_linear_stride(spec, sub.axis);
    local_stride *= mode.extent;
  }
  throw LoweringError(to_string(sub) + ": no tile mode holds its butterflies (lowering bug)");
}

}  // namespace

std::vector<TileStage> tile_stages(const KernelSpec& spec, const Kernel& kernel) {
  std::vector<TileStage> stages;
  for (const SubComputation& sub : kernel.subs) stages.push_back({sub, element_step(spec, sub), {}});
  return stages;
}

}  // namespace fft3d::lowering
