#include "slab_steps.hpp"

namespace fft3d {
namespace {

using enum SlabBuffer;
using enum SlabStepKind;

// Forward: the slab plan, to y slabs, the column plan, and for natural order back to z slabs. Inverse: the mirror
// (the y-slab layout starts at the column plan). Every flow ends in `out` without a copy pass and leaves `in` alone
// out of place.
std::vector<SlabStep> forward_steps(SlabLayout layout, bool in_place) {
  if (layout == SlabLayout::natural)
    return in_place ? std::vector<SlabStep>{{slab, out, out}, {to_y_slabs, out, exchange},
                                            {column, exchange, exchange}, {to_z_slabs, exchange, out}}
                    : std::vector<SlabStep>{{slab, in, exchange}, {to_y_slabs, exchange, out},
                                            {column, out, exchange}, {to_z_slabs, exchange, out}};
  return in_place ? std::vector<SlabStep>{{slab, out, out}, {to_y_slabs, out, exchange}, {column, exchange, out}}
                  : std::vector<SlabStep>{{slab, in, exchange}, {to_y_slabs, exchange, out}, {column, out, out}};
}

std::vector<SlabStep> inverse_steps(SlabLayout layout, bool in_place) {
  const SlabBuffer input = in_place ? out : in;
  if (layout == SlabLayout::natural)
    return {{to_y_slabs, input, exchange}, {column, exchange, exchange}, {to_z_slabs, exchange, out}, {slab, out, out}};
  return in_place ? std::vector<SlabStep>{{column, out, out}, {to_z_slabs, out, exchange}, {slab, exchange, out}}
                  : std::vector<SlabStep>{{column, in, exchange}, {to_z_slabs, exchange, out}, {slab, out, out}};
}

}  // namespace

std::vector<SlabStep> slab_steps(Direction direction, SlabLayout layout, bool in_place) {
  return direction == Direction::forward ? forward_steps(layout, in_place) : inverse_steps(layout, in_place);
}

}  // namespace fft3d
