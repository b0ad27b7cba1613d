// Tuning tables (plan_table.hpp): a size's plan serves both placements unless an <size>-in-place.yaml beside it
// serves in place, and the lookups `run --size` and `bench` make (plan_for_size) follow the same rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fft3d/plan_table.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "scoped_env.hpp"

namespace fft3d::testing {
namespace {

namespace fs = std::filesystem;

// Points FFT3D_PLANS_DIR (and FFT3D_CACHE_DIR, so that no wisdom is found) at fresh directories for one test.
class PlanTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fft3d-plan-table-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "plans" / "tesla");
    env_.set("FFT3D_PLANS_DIR", (dir_ / "plans").string());
    env_.set("FFT3D_CACHE_DIR", (dir_ / "cache").string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Writes the planner's rank-th tesla candidate for `size` (different ranks tell the files apart).
  std::string write_plan(const Extents& size, const std::string& filename, int rank) {
    const std::string path = (dir_ / "plans" / "tesla" / filename).string();
    std::ofstream(path) << to_yaml(ranked_plans(size, "tesla", {}, rank + 1).at(rank).plan);
    return path;
  }
  fs::path dir_;
  ScopedEnv env_;
};

TEST_F(PlanTableTest, AnInPlaceFileServesInPlaceOnlyAndThePlainFileServesBoth) {
  const Extents cube{64, 64, 64}, slab{64, 32, 16};
  const std::string both = write_plan(cube, "64x64x64.yaml", 0);
  const std::string in_place = write_plan(cube, "64x64x64-in-place.yaml", 1);
  const std::string slab_both = write_plan(slab, "64x32x16.yaml", 0);

  EXPECT_EQ(find_table_plan("tesla", cube, false), both);
  EXPECT_EQ(find_table_plan("tesla", cube, true), in_place);
  EXPECT_EQ(find_table_plan("tesla", slab, false), slab_both);
  EXPECT_EQ(find_table_plan("tesla", slab, true), slab_both);  // no in-place file: the plan for both
  EXPECT_FALSE(find_table_plan("fermi", cube, true));

  const std::vector<TableEntry> entries = table_entries("tesla");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].path, both);
  EXPECT_FALSE(entries[1].in_place_only);
  EXPECT_EQ(entries[2].path, in_place);
  EXPECT_TRUE(entries[2].in_place_only);

  // What `run --size` and `bench` take.
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}).parsed.plan, load_plan_file(both).plan);
  EXPECT_EQ(plan_for_size(cube, "tesla", true, {}).parsed.plan, load_plan_file(in_place).plan);
  EXPECT_NE(load_plan_file(both).plan, load_plan_file(in_place).plan);
}

TEST_F(PlanTableTest, AnInPlaceFileAloneLeavesOutOfPlaceToThePlanner) {
  const Extents cube{64, 64, 64};
  const std::string in_place = write_plan(cube, "64x64x64-in-place.yaml", 1);
  EXPECT_FALSE(find_table_plan("tesla", cube, false));
  EXPECT_EQ(find_table_plan("tesla", cube, true), in_place);
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}).source, "the default planner for tesla");
}

TEST_F(PlanTableTest, RealPlansHaveTablesOfTheirOwnAndMustBeOfTheirKind) {
  const Extents cube{64, 64, 64};
  const std::string both = write_plan(cube, "64x64x64.yaml", 0);
  const std::string wrong = write_plan(cube, "64x64x64-r2c.yaml", 0);  // a c2c plan filed as r2c
  EXPECT_EQ(find_table_plan("tesla", cube, false), both);
  EXPECT_EQ(find_table_plan("tesla", cube, false, TransformKind::r2c), wrong);
  EXPECT_EQ(find_table_plan("tesla", cube, true, TransformKind::r2c), wrong);
  EXPECT_FALSE(find_table_plan("tesla", cube, false, TransformKind::c2r));
  EXPECT_EQ(table_entries("tesla").size(), 1u);
  EXPECT_EQ(table_entries("tesla", std::nullopt).size(), 2u);
  EXPECT_EQ(table_entries("tesla", TransformKind::r2c).at(0).kind, TransformKind::r2c);
  try {
    plan_for_size(cube, "tesla", false, {}, TransformKind::r2c);
    ADD_FAILURE() << "a c2c plan ran as r2c";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(wrong), std::string::npos) << e.what();
  }
  // No c2r table plan: the default planner's.
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}, TransformKind::c2r).source, "the default planner for tesla");
}

}  // namespace
}  // namespace fft3d::testing
