// Wisdom (wisdom.hpp): remembered plans are found by profile, size, placement and kind, and a file that holds a plan
// for another size or kind is refused, not run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fft3d/diagnostics.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "scoped_env.hpp"

namespace fft3d::testing {
namespace {

// Points FFT3D_CACHE_DIR at a fresh directory for one test.
class WisdomTest : public FreshCacheDirTest {
 protected:
  WisdomTest() : FreshCacheDirTest("fft3d-wisdom-test-") {}
};

TEST_F(WisdomTest, ARememberedPlanIsFoundForItsSizeAndPlacementOnly) {
  const Extents size{64, 32, 16};
  EXPECT_FALSE(find_wisdom_plan("tesla", size, false));
  const Plan plan = default_plan(size, "tesla");
  const std::string path = remember_plan("tesla", size, false, "# measured\n" + to_yaml(plan));
  EXPECT_TRUE(std::filesystem::is_regular_file(path));
  EXPECT_EQ(find_wisdom_plan("tesla", size, false), path);
  const std::optional<ParsedPlan> loaded = load_wisdom_plan("tesla", size, false);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->plan, plan);
  EXPECT_FALSE(find_wisdom_plan("tesla", size, true));            // in place is its own entry
  EXPECT_FALSE(find_wisdom_plan("fermi", size, false));           // so is each profile
  EXPECT_FALSE(find_wisdom_plan("tesla", {64, 16, 32}, false));   // and each size
  remember_plan("tesla", size, true, to_yaml(plan));
  EXPECT_NE(find_wisdom_plan("tesla", size, true), path);
}

TEST_F(WisdomTest, APlanFiledUnderAnotherSizeIsRefused) {
  const Extents size{64, 32, 16};
  remember_plan("tesla", size, false, to_yaml(default_plan({32, 32, 32}, "tesla")));
  EXPECT_THROW(load_wisdom_plan("tesla", size, false), UsageError);
  remember_plan("tesla", size, false, "size: [64");
  EXPECT_THROW(load_wisdom_plan("tesla", size, false), PlanError);
}

TEST_F(WisdomTest, EachKindIsItsOwnEntryAndC2CKeepsItsName) {
  const Extents size{64, 32, 16};
  const std::string c2c = wisdom_path("tesla", size, false);
  EXPECT_TRUE(c2c.ends_with("/wisdom/tesla/64x32x16.yaml")) << c2c;
  EXPECT_EQ(wisdom_path("tesla", size, false, TransformKind::c2c), c2c);
  EXPECT_TRUE(wisdom_path("tesla", size, false, TransformKind::r2c).ends_with("/64x32x16-r2c.yaml"));
  EXPECT_TRUE(wisdom_path("tesla", size, true, TransformKind::c2r).ends_with("/64x32x16-c2r-in-place.yaml"));
  remember_plan("tesla", size, false, to_yaml(default_plan(size, "tesla")));
  EXPECT_TRUE(find_wisdom_plan("tesla", size, false));
  EXPECT_FALSE(find_wisdom_plan("tesla", size, false, TransformKind::r2c));
  EXPECT_FALSE(find_wisdom_plan("tesla", size, false, TransformKind::c2r));
}

TEST_F(WisdomTest, APlanOfAnotherKindIsRefusedByName) {
  const Extents size{64, 32, 16};
  remember_plan("tesla", size, false, to_yaml(default_plan(size, "tesla")), TransformKind::r2c);
  try {
    load_wisdom_plan("tesla", size, false, TransformKind::r2c);
    ADD_FAILURE() << "a c2c plan was taken as r2c wisdom";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("it is a c2c plan"), std::string::npos) << e.what();
  }
  EXPECT_THROW(plan_for_size(size, "tesla", false, {}, TransformKind::r2c), UsageError);
}

}  // namespace
}  // namespace fft3d::testing
