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

// A real inverse ends in the C2R slab plan, whose real output has no room for the half spectrum out of place (and
// written out of place would be packed rows, not the padded ones of in place): the exchange back to z slabs lands
// in the input out of place (the caller's input is scratch, as cuFFT's C2R input is) and in `out` in place, and the
// slab plan runs from there.
std::vector<SlabStep> real_inverse_steps(SlabLayout layout, bool in_place) {
  const SlabBuffer z_slabs = in_place ? out : in;
  if (layout == SlabLayout::natural)
    return {{to_y_slabs, z_slabs, exchange}, {column, exchange, exchange}, {to_z_slabs, exchange, z_slabs},
            {slab, z_slabs, out}};
  return {{column, z_slabs, exchange}, {to_z_slabs, exchange, z_slabs}, {slab, z_slabs, out}};
}

}  // namespace

std::vector<SlabStep> slab_steps(Direction direction, SlabLayout layout, bool in_place, TransformKind kind) {
  if (direction == Direction::forward) return forward_steps(layout, in_place);
  return kind == TransformKind::c2c ? inverse_steps(layout, in_place) : real_inverse_steps(layout, in_place);
}

}  // namespace fft3d
