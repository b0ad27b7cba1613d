// Random legal plans: random power-of-two sizes, random radix splits, random interleavings of the axes' stages and
// random kernel boundaries. Every plan passes fft3d::check_plan; the same generator state gives the same plan (with
// one standard library: the std:: distributions differ between implementations).
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d::validate {

struct RandomPlanLimits {
  std::int64_t max_axis_length = 256;                 // a power of two
  std::int64_t max_elements = std::int64_t{1} << 18;  // a power of two; keeps a test's plans fast
  std::int64_t max_radix = 0;                         // 0: no limit below the axis length
};

// Throws UsageError unless every limit is a power of two >= 2 (max_radix may be 0).
// @post check_plan(result) is empty; each axis length is a power of two <= limits.max_axis_length, the volume is
//       <= limits.max_elements and has more than one element
Plan random_legal_plan(std::mt19937_64& random, const RandomPlanLimits& limits = {});

// The DIF chain of one axis with these radices: the first stage spans the axis, each next span is the previous
// stride, twiddles exactly where the stride is > 1.
// @pre the radices multiply to length
std::vector<SubComputation> dif_chain(Axis axis, std::int64_t length, std::span<const std::int64_t> radices);

// Every ordered split of `length` (a power of two) into power-of-two radices >= 2: 2^(log2(length) - 1) of them,
// {} for length 1.
std::vector<std::vector<std::int64_t>> all_radix_splits(std::int64_t length);

}  // namespace fft3d::validate
