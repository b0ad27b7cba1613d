// Which axis lengths fft3d transforms: every length whose only prime factors are 2, 3, 5 and 7 (GROMACS's PME grid
// rule; FFTW and cuFFT are fastest there too). A length with another prime factor is refused with a message that
// names the factor and the nearest supported lengths, so that a user can pad to one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// The prime factors a length or a radix may have: the butterflies the CPU backend and the GPU emitter implement.
inline constexpr std::array<std::int64_t, 4> supported_factors{2, 3, 5, 7};

// Whether n >= 1 has no prime factor outside supported_factors (1 is supported: an untransformed axis).
bool is_supported_length(std::int64_t n);

// The prime factors of n >= 1 in ascending order, with repeats (1 -> {}): 1001 -> {7, 11, 13}.
std::vector<std::int64_t> prime_factors(std::int64_t n);

// "7·11·13": the factorization as a message writes it ("1" for 1).
std::string factorization_text(std::int64_t n);

// The nearest supported lengths at or below and at or above n >= 1 (n itself when it is supported). Supported
// lengths are dense (the gap after n is under n/4 past 10), so the search is short.
std::int64_t supported_length_below(std::int64_t n);
std::int64_t supported_length_above(std::int64_t n);

// Why n is not supported, for a message: "1001 = 7·11·13: 11 is not a supported factor (lengths must factor into
// 2, 3, 5 and 7); the nearest supported lengths are 1000 and 1008". @pre n >= 1 and !is_supported_length(n).
std::string unsupported_length_reason(std::int64_t n);

// The size a transform of `size` is planned as: its unit axes dropped and the remaining lengths moved down to X, Y
// and Z in order (1xNxM -> NxMx1, 1xNx1 and 1x1xN -> Nx1x1, Nx1xM -> NxMx1); a real kind (r2c, c2r) keeps X, its
// real axis, and squeezes Y and Z only (Nx1xM -> NxMx1). Why it is the same transform: the DFT of a length-1 axis
// is the identity, and with a unit axis the element at x + NX*(y + NY*z) sits where the squeezed size puts it, so
// the squeezed transform reads and writes the same memory in the same natural order. Why it pays: the lowering
// widens X into long contiguous runs, which a unit X cannot give. @post squeezed.elements() == size.elements(),
// the lengths other than 1 are kept in order, and squeezed_extents(squeezed, kind) == squeezed.
Extents squeezed_extents(const Extents& size, TransformKind kind = TransformKind::c2c);

}  // namespace fft3d
