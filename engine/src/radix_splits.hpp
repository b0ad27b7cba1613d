// How the default planner splits an axis length into stage radices. Every length here has only the prime factors
// 2, 3, 5 and 7 (lengths.hpp), so a split is an ordered factorization; for a power of two it is the split of its
// bits, and every rule below orders those exactly as the bit splits were ordered.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace fft3d::planning {

// A tile's X extent is whole aligned chunks of this many elements (one 128-byte segment of fp32 complex values;
// lowering/kernel_spec.hpp).
inline constexpr std::int64_t x_chunk_elements = 16;

// The fewest radices of at most max_radix whose product is n: 0 for n = 1, nothing when a prime factor of n is over
// max_radix. @pre n >= 1 is a supported length, max_radix >= 2.
std::optional<int> stages_needed(std::int64_t n, std::int64_t max_radix);

// Every ordered split of n into `stages` radices in [2, max_radix] whose product is n: the most balanced first (the
// smallest max/min), ties to the lexicographically larger (larger radices first). {{}} for n = 1 and stages = 0;
// empty when no split exists.
std::vector<std::vector<std::int64_t>> radix_splits(std::int64_t n, int stages, std::int64_t max_radix);

// The product of the power-of-two radices at the end of `radices` (1 when the last one is not a power of two).
std::int64_t trailing_power_of_two(const std::vector<std::int64_t>& radices);

// Whether an X split keeps the tiles' 16-element chunks as bit fields: its last radices are powers of two whose
// product reaches min(x_chunk_elements, the power-of-two part of n), so every other radix has a stride that is a
// multiple of the chunk (or of the whole power-of-two part, for an n not a multiple of the chunk). Every split of a
// power of two does.
bool keeps_x_chunks(std::int64_t n, const std::vector<std::int64_t>& radices);

// radix_splits for the X axis: those that keep the X chunks first, each part in radix_splits's order.
std::vector<std::vector<std::int64_t>> x_radix_splits(std::int64_t n, int stages, std::int64_t max_radix);

// The number of prime factors of n with multiplicity: the most stages a split of n can have.
int most_stages(std::int64_t n);

}  // namespace fft3d::planning
