// Tuning tables (plan_table.hpp): a size's plan serves both placements unless an <size>-in-place.yaml beside it
// serves in place, and the lookups `run --size` and `bench` make (plan_for_size) follow the same rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
  // Writes the default tesla c2r plan of `size` as `folder`'s file of that size, placement and kind (c2r).
  static std::string write_c2r_plan(const fs::path& folder, const Extents& size, bool in_place) {
    fs::create_directories(folder);
    const std::string path = (folder / table_file_name(size, in_place, TransformKind::c2r)).string();
    std::ofstream(path) << to_yaml(default_plan_of_kind(size, "tesla", TransformKind::c2r));
    return path;
  }
  fs::path gpu_folder(const std::string& gpu) const {
    return dir_ / "plans" / "tesla" / "gpus" / gpu_table_folder(gpu);
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

// A GPU's own table (`fft3d table --measure`): <arch>/gpus/<folder of its device name>/, taken on that GPU only,
// before the arch's table, for one fp32 volume (its plans were timed so); in place, its in-place file first.
TEST_F(PlanTableTest, AGpuTableServesThatGpuBeforeTheArchTable) {
  EXPECT_EQ(gpu_table_folder("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(gpu_table_folder("  NVIDIA  H200 (NVL)"), "nvidia-h200-nvl");
  // A folder's own name maps to itself: the CLI finds a GPU table's plan by its folder name alone.
  EXPECT_EQ(gpu_table_folder("nvidia-h100-80gb-hbm3"), "nvidia-h100-80gb-hbm3");
  const Extents cube{64, 64, 64};
  const std::string gpu = "NVIDIA H100 80GB HBM3";
  const std::string table = write_plan(cube, "64x64x64.yaml", 0);
  const fs::path folder = dir_ / "plans" / "tesla" / "gpus" / "nvidia-h100-80gb-hbm3";
  fs::create_directories(folder);
  const std::string measured = (folder / "64x64x64.yaml").string();
  fs::copy_file(write_plan(cube, "rank1.yaml", 1), measured);
  fs::remove(dir_ / "plans" / "tesla" / "rank1.yaml");

  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube), measured);
  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube, true), measured);  // no in-place file: the plan for both
  EXPECT_FALSE(find_gpu_table_plan("tesla", "NVIDIA H200", cube));
  EXPECT_FALSE(find_gpu_table_plan("tesla", gpu, Extents{64, 32, 16}));
  EXPECT_EQ(table_entries("tesla").size(), 1u);  // the GPU's folder is not part of the arch's table
  const std::vector<GpuTableFile> files = gpu_table_files("tesla");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].gpu, "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(files[0].path, measured);

  const SizedPlan on_gpu = plan_for_size(cube, "tesla", false, {}, TransformKind::c2c, Precision::fp32, 1, gpu);
  EXPECT_EQ(on_gpu.parsed.plan, load_plan_file(measured).plan);
  EXPECT_EQ(on_gpu.source, measured + " (the tesla table for " + gpu + ")");
  EXPECT_NE(load_plan_file(measured).plan, load_plan_file(table).plan);
  // Elsewhere, in fp64 and for a batch the arch's table serves as before.
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}).parsed.plan, load_plan_file(table).plan);
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}, TransformKind::c2c, Precision::fp32, 1, "NVIDIA H200").source,
            table + " (the tesla table)");
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}, TransformKind::c2c, Precision::fp32, 4, gpu).parsed.plan,
            plan_for_size(cube, "tesla", false, {}, TransformKind::c2c, Precision::fp32, 4).parsed.plan);

  // fp64 plans (measured in fp64) are filed apart, <size>-fp64.yaml, and serve fp64 runs only; one holding another
  // precision is refused by name.
  Plan fp64 = load_plan_file(write_plan(cube, "rank2.yaml", 2)).plan;
  fs::remove(dir_ / "plans" / "tesla" / "rank2.yaml");
  fp64.precision = Precision::fp64;
  const std::string measured_fp64 = (folder / "64x64x64-fp64.yaml").string();
  std::ofstream(measured_fp64) << to_yaml(fp64);
  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube, false, TransformKind::c2c, Precision::fp64), measured_fp64);
  EXPECT_EQ(plan_for_size(cube, "tesla", false, {}, TransformKind::c2c, Precision::fp64, 1, gpu).parsed.plan, fp64);
  EXPECT_EQ(on_gpu.parsed.plan, plan_for_size(cube, "tesla", false, {}, TransformKind::c2c, Precision::fp32, 1, gpu)
                                    .parsed.plan);
  fs::copy_file(measured, folder / "64x64x64-in-place-fp64.yaml");  // an fp32 plan
  EXPECT_THROW(plan_for_size(cube, "tesla", true, {}, TransformKind::c2c, Precision::fp64, 1, gpu), UsageError);

  // A file filed under the wrong size is refused by name, never run.
  fs::copy_file(measured, folder / "32x32x32.yaml");
  EXPECT_THROW(plan_for_size({32, 32, 32}, "tesla", false, {}, TransformKind::c2c, Precision::fp32, 1, gpu),
               UsageError);
}

