#include "fft3d/transform.hpp"

#include "fft3d/errors.hpp"

namespace fft3d {

std::string to_string(Direction direction) { return direction == Direction::forward ? "forward" : "inverse"; }
std::string to_string(Order order) { return order == Order::natural ? "natural" : "digit-reversed"; }
std::string to_string(Scaling scaling) { return scaling == Scaling::none ? "none" : "full"; }
std::string to_string(Precision precision) { return precision == Precision::fp64 ? "fp64" : "fp32"; }
std::string to_string(TransformKind kind) {
  return kind == TransformKind::c2c ? "c2c" : kind == TransformKind::r2c ? "r2c" : "c2r";
}
std::string to_string(Placement placement) {
  return placement == Placement::in_place ? "in place" : "out of place";
}

void require_supported(const TransformDesc& desc, bool on_gpu) {
  if (desc.extents.nx < 1 || desc.extents.ny < 1 || desc.extents.nz < 1)
    throw UsageError("transform extents " + to_string(desc.extents) + ": every extent must be at least 1");
  if (desc.kind != TransformKind::c2c)
    throw UsageError("transform kind " + to_string(desc.kind) + ": only c2c transforms are offered so far");
  if (desc.batch != 1 || desc.batch_stride != 0)
    throw UsageError("batch " + std::to_string(desc.batch) + " (stride " + std::to_string(desc.batch_stride) +
                     "): one volume per transform so far (batch 1, stride 0)");
  if (on_gpu && desc.precision != Precision::fp32)
    throw UsageError("precision " + to_string(desc.precision) + ": the GPU transform runs fp32 so far");
}

}  // namespace fft3d
