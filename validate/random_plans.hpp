// Random legal plans: random sizes, random radix splits, random interleavings of the axes' stages and random kernel
// boundaries. By default the lengths are powers of two; RandomPlanLimits::factors = {2, 3, 5, 7} draws mixed-radix
// plans (lengths 2^a 3^b 5^c 7^d, radix chains any chain of divisors). Every plan passes fft3d::check_plan; the same
// generator state gives the same plan (with one standard library: the std:: distributions differ between
// implementations).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <random>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/planner.hpp"

namespace fft3d::validate {

// RandomPlanLimits::factors of power-of-two plans.
inline constexpr std::array<std::int64_t, 1> power_of_two_factor{2};

struct RandomPlanLimits {
  std::int64_t max_axis_length = 256;                 // a power of two
  std::int64_t max_elements = std::int64_t{1} << 18;  // a power of two; keeps a test's plans fast
  std::int64_t max_radix = 0;                         // 0: no limit below the axis length
  std::string arch{};                                 // a profile name; empty: drawn among all profiles
  // The primes the axis lengths may have, a non-empty subset of supported_factors (e.g. supported_factors itself),
  // viewed, not owned. {2}: power-of-two plans, drawn
  // exactly as before mixed radices existed (the same generator state gives the same plan). Otherwise each axis
  // length is drawn uniformly among the lengths with these factors (1 included) and each next radix uniformly among
  // the divisors >= 2 of what is left (within max_radix).
  std::span<const std::int64_t> factors = power_of_two_factor;
};

// Throws UsageError unless every limit is a power of two >= 2 (max_radix may be 0), max_radix (when set) is at least
// the largest factor, factors is a non-empty set of supported factors, and arch is empty or a known profile.
// @post check_plan(result) is empty; each axis length has only prime factors in limits.factors and is
//       <= limits.max_axis_length, the volume is <= limits.max_elements and has more than one element; every radix
//       is <= limits.max_radix (when set); result.arch == limits.arch (when set)
Plan random_legal_plan(std::mt19937_64& random, const RandomPlanLimits& limits = {});

// A random legal real plan of `kind` (r2c or c2r; UsageError otherwise): NX >= 2 and even, its X stages a random
// chain over NX/2, Y and Z stages interleaved at random, random kernel boundaries, and the real step where its kind
// needs it (at a kernel boundary, at the end of one kernel or the start of the next). Throws UsageError for limits
// as random_legal_plan does, for max_elements below 4, or factors without 2.
// @post check_plan(result) is empty; kind_of(result) == kind; lengths, volume, radices and arch within `limits`
//       (the volume counts the NX reals per row)
Plan random_legal_real_plan(std::mt19937_64& random, TransformKind kind, const RandomPlanLimits& limits = {});

// A random legal real plan of `kind` with an odd NX (RealStep): NX among the lengths of limits.factors' odd primes
// (1 included), its X stages a random chain over NX, all in the step's kernel (the first for r2c, the last for
// c2r) next to the step, Y and Z stages interleaved at random, random kernel boundaries. Throws UsageError for
// limits as random_legal_plan does, for max_elements below 4, or factors without an odd prime.
// @post check_plan(result) is empty; kind_of(result) == kind; NX is odd; lengths, volume, radices and arch within
//       `limits`
Plan random_legal_odd_real_plan(std::mt19937_64& random, TransformKind kind, const RandomPlanLimits& limits = {});

// Every ordered split of `length` >= 1 into radices >= 2 (each dividing what the ones before it leave), the first
// radix ascending: 2^(log2(length) - 1) of them for a power of two, {{}} (one empty split) for length 1.
std::vector<std::vector<std::int64_t>> all_radix_splits(std::int64_t length);

}  // namespace fft3d::validate