// A GPU table files a measured real plan under its kind (`table --measure --transform r2c|c2r` writes
// <size>-r2c.yaml, <size>-c2r.yaml): each kind finds its own file only, and the plan inside must be of that kind.
TEST_F(PlanTableTest, AGpuTableServesEachRealKindItsOwnFile) {
  const Extents cube{64, 64, 64};
  const std::string gpu = "NVIDIA H100 80GB HBM3";
  const fs::path folder = gpu_folder(gpu);
  const std::string c2r = write_c2r_plan(folder, cube, false);
  EXPECT_EQ(c2r, (folder / "64x64x64-c2r.yaml").string());

  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube, false, TransformKind::c2r), c2r);
  EXPECT_FALSE(find_gpu_table_plan("tesla", gpu, cube, false, TransformKind::r2c));
  EXPECT_FALSE(find_gpu_table_plan("tesla", gpu, cube));
  const SizedPlan on_gpu = plan_for_size(cube, "tesla", false, {}, TransformKind::c2r, Precision::fp32, 1, gpu);
  EXPECT_EQ(kind_of(on_gpu.parsed.plan), TransformKind::c2r);
  EXPECT_EQ(on_gpu.parsed.plan, load_plan_file(c2r).plan);
  EXPECT_EQ(on_gpu.source, c2r + " (the tesla table for " + gpu + ")");

  // A c2r plan filed as r2c is refused by name, never run.
  fs::copy_file(c2r, folder / "64x64x64-r2c.yaml");
  EXPECT_THROW(plan_for_size(cube, "tesla", false, {}, TransformKind::r2c, Precision::fp32, 1, gpu), UsageError);
}

// In place, a GPU table's out-of-place file serves only where the arch's table has no in-place file of the size and
// kind: that file exists because the out-of-place plan does not run in place (a two-pass C2R).
TEST_F(PlanTableTest, InPlaceAGpuTablesOutOfPlaceFileYieldsToTheArchTablesInPlaceFile) {
  const Extents cube{64, 64, 64};
  const std::string gpu = "NVIDIA H100 80GB HBM3";
  const std::string measured = write_c2r_plan(gpu_folder(gpu), cube, false);
  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube, true, TransformKind::c2r), measured);

  const std::string arch_in_place = write_c2r_plan(dir_ / "plans" / "tesla", cube, true);
  EXPECT_FALSE(find_gpu_table_plan("tesla", gpu, cube, true, TransformKind::c2r));
  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube, false, TransformKind::c2r), measured);
  const SizedPlan in_place = plan_for_size(cube, "tesla", true, {}, TransformKind::c2r, Precision::fp32, 1, gpu);
  EXPECT_EQ(in_place.source, arch_in_place + " (the tesla table)");

  const std::string measured_in_place = write_c2r_plan(gpu_folder(gpu), cube, true);
  EXPECT_EQ(find_gpu_table_plan("tesla", gpu, cube, true, TransformKind::c2r), measured_in_place);
}

// Every shipped GPU table (plans/<arch>/gpus/<gpu>/) holds plans filed under their own size, kind, placement and
// arch, each lowering on its profile (passes_on_its_profile), with the measured time its writer recorded:
// `fft3d table --measure`, or by hand (fp64 plans the planner's choice ran slower than, docs/performance.md L156).
TEST(ShippedGpuTables, HoldPlansOfTheirSizeThatLowerOnTheirArch) {
  int files = 0;
  for (const fs::directory_entry& arch : fs::directory_iterator(fs::path(FFT3D_SOURCE_DIR) / "plans")) {
    const fs::path gpus = arch.path() / "gpus";
    if (!fs::is_directory(gpus)) continue;
    for (const fs::directory_entry& file : fs::recursive_directory_iterator(gpus)) {
      if (!file.is_regular_file()) continue;
      SCOPED_TRACE(file.path().string());
      const std::string text = (std::ostringstream() << std::ifstream(file.path()).rdbuf()).str();
      const bool measured_by_table = text.starts_with("# Written by `fft3d table --measure");
      const bool measured_by_hand = text.starts_with("# Measured by hand");
      EXPECT_TRUE(measured_by_table || measured_by_hand);
      const Plan plan = load_plan_file(file.path().string()).plan;
      const std::string name = file.path().filename().string();
      const bool in_place = name.find("-in-place") != std::string::npos;
      EXPECT_EQ(table_file_name(plan.size, in_place, kind_of(plan), plan.precision), name);
      EXPECT_EQ(plan.arch, arch.path().filename().string());
      EXPECT_TRUE(passes_on_its_profile(plan).has_value());
      ++files;
    }
  }
  EXPECT_GT(files, 0);
}

