// The names of the transform's enumerations: parse_* is the exact inverse of to_string, and anything else is a
// UsageError that names the accepted values.
#include <gtest/gtest.h>

#include "fft3d/errors.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {
namespace {

TEST(TransformNames, ParsingInvertsToString) {
  for (Direction d : {Direction::forward, Direction::inverse}) EXPECT_EQ(parse_direction(to_string(d)), d);
  for (Order o : {Order::natural, Order::digit_reversed}) EXPECT_EQ(parse_order(to_string(o)), o);
  for (Scaling s : {Scaling::none, Scaling::full}) EXPECT_EQ(parse_scaling(to_string(s)), s);
  for (Precision p : {Precision::fp64, Precision::fp32}) EXPECT_EQ(parse_precision(to_string(p)), p);
  for (TransformKind k : {TransformKind::c2c, TransformKind::r2c, TransformKind::c2r})
    EXPECT_EQ(parse_kind(to_string(k)), k);
  for (Placement p : {Placement::out_of_place, Placement::in_place}) EXPECT_EQ(parse_placement(to_string(p)), p);
}

TEST(TransformNames, UnknownNameListsTheAcceptedOnes) {
  try {
    parse_order("reversed");
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown order 'reversed': expected natural or digit-reversed");
  }
  EXPECT_THROW(parse_kind("C2C"), UsageError);
  EXPECT_THROW(parse_precision(""), UsageError);
}

}  // namespace
}  // namespace fft3d
