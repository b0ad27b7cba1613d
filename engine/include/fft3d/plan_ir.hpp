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
#include <string>
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

struct Kernel {
  std::vector<SubComputation> subs;

  friend bool operator==(const Kernel&, const Kernel&) = default;
};

// Volume extents, X contiguous: element (x, y, z) lives at x + nx * (y + ny * z).
struct Extents {
  std::int64_t nx = 1;
  std::int64_t ny = 1;
  std::int64_t nz = 1;

  std::int64_t operator[](Axis axis) const;
  std::int64_t elements() const;  // nx * ny * nz; throws UsageError when the product does not fit in 64 bits
  friend bool operator==(const Extents&, const Extents&) = default;
};

struct Plan {
  Extents size;
  std::string arch;
  std::vector<Kernel> kernels;

  friend bool operator==(const Plan&, const Plan&) = default;
};

// The paper's notation: "Z(16, 16, 16, 256, tw)".
std::string to_string(const SubComputation& sub);
// "X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)" (no braces: one YAML list entry).
std::string to_string(const Kernel& kernel);
// "{Y(...)} {X(...), Y(...)}": the brace form of the whole kernel list.
std::string to_brace_string(const std::vector<Kernel>& kernels);
// "256x256x256".
std::string to_string(const Extents& size);
// The canonical plan file: size, arch and one kernels entry per kernel. parse_plan(to_yaml(p)) == p.
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
