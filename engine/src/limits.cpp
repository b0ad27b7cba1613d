#include "fft3d/limits.hpp"
#include "fft3d/lengths.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <iomanip>
#include <sstream>

#include "fft3d/checks.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/diagnostics.hpp"

namespace fft3d {
namespace {

constexpr double complex_fp64_bytes = 16;
// Peak host memory of a checked run in fp64 volumes, as the maximum resident set of `fft3d run` on the CPU backend
// shows it: 2D and 3D sizes hold 6 volumes at once (input, output, reference, the round trip's volume and the
// backend's two working copies), 1D sizes 10.7 (FFTW's plan for one long line keeps buffers of its own). The margin
// covers the allocator and the twiddle tables.
constexpr double run_volumes_3d = 6.5;
constexpr double run_volumes_1d = 11.5;

std::string bytes_text(double bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(0) << bytes << " B (" << std::setprecision(1) << bytes / 1e9 << " GB)";
  return text.str();
}

}  // namespace

std::string shown_text(std::string_view text) {
  constexpr std::size_t shown = 40;
  std::string quoted;
  for (char c : text.substr(0, shown)) quoted += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return text.size() > shown ? quoted + "..." : quoted;
}

std::optional<std::int64_t> checked_multiply(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

std::optional<std::string> over_1d_limit(const Extents& size) {
  const int long_axes = (size.nx > 1) + (size.ny > 1) + (size.nz > 1);
  const std::int64_t length = std::max({size.nx, size.ny, size.nz});
  if (long_axes != 1 || length <= max_1d_length) return std::nullopt;
  const int limit_log2 = std::countr_zero(static_cast<std::uint64_t>(max_1d_length));
  return "size " + to_string(size) + ": a 1D transform of " + std::to_string(length) +
         " points is over the supported maximum of 2^" + std::to_string(limit_log2) + " = " +
         std::to_string(max_1d_length) + " points";
}

void check_size_limits(const Extents& size, std::span<const Axis> transformed) {
  for (Axis axis : all_axes) {
    const bool checked = size[axis] < 1 || std::find(transformed.begin(), transformed.end(), axis) != transformed.end();
    if (checked && !is_supported_length(size[axis]))
      throw UsageError("size " + to_string(size) + ": the " + std::string(1, axis_letter(axis)) + " length " +
                       (size[axis] < 1 ? std::to_string(size[axis]) + " is not positive"
                                       : unsupported_length_reason(size[axis])));
  }
  if (const std::optional<std::string> why = over_1d_limit(size)) throw UsageError(*why);
  const std::optional<std::int64_t> plane = checked_multiply(size.nx, size.ny);
  const std::optional<std::int64_t> volume = plane ? checked_multiply(*plane, size.nz) : std::nullopt;
  if (!volume || *volume > max_elements)
    throw UsageError("size " + to_string(size) + " has more elements than any buffer can hold: " +
                     std::to_string(size.nx) + " * " + std::to_string(size.ny) + " * " + std::to_string(size.nz) +
                     " is over the limit of 2^58 = " + std::to_string(max_elements) + " complex values");
}

double run_host_bytes(const Extents& size) {
  const int long_axes = (size.nx > 1) + (size.ny > 1) + (size.nz > 1);
  const double volumes = long_axes <= 1 ? run_volumes_1d : run_volumes_3d;
  return volumes * complex_fp64_bytes * static_cast<double>(size.nx) * static_cast<double>(size.ny) *
         static_cast<double>(size.nz);
}

void check_run_host_memory(const Extents& size, std::int64_t available, std::span<const Axis> transformed) {
  check_size_limits(size, transformed);
  const double needed = run_host_bytes(size);
  if (needed > static_cast<double>(available))
    throw OutOfMemory("a checked run of " + to_string(size) + " needs about " + bytes_text(needed) +
                      " of host memory (the input, output and reference volumes, the backend's copies and the fp64 "
                      "oracle's); this machine has " + bytes_text(static_cast<double>(available)) +
                      " (on a GPU, --backend cuda --in-place checks it in closed form instead)");
}

ArchProfile require_arch_profile(std::string_view name) {
  if (std::optional<ArchProfile> profile = find_arch_profile(name)) return *profile;
  throw UsageError("unknown arch '" + shown_text(name) + "': expected one of " + arch_profile_names());
}

void check_thread_count(int threads) {
  if (threads < 0 || threads > max_cpu_threads)
    throw UsageError("--threads " + std::to_string(threads) + ": expected 0 (one per core) to " +
                     std::to_string(max_cpu_threads));
}

std::uint64_t parse_unsigned(std::string_view text, const std::string& what, std::uint64_t max) {
  const auto refuse = [&](const std::string& why) { return UsageError(what + " '" + shown_text(text) + "': " + why); };
  if (text.empty()) throw refuse("expected a number");
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw refuse("expected digits only (an unsigned decimal number)");
    if (__builtin_mul_overflow(value, std::uint64_t{10}, &value) ||
        __builtin_add_overflow(value, static_cast<std::uint64_t>(c - '0'), &value) || value > max)
      throw refuse("over the largest value, " + std::to_string(max));
  }
  return value;
}

}  // namespace fft3d
