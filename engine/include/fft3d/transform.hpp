// What a transform is asked to do, shared by every backend: the descriptor a transform is built from, and the
// options of one execution.
#pragma once

#include <cstdint>
#include <string>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// Forward: sign e^(-2 pi i / n) (cuFFT and FFTW convention). Inverse: the conjugate.
enum class Direction { forward, inverse };
// Natural: frequency k at index k on every axis. DigitReversed: what the in-place DIF stages leave
// (docs/plan-language.md): frequency k1 + r1*k2 + r1*r2*k3 + ... at k1*(N/r1) + k2*(N/(r1*r2)) + ... + km. The
// order names the output's order in both directions; the input is always in natural order.
enum class Order { natural, digit_reversed };
// None: the plain sums. Full: multiply by 1/N (N = NX*NY*NZ, the transformed values), usually on the inverse.
// Ortho: multiply by 1/sqrt(N) in both directions (numpy.fft's norm="ortho": the transform is unitary), applied by
// the last kernel as full is, so it costs no pass of its own.
enum class Scaling { none, full, ortho };
// The factor a run with `scaling` multiplies its sums by, for `transformed` values (1, 1/N or 1/sqrt(N)).
double scale_factor(Scaling scaling, std::int64_t transformed);
// The scaling of the opposite transform that returns the input: none and full pair up, ortho pairs with itself.
Scaling round_trip_scaling(Scaling scaling);

struct TransformOptions {
  Direction direction = Direction::forward;
  Order order = Order::natural;
  Scaling scaling = Scaling::none;
};

enum class Placement { out_of_place, in_place };

// What to transform, as cufftPlanMany's shape or heFFTe's boxes say it: the extents, the kind, the precision of the
// device data, the batch and the placement. Direction and scaling come at execution (TransformOptions). Fields that
// the library does not offer yet (require_supported says which) are refused with UsageError, never ignored.
struct TransformDesc {
  Extents extents;                                 // NX, NY, NZ; X contiguous
  TransformKind kind = TransformKind::c2c;
  Precision precision = Precision::fp32;           // of the data a GPU transform reads and writes
  std::int64_t batch = 1;                          // volumes one after another
  std::int64_t batch_stride = 0;                   // elements from one volume's start to the next; 0: the volume
  // The same in the output where it differs, out of place (cufftPlanMany's odist, batch_stride its idist); 0: as
  // batch_stride.
  std::int64_t output_batch_stride = 0;
  Placement placement = Placement::out_of_place;

  friend bool operator==(const TransformDesc&, const TransformDesc&) = default;
};

// Throws UsageError naming the field when `desc` asks for what this build does not offer: a real kind (r2c, c2r)
// with an odd NX, a batch under 1, a batch stride with a real kind (real batches are packed), a batch stride
// (either side's) other than 0 smaller than a volume, an output batch stride other than the input's in place, a
// batch whose size overflows (batch_bytes), an empty or overflowing extent.
// fp64 runs on both backends (`on_gpu` says which asks).
void require_supported(const TransformDesc& desc, bool on_gpu);
// Bytes of the batch's larger side as `desc` lays it out: (batch - 1) volume distances and one volume, in the
// complex values of the data (a real kind: its half spectrum), the larger of the input's and the output's. Throws
// UsageError when that does not fit in 64 bits.
// @pre desc.batch >= 1 and both batch strides are 0 or at least a volume (require_supported checks both first).
std::int64_t batch_bytes(const TransformDesc& desc);

std::string to_string(Direction direction);
std::string to_string(Order order);
std::string to_string(Scaling scaling);
std::string to_string(Precision precision);
std::string to_string(TransformKind kind);
std::string to_string(Placement placement);

// The inverses of to_string, the one place where these names are read: each takes exactly the name to_string
// gives, and throws UsageError naming the value and the accepted names otherwise.
Direction parse_direction(const std::string& name);
Order parse_order(const std::string& name);
Scaling parse_scaling(const std::string& name);
Precision parse_precision(const std::string& name);
TransformKind parse_kind(const std::string& name);
Placement parse_placement(const std::string& name);

}  // namespace fft3d
