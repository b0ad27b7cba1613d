// The supported-length rule (factors 2, 3, 5 and 7) and the message that refuses the others.
#include <gtest/gtest.h>

#include "fft3d/lengths.hpp"

namespace fft3d {
namespace {

TEST(Lengths, SupportedExactlyWhenEveryPrimeFactorIsTwoThreeFiveOrSeven) {
  for (std::int64_t n : {1, 2, 3, 5, 7, 96, 100, 243, 343, 384, 1000, 18432, 12288})
    EXPECT_TRUE(is_supported_length(n)) << n;
  for (std::int64_t n : {0, -4, 11, 13, 22, 1001, 1024 * 11})
    EXPECT_FALSE(is_supported_length(n)) << n;
}

TEST(Lengths, PrimeFactorsMultiplyBackInAscendingOrder) {
  EXPECT_EQ(prime_factors(1001), (std::vector<std::int64_t>{7, 11, 13}));
  EXPECT_EQ(prime_factors(1), std::vector<std::int64_t>{});
  EXPECT_EQ(factorization_text(384), "2·2·2·2·2·2·2·3");
  EXPECT_EQ(factorization_text(1), "1");
}

// Brute force over a range: the nearest supported lengths are supported and nothing supported lies between.
TEST(Lengths, NearestSupportedLengthsBracketEveryLength) {
  for (std::int64_t n = 1; n <= 3000; ++n) {
    const std::int64_t below = supported_length_below(n), above = supported_length_above(n);
    ASSERT_TRUE(is_supported_length(below) && is_supported_length(above)) << n;
    ASSERT_LE(below, n);
    ASSERT_GE(above, n);
    for (std::int64_t m = below + 1; m < above; ++m) ASSERT_FALSE(is_supported_length(m)) << n << " " << m;
  }
}

TEST(Lengths, NearestSupportedLengthsOfHugeLengthsAreInstant) {
  const std::int64_t prime_near_2_58 = (std::int64_t{1} << 58) - 27;  // 2^58 - 27 is prime
  EXPECT_EQ(supported_length_above(prime_near_2_58), std::int64_t{1} << 58);
  EXPECT_LT(supported_length_below(prime_near_2_58), prime_near_2_58);
  EXPECT_TRUE(is_supported_length(supported_length_below(prime_near_2_58)));
  EXPECT_NE(unsupported_length_reason(prime_near_2_58).find("is not a supported factor"), std::string::npos);
}

TEST(Lengths, TheReasonNamesTheFactorAndTheNearestLengths) {
  EXPECT_EQ(unsupported_length_reason(1001),
            "1001 = 7·11·13: 11 is not a supported factor (lengths must factor into 2, 3, 5 and 7); the nearest "
            "supported lengths are 1000 and 1008");
  EXPECT_EQ(unsupported_length_reason(22),
            "22 = 2·11: 11 is not a supported factor (lengths must factor into 2, 3, 5 and 7); the nearest supported "
            "lengths are 21 and 24");
}

}  // namespace
}  // namespace fft3d
