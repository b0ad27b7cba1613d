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

// The primes of the network's stages, first stage first: the odd primes largest first, then the twos. A power of
// two is the radix-2 network, whose text the tile kernels have always printed.
std::vector<std::int64_t> radix_network_primes(std::int64_t radix);

// The DIF network of `radix`: for each prime p of radix_network_primes, within every block of the current span n,
// butterflies on registers j + k*(n/p) (j < n/p) twiddled by w_n^(j*m); then the digit-reversal permutation, so that
// output m ends in v[m]. @pre radix >= 1 has only the prime factors 2, 3, 5 and 7 (else UsageError).
RadixNetwork radix_network(std::int64_t radix);

// Executes the network in double precision with the same formulas and constants the printer writes.
// @pre v.size() == network.radix. @post v holds the forward DFT of its input, in natural order.
void run_radix_network(const RadixNetwork& network, std::vector<std::complex<double>>& v);

}  // namespace fft3d::emit
