// The index maps' contracts, checked exhaustively on every radix split of every length up to 256.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <vector>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/index_maps.hpp"

namespace fft3d {
namespace {

// Every ordered split of 2^log2_length into power-of-two radices >= 2 (2^(log2_length-1) of them).
std::vector<std::vector<std::int64_t>> power_of_two_splits(int log2_length) {
  if (log2_length == 0) return {{}};
  std::vector<std::vector<std::int64_t>> splits;
  for (int first = 1; first <= log2_length; ++first)
    for (std::vector<std::int64_t> rest : power_of_two_splits(log2_length - first)) {
      rest.insert(rest.begin(), std::int64_t{1} << first);
      splits.push_back(std::move(rest));
    }
  return splits;
}

// Every split of every length 1..256, plus mixed radices (the maps are defined for any radices).
std::vector<std::vector<std::int64_t>> all_small_splits() {
  std::vector<std::vector<std::int64_t>> splits;
  for (int log2_length = 0; log2_length <= 8; ++log2_length)
    for (auto& split : power_of_two_splits(log2_length)) splits.push_back(std::move(split));
  splits.push_back({3, 5, 2});
  splits.push_back({6});
  splits.push_back({2, 3, 2, 7});
  return splits;
}

std::string describe(const std::vector<std::int64_t>& radices) {
  std::string text = "radices {";
  for (std::int64_t radix : radices) text.append(" ").append(std::to_string(radix));
  return text.append(" }");
}

// A legal 1D plan along `axis` with these radices (a DIF chain).
Plan line_plan(Axis axis, const std::vector<std::int64_t>& radices) {
  Plan plan;
  plan.arch = "hopper";
  const std::int64_t length = length_of(radices);
  (axis == Axis::x ? plan.size.nx : axis == Axis::y ? plan.size.ny : plan.size.nz) = length;
  std::int64_t span = length;
  for (std::int64_t radix : radices) {
    plan.kernels.push_back({{{axis, length / radix, radix, span / radix, span, span / radix > 1}}});
    span /= radix;
  }
  return plan;
}

TEST(DigitReversal, IsABijectionInvertedByFrequencyAtPosition) {
  for (const auto& radices : all_small_splits()) {
    SCOPED_TRACE(describe(radices));
    const std::int64_t length = length_of(radices);
    std::vector<bool> hit(static_cast<std::size_t>(length), false);
    for (std::int64_t k = 0; k < length; ++k) {
      const std::int64_t position = digit_reversed_position(k, radices);
      ASSERT_GE(position, 0);
      ASSERT_LT(position, length);
      EXPECT_FALSE(hit[static_cast<std::size_t>(position)]) << "two frequencies land at " << position;
      hit[static_cast<std::size_t>(position)] = true;
      EXPECT_EQ(frequency_at_position(position, radices), k);
      EXPECT_EQ(digit_reversed_position(frequency_at_position(k, radices), radices), k);
    }
  }
}

// Enumerates the digit tuples (k1, ..., km), ki < ri, and builds both sides of the digit-reversal formula
// (docs/plan-language.md, "Output order") from them.
TEST(DigitReversal, MatchesTheFormulaOfTheDesign) {
  for (const auto& radices : all_small_splits()) {
    SCOPED_TRACE(describe(radices));
    const std::int64_t length = length_of(radices);
    std::vector<std::int64_t> digits(radices.size(), 0);
    for (std::int64_t tuple = 0; tuple < length; ++tuple) {
      std::int64_t k = 0, position = 0, below = 1;
      for (std::size_t i = 0; i < radices.size(); ++i) {
        k += digits[i] * below;
        below *= radices[i];
        position += digits[i] * (length / below);
      }
      EXPECT_EQ(digit_reversed_position(k, radices), position);
      for (std::size_t i = 0; i < digits.size() && ++digits[i] == radices[i]; ++i) digits[i] = 0;  // next tuple
    }
  }
}

TEST(DigitReversal, TableMatchesThePointwiseMap) {
  for (const auto& radices : all_small_splits()) {
    const std::vector<std::int64_t> table = digit_reversed_positions(radices);
    ASSERT_EQ(static_cast<std::int64_t>(table.size()), length_of(radices));
    for (std::size_t k = 0; k < table.size(); ++k)
      EXPECT_EQ(table[k], digit_reversed_position(static_cast<std::int64_t>(k), radices));
  }
}

TEST(DigitReversal, OneStageIsTheIdentityAndRadixTwoStagesAreBitReversal) {
  for (std::int64_t k = 0; k < 64; ++k) EXPECT_EQ(digit_reversed_position(k, std::vector<std::int64_t>{64}), k);
  const std::vector<std::int64_t> bits(6, 2);
  EXPECT_EQ(digit_reversed_position(1, bits), 32);
  EXPECT_EQ(digit_reversed_position(0b110100, bits), 0b001011);
}

TEST(RadicesOf, ListsEachAxisInStageOrderAndNothingForLengthOne) {
  Plan plan;
  plan.size = {8, 16, 1};
  plan.arch = "tesla";
  plan.kernels = {{{{Axis::y, 4, 4, 4, 16, true}}},
                  {{{Axis::x, 4, 2, 4, 8, true}, {Axis::y, 4, 4, 1, 4, false}}},
                  {{{Axis::x, 2, 4, 1, 4, false}}}};
  EXPECT_EQ(radices_of(plan, Axis::x), (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(radices_of(plan, Axis::y), (std::vector<std::int64_t>{4, 4}));
  EXPECT_TRUE(radices_of(plan, Axis::z).empty());
  EXPECT_EQ(length_of(radices_of(plan, Axis::z)), 1);
}

// Every stage of every chain: the butterflies cover each position exactly once, twiddles stay below the span.
TEST(ButterflyPosition, CoversEveryPositionOnceAndTwiddlesStayBelowTheSpan) {
  for (int log2_length = 1; log2_length <= 8; ++log2_length)
  for (const auto& radices : power_of_two_splits(log2_length)) {
    SCOPED_TRACE(describe(radices));
    const Plan plan = line_plan(Axis::x, radices);
    const std::int64_t length = plan.size.nx;
    for (const Kernel& kernel : plan.kernels) {
      const SubComputation& sub = kernel.subs[0];
      std::vector<int> hits(static_cast<std::size_t>(length), 0);
      for (std::int64_t g = 0; g < length / sub.span; ++g)
        for (std::int64_t j = 0; j < sub.stride; ++j)
          for (std::int64_t k = 0; k < sub.radix; ++k) {
            const std::int64_t position = butterfly_position(sub, g, j, k);
            ASSERT_GE(position, 0);
            ASSERT_LT(position, length);
            ++hits[static_cast<std::size_t>(position)];
            const std::int64_t e = twiddle_exponent(sub, j, k);
            EXPECT_GE(e, 0);
            EXPECT_LT(e, sub.span);
            if (!sub.twiddle) {
              EXPECT_EQ(e, 0);
            }
          }
      EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; })) << to_string(sub);
    }
  }
}

// The backend's digit-reversed output is its natural output moved by digit_reversed_position, value for value,
// on every axis and every radix split of lengths up to 256.
TEST(DigitReversal, DescribesWhereTheCpuBackendLeavesEachFrequency) {
  for (Axis axis : all_axes) {
    for (int log2_length = 1; log2_length <= 8; ++log2_length) {
      for (const auto& radices : power_of_two_splits(log2_length)) {
        SCOPED_TRACE(describe(radices) + " along " + axis_letter(axis));
        const CpuTransform backend(line_plan(axis, radices), 1);
        const std::int64_t length = length_of(radices);
        std::vector<std::complex<double>> input(static_cast<std::size_t>(length));
        for (std::int64_t i = 0; i < length; ++i) input[static_cast<std::size_t>(i)] = {std::cos(i * 1.7), i * 0.25};
        std::vector<std::complex<double>> natural(input.size()), reversed(input.size());
        backend.execute(input, natural, {});
        backend.execute(input, reversed, {.order = Order::digit_reversed});
        for (std::int64_t k = 0; k < length; ++k)
          ASSERT_EQ(reversed[static_cast<std::size_t>(digit_reversed_position(k, radices))],
                    natural[static_cast<std::size_t>(k)])
              << "frequency " << k;
      }
    }
  }
}

}  // namespace
}  // namespace fft3d
