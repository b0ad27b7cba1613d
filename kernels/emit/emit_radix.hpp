// The in-register radix-r DFT as data: a decimation-in-frequency network of small-prime butterflies on one
// thread's r registers, then a register permutation to natural order. write_radix_function prints exactly this
// network, and run_radix_network executes it in double, so a CPU test of the network tests the printed code.
#pragma once

#include <complex>
#include <cstdint>
#include <variant>
#include <vector>

namespace fft3d::emit {

// The radix-p DFT (p = 2, 3, 5 or 7, forward sign) of registers[k], k < p, output m written to registers[m] and
// then multiplied by w_span^exponents[m] (w_n = exp(-2 pi i / n)): the plan's twiddled butterfly in miniature.
struct RadixButterfly {
  std::vector<std::int64_t> registers;
  std::int64_t twiddle_span = 1;
  std::vector<std::int64_t> exponents;  // one per output; 0: no multiplication
};

// Registers permuted: new v[m] = old v[source[m]].
struct RadixPermutation {
  std::vector<std::int64_t> source;
};

using RadixStep = std::variant<RadixButterfly, RadixPermutation>;

struct RadixNetwork {
  std::int64_t radix = 1;
  std::vector<RadixStep> steps;
};

// The prime factors of `radix` with repeats, the odd ones first (largest first), then the twos: the butterflies
// each value passes through. @pre radix >= 1 has only the prime factors 2, 3, 5 and 7 (else UsageError).
std::vector<std::int64_t> radix_network_primes(std::int64_t radix);

// The network of `radix`, by its factors:
// - a prime power p^a: the DIF network, for each of its a stages, within every block of the current span n,
//   butterflies on registers j + k*(n/p) (j < n/p) twiddled by w_n^(j*m), which leaves output m at its digit-reversed
//   position (for a power of two, the radix-2 network the tile kernels have always printed);
// - otherwise n = n1*n2 with n1 the power of the largest prime and n1, n2 coprime: the prime-factor (Good-Thomas)
//   algorithm, with no twiddle between the parts. Input k1*n2 + k2*n1 (mod n) feeds n1-point DFTs over k1, their
//   outputs m1 n2-point DFTs over k2, whose output m2 is X_m for the m with m = m1 (mod n1) and m = m2 (mod n2).
// Both only choose which registers a butterfly reads, so the permutations between parts cost nothing; one
// permutation at the end brings output m to v[m]. @pre as radix_network_primes.
RadixNetwork radix_network(std::int64_t radix);

// Executes the network with the formulas the printer writes: in double with the fp64 constants, or in fp32 with the
// printed literals as the compiler reads them (what the GPU computes, but for the order of rounding in fused
// multiply-adds). @pre v.size() == network.radix. @post v holds the forward DFT of its input, in natural order.
void run_radix_network(const RadixNetwork& network, std::vector<std::complex<double>>& v);
void run_radix_network(const RadixNetwork& network, std::vector<std::complex<float>>& v);

}  // namespace fft3d::emit
