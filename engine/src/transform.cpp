#include "fft3d/transform.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "fft3d/errors.hpp"

namespace fft3d {
namespace {

// The enumerator of `values` whose to_string is `name`.
template <typename Enum, std::size_t count>
Enum parse_name(const char* what, const std::string& name, const std::array<Enum, count>& values) {
  std::string accepted;
  for (std::size_t i = 0; i < count; ++i) {
    if (to_string(values[i]) == name) return values[i];
    accepted += (i == 0 ? "" : i + 1 == count ? " or " : ", ") + to_string(values[i]);
  }
  throw UsageError(std::string("unknown ") + what + " '" + name + "': expected " + accepted);
}

// Complex values of one volume as the data holds it: a real kind's half spectrum (its larger side).
std::int64_t volume_values(const TransformDesc& desc) {
  const Extents& e = desc.extents;
  return desc.kind == TransformKind::c2c ? e.elements() : Extents{e.nx / 2 + 1, e.ny, e.nz}.elements();
}

// A batch stride of `desc` (`what`: which side's) is 0 or at least a volume, and only with a complex kind.
void require_stride(const TransformDesc& desc, std::int64_t stride, const std::string& what) {
  if (stride == 0) return;
  if (desc.kind != TransformKind::c2c)
    throw UsageError(what + " " + std::to_string(stride) + ": real batches (" + to_string(desc.kind) +
                     ") take packed volumes only (batch stride 0)");
  const std::int64_t volume = desc.extents.elements();
  if (stride < volume)
    throw UsageError(what + " " + std::to_string(stride) + " is smaller than a volume of " + to_string(desc.extents) +
                     " = " + std::to_string(volume) + " elements (0: volumes packed one after another)");
}

void require_batch_supported(const TransformDesc& desc) {
  if (desc.batch < 1)
    throw UsageError("batch " + std::to_string(desc.batch) + ": a transform takes 1 or more volumes");
  require_stride(desc, desc.batch_stride, "batch stride");
  require_stride(desc, desc.output_batch_stride, "output batch stride");
  if (desc.placement == Placement::in_place && desc.output_batch_stride != 0 &&
      desc.output_batch_stride != desc.batch_stride)
    throw UsageError("output batch stride " + std::to_string(desc.output_batch_stride) + ": in place, the output's " +
                     "volumes lie where the input's do (batch stride " + std::to_string(desc.batch_stride) + ")");
}

}  // namespace

std::int64_t batch_bytes(const TransformDesc& desc) {
  const auto bytes_per_value = static_cast<std::int64_t>(complex_value_bytes(desc.precision));
  const std::int64_t last = volume_values(desc);  // the last volume needs no more than its own values
  const std::int64_t distance = std::max({desc.batch_stride, desc.output_batch_stride, last});
  const std::int64_t limit = std::numeric_limits<std::int64_t>::max() / bytes_per_value;
  if (last > limit || desc.batch - 1 > (limit - last) / distance)
    throw UsageError("batch " + std::to_string(desc.batch) + " of " + to_string(desc.extents) + " volumes " +
                     std::to_string(distance) + " elements apart: the batch's size does not fit in 64 bits");
  return ((desc.batch - 1) * distance + last) * bytes_per_value;
}

std::string to_string(Direction direction) { return direction == Direction::forward ? "forward" : "inverse"; }
std::string to_string(Order order) { return order == Order::natural ? "natural" : "digit-reversed"; }
std::string to_string(Scaling scaling) {
  return scaling == Scaling::none ? "none" : scaling == Scaling::full ? "full" : "ortho";
}

double scale_factor(Scaling scaling, std::int64_t transformed) {
  const double n = static_cast<double>(transformed);
  return scaling == Scaling::full ? 1.0 / n : scaling == Scaling::ortho ? 1.0 / std::sqrt(n) : 1.0;
}

Scaling round_trip_scaling(Scaling scaling) {
  return scaling == Scaling::none ? Scaling::full : scaling == Scaling::full ? Scaling::none : Scaling::ortho;
}
std::string to_string(Precision precision) { return precision == Precision::fp64 ? "fp64" : "fp32"; }
std::string to_string(TransformKind kind) {
  return kind == TransformKind::c2c ? "c2c" : kind == TransformKind::r2c ? "r2c" : "c2r";
}
std::string to_string(Placement placement) {
  return placement == Placement::in_place ? "in place" : "out of place";
}

Direction parse_direction(const std::string& name) {
  return parse_name("direction", name, std::array{Direction::forward, Direction::inverse});
}
Order parse_order(const std::string& name) {
  return parse_name("order", name, std::array{Order::natural, Order::digit_reversed});
}
Scaling parse_scaling(const std::string& name) {
  return parse_name("scaling", name, std::array{Scaling::none, Scaling::full, Scaling::ortho});
}
Precision parse_precision(const std::string& name) {
  return parse_name("precision", name, std::array{Precision::fp64, Precision::fp32});
}
TransformKind parse_kind(const std::string& name) {
  return parse_name("transform kind", name, std::array{TransformKind::c2c, TransformKind::r2c, TransformKind::c2r});
}
Placement parse_placement(const std::string& name) {
  return parse_name("placement", name, std::array{Placement::out_of_place, Placement::in_place});
}

void require_supported(const TransformDesc& desc, [[maybe_unused]] bool on_gpu) {
  if (desc.extents.nx < 1 || desc.extents.ny < 1 || desc.extents.nz < 1)
    throw UsageError("transform extents " + to_string(desc.extents) + ": every extent must be at least 1");
  require_batch_supported(desc);
  batch_bytes(desc);  // a batch whose size overflows
}

}  // namespace fft3d
