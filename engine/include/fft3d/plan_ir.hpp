// PlanIR: the plan language (docs/plan-language.md) as plain value types.
//
// A sub-computation A(count, radix, stride, span, tw) on axis A of length N means: for every line along A, every
// group g < N/span and offset j < stride, a radix-point DFT over positions g*span + j + k*stride (k < radix),
// output m stored back at position m, then (with tw) multiplied by w_span^(j*m). Braces group sub-computations into
// one kernel (one read and one write of the volume).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fft3d {

enum class Axis : std::uint8_t { x = 0, y = 1, z = 2 };
inline constexpr std::array<Axis, 3> all_axes{Axis::x, Axis::y, Axis::z};

char axis_letter(Axis axis);      // 'X', 'Y', 'Z'
int axis_index(Axis axis);        // 0, 1, 2

struct SubComputation {
  Axis axis = Axis::x;
  std::int64_t count = 0;
  std::int64_t radix = 0;
  std::int64_t stride = 0;
  std::int64_t span = 0;
  bool twiddle = false;

  friend bool operator==(const SubComputation&, const SubComputation&) = default;
};

// Complex to complex, real to complex (forward) and complex to real (inverse): FFTW's, cuFFT's and numpy.fft's
// conventions (docs/plan-language.md, "Real transforms").
enum class TransformKind : std::uint8_t { c2c, r2c, c2r };

// The real step of a real transform, "R2C(X, 256)" or "C2R(X, 256)": on X, whose real rows hold `length` = NX
// reals. NX even: the rows are read as NX/2 complex values (x[2n] + i x[2n+1]) that the plan's X stages transform
// (X stages have length NX/2). R2C: after every X stage and before every Y and Z stage, it turns the NX/2 complex
// frequencies of each row into the NX/2 + 1 frequencies of the half spectrum. C2R: after every Y and Z stage and
// before every X stage, it turns the NX/2 + 1 values of each row into the NX/2 complex values whose transform
// unpacks into the reals. NX odd: nothing pairs, so the X stages transform the NX reals as complex values with zero
// imaginary parts (X stages have length NX), all of them in the step's kernel (an X intermediate of NX complex
// values a row has no room in the real rows). R2C keeps frequencies 0 .. (NX-1)/2 of each row; C2R fills
// frequency NX - k with the conjugate of k and keeps the real parts of the inverse X transform.
struct RealStep {
  TransformKind kind = TransformKind::r2c;  // r2c or c2r
  Axis axis = Axis::x;
  std::int64_t length = 0;

  friend bool operator==(const RealStep&, const RealStep&) = default;
};

struct Kernel {
  Kernel() = default;
  Kernel(std::vector<SubComputation> stages) : subs(std::move(stages)) {}  // NOLINT: a kernel is its stages

  std::vector<SubComputation> subs;
  // At most one kernel of a plan holds the real step; it runs after the first `real_position` subs of the kernel.
  std::optional<RealStep> real;
  std::size_t real_position = 0;

  friend bool operator==(const Kernel&, const Kernel&) = default;
};

// The precision of the data and of the arithmetic: fp32 (complex float) or fp64 (complex double).
enum class Precision { fp64, fp32 };
// Bytes of one real value (float or double) and of one complex value (two of them) in `precision`.
constexpr std::size_t real_value_bytes(Precision precision) {
  return precision == Precision::fp64 ? sizeof(double) : sizeof(float);
}
constexpr std::size_t complex_value_bytes(Precision precision) { return 2 * real_value_bytes(precision); }

// Volume extents, X contiguous: element (x, y, z) lives at x + nx * (y + ny * z).
struct Extents {
  std::int64_t nx = 1;
  std::int64_t ny = 1;
  std::int64_t nz = 1;

  std::int64_t operator[](Axis axis) const;
  std::int64_t elements() const;  // nx * ny * nz; throws UsageError when the product does not fit in 64 bits
  friend bool operator==(const Extents&, const Extents&) = default;
};

// `size` is the size of the transform: for a real plan, the real volume (NX reals per row).
// `axes` are the transformed axes in X, Y, Z order, without repeats (numpy's fftn(axes=...)): an axis not among
// them has no stages, and its coordinate is a batch index. Last, so that {size, arch, kernels} still builds a plan.
struct Plan {
  Extents size;
  std::string arch;
  std::vector<Kernel> kernels;
  std::vector<Axis> axes{all_axes.begin(), all_axes.end()};
  // The data's precision, and how many volumes one run transforms (one after another, each as the plan's size
  // says; the distance between them is the run's batch stride). Each is written in the plan file only when it is
  // not the default, so that the text and stable_hash of an fp32 plan of one volume stay as before.
  Precision precision = Precision::fp32;
  std::int64_t batch = 1;

