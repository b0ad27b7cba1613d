// What the library refuses before doing any work: sizes no buffer can hold, runs whose host buffers do not fit,
// thread counts no machine benefits from, and plan files too large to be plans. Every refusal names the limit and
// the numbers, and costs no allocation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "fft3d/arch_profile.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d {

// a * b, or nothing when the product does not fit in 64 bits.
std::optional<std::int64_t> checked_multiply(std::int64_t a, std::int64_t b);

// The longest 1D transform (a size with two axes of length 1), in points: the planner's two- and three-kernel plans
// and the kernels' 32-bit twiddle exponents are built and tested up to it.
inline constexpr std::int64_t max_1d_length = std::int64_t{1} << 27;
// Why `size` is a 1D transform over max_1d_length (the message names the size and the limit), or nothing.
std::optional<std::string> over_1d_limit(const Extents& size);

// Throws UsageError unless every axis length is positive, the length of every axis in `transformed` is supported
// (lengths.hpp: factors 2, 3, 5 and 7 only; an axis a plan does not transform is a batch index of any length), the
// volume holds at most max_elements (checks.hpp) values and a 1D size is at most max_1d_length long. Constant
// time: callers run it before any planning or allocation.
void check_size_limits(const Extents& size, std::span<const Axis> transformed = all_axes);

// Host bytes a checked run (`fft3d run` on a size) holds at its peak: the input, output and reference volumes of
// the check, the backend's own copies and the round trip's volume, and the fp64 oracle's working memory, each a
// volume of complex fp64 values. 1D sizes (two axes of length 1) take more: FFTW's plan for one long line keeps
// buffers of its own. A double, so that sizes near max_elements do not overflow.
double run_host_bytes(const Extents& size);
// check_size_limits(size, transformed), then throws OutOfMemory naming both numbers when run_host_bytes(size)
// exceeds `available`.
void check_run_host_memory(const Extents& size, std::int64_t available,
                           std::span<const Axis> transformed = all_axes);

// The profile of that name; throws UsageError naming the known ones otherwise. Callers check a name here before it
// becomes part of a path.
ArchProfile require_arch_profile(std::string_view name);

// The most threads a CPU run may ask for: more only adds the cost of starting them.
inline constexpr int max_cpu_threads = 1024;
// Throws UsageError unless 0 <= threads <= max_cpu_threads (0: one per core).
void check_thread_count(int threads);

// The largest plan file read: a plan of thousands of kernels fits many times over.
inline constexpr std::int64_t max_plan_file_bytes = std::int64_t{1} << 22;

// `text` for a message: its first 40 characters, unprintable ones as '?', "..." after a longer text.
std::string shown_text(std::string_view text);

// An unsigned decimal option value: digits only (no sign, no space), at most `max`. Throws UsageError naming `what`
// otherwise. Linear in the text.
std::uint64_t parse_unsigned(std::string_view text, const std::string& what,
                             std::uint64_t max = UINT64_MAX);

}  // namespace fft3d
