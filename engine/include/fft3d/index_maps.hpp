// Index maps of the plan language (docs/plan-language.md): where a stage's butterflies read and write, which twiddle
// they apply, and where the in-place DIF stages of one axis leave each frequency. Plain integer functions with stated
// contracts, shared by the CPU backend, the CUDA emitter and the checkers; they depend on PlanIR only.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// The radices of `axis` in stage order; {} for an axis without stages (an axis of length 1).
// @post for a legal plan, the product of the result is plan.size[axis]
std::vector<std::int64_t> radices_of(const Plan& plan, Axis axis);

// The product of `radices` (1 for {}): the axis length they factor.
std::int64_t length_of(std::span<const std::int64_t> radices);

// Where the in-place DIF stages with these radices (stage order) leave frequency k:
// k = k1 + r1*k2 + r1*r2*k3 + ... lands at k1*(N/r1) + k2*(N/(r1*r2)) + ... + km, N = length_of(radices).
// @pre every radix >= 1, 0 <= k < N
// @post 0 <= result < N; k -> result is a bijection of [0, N); frequency_at_position(result, radices) == k
std::int64_t digit_reversed_position(std::int64_t k, std::span<const std::int64_t> radices);

// The inverse map: the frequency the DIF stages leave at `position`.
// @pre every radix >= 1, 0 <= position < N
// @post 0 <= result < N; digit_reversed_position(result, radices) == position
std::int64_t frequency_at_position(std::int64_t position, std::span<const std::int64_t> radices);

// digit_reversed_position for every frequency at once.
// @post result.size() == N; result[k] == digit_reversed_position(k, radices)
std::vector<std::int64_t> digit_reversed_positions(std::span<const std::int64_t> radices);

// The position along the axis of point k of the butterfly (group g, offset j) of `sub`: g*span + j + k*stride.
// @pre 0 <= g < N/span, 0 <= j < stride, 0 <= k < radix
// @post 0 <= result < N; over all (g, j, k) each position occurs exactly once
std::int64_t butterfly_position(const SubComputation& sub, std::int64_t g, std::int64_t j, std::int64_t k);

// The exponent e of the twiddle w_span^e that output m of the butterfly at offset j is multiplied by: j*m with
// `tw`, 0 with `no-tw`.
// @pre 0 <= j < stride, 0 <= m < radix
// @post 0 <= result < span (no reduction needed: j*m <= (stride-1)*(radix-1) < span)
std::int64_t twiddle_exponent(const SubComputation& sub, std::int64_t j, std::int64_t m);

}  // namespace fft3d
