#include "fft3d/index_maps.hpp"

#include <bit>

namespace fft3d {

std::vector<std::int64_t> radices_of(const Plan& plan, Axis axis) {
  std::vector<std::int64_t> radices;
  for (const SubComputation& stage : stages_of(plan, axis)) radices.push_back(stage.radix);
  return radices;
}

std::int64_t length_of(std::span<const std::int64_t> radices) {
  std::int64_t length = 1;
  for (std::int64_t radix : radices) length *= radix;
  return length;
}

namespace {
bool all_powers_of_two(std::span<const std::int64_t> radices) {
  for (std::int64_t radix : radices)
    if (radix <= 0 || (radix & (radix - 1)) != 0) return false;
  return true;
}
int log2_of(std::int64_t power_of_two) { return std::countr_zero(static_cast<std::uint64_t>(power_of_two)); }
}  // namespace

// Peels k's digits least significant first (k1 = k mod r1, ...); digit i has weight N/(r1*...*ri) in the position.
// Power-of-two radices (every plan's: lengths are powers of two) take shifts and masks, the hot path of the
// lowering's static checks; the division form is the definition.
std::int64_t digit_reversed_position(std::int64_t k, std::span<const std::int64_t> radices) {
  std::int64_t position = 0;
  if (all_powers_of_two(radices)) {
    int weight_bits = log2_of(length_of(radices));
    for (std::int64_t radix : radices) {
      const int bits = log2_of(radix);
      weight_bits -= bits;
      position |= (k & (radix - 1)) << weight_bits;
      k >>= bits;
    }
    return position;
  }
  std::int64_t weight = length_of(radices);
  for (std::int64_t radix : radices) {
    weight /= radix;
    position += (k % radix) * weight;
    k /= radix;
  }
  return position;
}

// The position's digits come most significant first (d1 = position / (N/r1), ...); digit i has weight
// r1*...*r(i-1) in the frequency.
std::int64_t frequency_at_position(std::int64_t position, std::span<const std::int64_t> radices) {
  std::int64_t frequency = 0;
  if (all_powers_of_two(radices)) {
    int weight_bits = log2_of(length_of(radices));
    int frequency_bits = 0;
    for (std::int64_t radix : radices) {
      const int bits = log2_of(radix);
      weight_bits -= bits;
      frequency |= ((position >> weight_bits) & (radix - 1)) << frequency_bits;
      frequency_bits += bits;
    }
    return frequency;
  }
  std::int64_t weight = length_of(radices);
  std::int64_t frequency_weight = 1;
  for (std::int64_t radix : radices) {
    weight /= radix;
    frequency += (position / weight % radix) * frequency_weight;
    frequency_weight *= radix;
  }
  return frequency;
}

std::vector<std::int64_t> digit_reversed_positions(std::span<const std::int64_t> radices) {
  std::vector<std::int64_t> positions(static_cast<std::size_t>(length_of(radices)));
  for (std::size_t k = 0; k < positions.size(); ++k)
    positions[k] = digit_reversed_position(static_cast<std::int64_t>(k), radices);
  return positions;
}

std::int64_t butterfly_position(const SubComputation& sub, std::int64_t g, std::int64_t j, std::int64_t k) {
  return g * sub.span + j + k * sub.stride;
}

std::int64_t twiddle_exponent(const SubComputation& sub, std::int64_t j, std::int64_t m) {
  return sub.twiddle ? j * m : 0;
}

}  // namespace fft3d
