// Work split over host threads: shared by the CPU backend and the validation oracle.
#pragma once

#include <cstdint>
#include <functional>

namespace fft3d {

// Calls body(begin, end) on `threads` threads (the calling one included) over contiguous, near-equal parts of
// [0, count); returns when all are done and rethrows the first exception any of them threw.
// @post every index of [0, count) is in exactly one call's range
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t, std::int64_t)>& body);

// The hardware threads, but no more than leave each at least `min_per_thread` items of `count` (at least 1).
int threads_for(std::int64_t count, std::int64_t min_per_thread);

}  // namespace fft3d