// A GPU's fp64 files keep the plans the planner's out-of-place choice ran slower than there (docs/performance.md
// L156): 1024x256x256 on the H200 only (on the H100 the planner's two-pass plan is the one measured fastest, L153).
// fp32 runs keep the arch's table.
TEST(ShippedGpuTables, Fp64FilesServeTheH200Only) {
  ScopedEnv env;
  env.set("FFT3D_PLANS_DIR", (fs::path(FFT3D_SOURCE_DIR) / "plans").string());
  const auto find = [&](const std::string& gpu, const Extents& size, Precision precision) {
    const std::optional<std::string> path =
        find_gpu_table_plan("hopper", gpu, size, false, TransformKind::c2c, precision);
    return path ? fs::path(*path).filename().string() : std::string("none");
  };
  EXPECT_EQ(find("NVIDIA H200", {1024, 256, 256}, Precision::fp64), "1024x256x256-fp64.yaml");
  EXPECT_EQ(find("NVIDIA H200", {1024, 256, 256}, Precision::fp32), "none");
  EXPECT_EQ(find("NVIDIA H100 80GB HBM3", {1024, 256, 256}, Precision::fp64), "none");
  const SizedPlan h200 = plan_for_size({1024, 256, 256}, "hopper", false, passes_on_its_profile_in(false),
                                       TransformKind::c2c, Precision::fp64, 1, "NVIDIA H200");
  EXPECT_EQ(h200.parsed.plan.kernels.size(), 3u);
  EXPECT_EQ(h200.parsed.plan.precision, Precision::fp64);
}

// The H200's fp64 C2R files for runs in place keep the three passes its late-form two-pass plans ran slower than
// there (docs/performance.md L159): they serve fp64 C2R in place on the H200 only, not out of place, fp32 or the H100.
TEST(ShippedGpuTables, Fp64C2rInPlaceFilesServeTheH200sRunsInPlaceOnly) {
  ScopedEnv env;
  env.set("FFT3D_PLANS_DIR", (fs::path(FFT3D_SOURCE_DIR) / "plans").string());
  const Extents size{1024, 256, 256};
  const auto find = [&](const std::string& gpu, bool in_place, Precision precision) {
    const std::optional<std::string> path =
        find_gpu_table_plan("hopper", gpu, size, in_place, TransformKind::c2r, precision);
    return path ? fs::path(*path).filename().string() : std::string("none");
  };
  EXPECT_EQ(find("NVIDIA H200", true, Precision::fp64), "1024x256x256-c2r-in-place-fp64.yaml");
  EXPECT_EQ(find("NVIDIA H200", false, Precision::fp64), "none");
  EXPECT_EQ(find("NVIDIA H200", true, Precision::fp32), "none");
  EXPECT_EQ(find("NVIDIA H100 80GB HBM3", true, Precision::fp64), "none");
  const SizedPlan h200 = plan_for_size(size, "hopper", true, passes_on_its_profile_in(true), TransformKind::c2r,
                                       Precision::fp64, 1, "NVIDIA H200");
  EXPECT_EQ(h200.parsed.plan.kernels.size(), 3u);
  EXPECT_EQ(h200.parsed.plan.precision, Precision::fp64);
  const SizedPlan h100 = plan_for_size(size, "hopper", true, passes_on_its_profile_in(true), TransformKind::c2r,
                                       Precision::fp64, 1, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(h100.parsed.plan.kernels.size(), 2u);  // the hopper table's late-form plan, unmeasured there in fp64
}

// A GPU table's out-of-place file whose plan takes the digit-reversal pass in place only (a 2048x2048 Y split whose
// first kernel is spread and whose last has 32 Y tiles, so neither form of the sorted layout clusters them in place)
// serves runs out of place; in place the planner, ranking for runs in place, serves its two passes instead of that
// plan's reorder and copy back.
TEST_F(PlanTableTest, AGpuTablesOutOfPlaceOnlyPlanLeavesRunsInPlaceToThePlanner) {
  const Extents square{2048, 2048, 1};
  const std::string gpu = "NVIDIA H100 80GB HBM3";
  const fs::path folder = dir_ / "plans" / "hopper" / "gpus" / gpu_table_folder(gpu);
  fs::create_directories(folder);
  const std::string split = (folder / "2048x2048x1.yaml").string();
  std::ofstream(split) << "size: [2048, 2048, 1]\narch: hopper\nkernels:\n"
                          "  - \"X(1, 2048, 1, 2048, no-tw), Y(64, 32, 64, 2048, tw)\"\n"
                          "  - \"Y(32, 64, 1, 64, no-tw)\"\n";
  EXPECT_TRUE(lowers_in_natural_order(load_plan_file(split).plan, false));
  EXPECT_FALSE(lowers_in_natural_order(load_plan_file(split).plan, true));
  EXPECT_EQ(find_gpu_table_plan("hopper", gpu, square, false), split);
  EXPECT_FALSE(find_gpu_table_plan("hopper", gpu, square, true));
  const SizedPlan in_place = plan_for_size(square, "hopper", true, passes_on_its_profile_in(true),
                                           TransformKind::c2c, Precision::fp32, 1, gpu);
  EXPECT_EQ(in_place.source, "the default planner for hopper");
  EXPECT_TRUE(lowers_in_natural_order(in_place.parsed.plan, true));
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