  friend bool operator==(const Plan&, const Plan&) = default;
};

// The plan's real step, if any (the first one when a malformed plan has several).
std::optional<RealStep> real_step_of(const Plan& plan);
// c2c, or the kind of the plan's real step.
TransformKind kind_of(const Plan& plan);
// Whether the plan transforms `axis` (it is among plan.axes).
bool transforms(const Plan& plan, Axis axis);
// Whether the plan transforms all three axes (the default, and the only case to_yaml leaves `axes` out).
bool transforms_all_axes(const Plan& plan);
// The product of the transformed axes' lengths (NX for X of a real plan: its real length): what Scaling::full
// divides by. Throws UsageError when it does not fit in 64 bits.
std::int64_t transformed_elements(const Plan& plan);
// "[X, Y]": the axes as the plan file writes them.
std::string axes_text(const std::vector<Axis>& axes);
// Whether the plan is real with an even NX, its rows packed as NX/2 complex values (RealStep).
bool packs_real_rows(const Plan& plan);
// Whether the plan is real with an odd NX, its rows transformed as NX complex values (RealStep).
bool odd_real_rows(const Plan& plan);
// The length the X stages of a real plan transform: NX/2 for an even NX, NX for an odd one.
std::int64_t real_x_stage_length(std::int64_t nx);
// The length the stages of `axis` transform: size[axis], except X of a real plan: real_x_stage_length(NX).
std::int64_t stage_length(const Plan& plan, Axis axis);
// The complex volume the stages run on: (real_x_stage_length(NX), NY, NZ) for a real plan, the size otherwise.
Extents stage_extents(const Plan& plan);
// The half spectrum of a real plan: (NX/2 + 1, NY, NZ) (NX/2 rounded down); the size otherwise.
Extents spectrum_extents(const Plan& plan);

// The paper's notation: "Z(16, 16, 16, 256, tw)".
std::string to_string(const SubComputation& sub);
// "R2C(X, 256)".
std::string to_string(const RealStep& step);
// "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)" (no braces: one YAML list entry).
std::string to_string(const Kernel& kernel);
// "{Y(...)} {X(...), Y(...)}": the brace form of the whole kernel list.
std::string to_brace_string(const std::vector<Kernel>& kernels);
// "256x256x256".
std::string to_string(const Extents& size);
// The canonical plan file: size, arch, axes (only when not all three, so that the text and stable_hash of a plan
// of every axis stay as before) and one kernels entry per kernel. parse_plan(to_yaml(p)) == p.
std::string to_yaml(const Plan& plan);

// Writes to_yaml(plan) (and the notation for the others): readable values in test failures and logs.
std::ostream& operator<<(std::ostream& out, const Plan& plan);
std::ostream& operator<<(std::ostream& out, const Kernel& kernel);
std::ostream& operator<<(std::ostream& out, const SubComputation& sub);

std::size_t hash_value(const SubComputation& sub);
std::size_t hash_value(const Kernel& kernel);
std::size_t hash_value(const Plan& plan);
// A 64-bit FNV-1a hash of the canonical text: stable across runs and builds (used for cache keys and headers).
std::uint64_t stable_hash(const Plan& plan);
// The one printed form of a stable hash: 16 lower-case hex digits, zero-padded ("00a1...").
std::string hash_text(std::uint64_t hash);

// The stages of one axis in execution order (kernel order, then order inside a kernel).
std::vector<SubComputation> stages_of(const Plan& plan, Axis axis);

}  // namespace fft3d

template <> struct std::hash<fft3d::SubComputation> {
  std::size_t operator()(const fft3d::SubComputation& s) const { return fft3d::hash_value(s); }
};
template <> struct std::hash<fft3d::Kernel> {
  std::size_t operator()(const fft3d::Kernel& k) const { return fft3d::hash_value(k); }
};
template <> struct std::hash<fft3d::Plan> {
  std::size_t operator()(const fft3d::Plan& p) const { return fft3d::hash_value(p); }
};
