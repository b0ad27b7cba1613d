// Two lowering rules checked against their contracts: grow_tile.cpp (small tiles grow along stage-less axes, grid
// exact, block size kept) and the layout search of shared_layout.cpp (the search on conflict-group patterns picks
// what the exhaustive search over every access picks, on every shipped plan, the tests' random plans and the mixed
// plans, whose tiles also weigh the period paddings).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "fft3d/arch_profile.hpp"
#include "cuda/cuda_compiler.hpp"
#include "lowering/tile_maps.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "lowering_rules.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

std::vector<NamedPlan> layout_test_plans() {
  std::vector<NamedPlan> plans = shipped_plans();
  for (const NamedPlan& named : gpu_random_plans()) plans.push_back(named);
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (const NamedPlan& named : random_plans(40, 5, 16, arch)) plans.push_back(named);
  return plans;
}

// The layout search's plans: those above and the mixed plans, whose tiles also weigh the period paddings.
std::vector<NamedPlan> layout_search_test_plans() {
  std::vector<NamedPlan> plans = layout_test_plans();
  for (const NamedPlan& named : mixed_radix_plans()) plans.push_back(named);
  for (const NamedPlan& named : mixed_bench_plans()) plans.push_back(named);
  return plans;
}

// Calls check(named, profile, spec) on every kernel of every layout-search test plan that fits its profile.
template <class Check>
void for_each_test_kernel(const Check& check) {
  for (const NamedPlan& named : layout_search_test_plans()) {
    const ArchProfile profile = *find_arch_profile(named.plan.arch);
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) check(named, profile, spec);
  }
}

// Expects the report on patterns to give every phase of the full report its degree.
void expect_equal_degrees(const tile::BankReport& full, const tile::BankReport& reduced, const std::string& where) {
  ASSERT_EQ(full.phases.size(), reduced.phases.size()) << where;
  for (std::size_t p = 0; p < full.phases.size(); ++p)
    EXPECT_EQ(full.phases[p].degree, reduced.phases[p].degree) << where << " " << full.phases[p].phase;
}

TEST(SharedLayoutSearch, PatternSearchChoosesWhatTheExhaustiveSearchChooses) {
  int kernels = 0;
  for_each_test_kernel([&](const NamedPlan& named, const ArchProfile& profile, const KernelSpec& spec) {
    ++kernels;
    EXPECT_EQ(lowering::choose_shared_layout(spec, profile, lowering::LayoutSearch::exhaustive), spec.shared)
        << named.name << " kernel " << spec.kernel_index;
  });
  EXPECT_GT(kernels, 100);
}

// The contract under the search: on every candidate layout, the report on patterns equals the full report.
TEST(SharedLayoutSearch, PatternReportEqualsTheFullReportOnEveryCandidate) {
  for_each_test_kernel([](const NamedPlan& named, const ArchProfile& profile, const KernelSpec& spec) {
    const tile::SharedAccesses accesses = tile::shared_accesses(spec);
    const lowering::ConflictPatterns patterns(spec, accesses);
    for (const SharedLayout& layout : lowering::shared_layout_candidates(profile, spec.precision, spec.part_elements()))
      expect_equal_degrees(tile::check_bank_conflicts(spec, layout, accesses), patterns.check(layout),
                           named.name + " kernel " + std::to_string(spec.kernel_index) + " " + to_string(layout));
  });
}

// The same contract for the period paddings of mixed tiles, on their own patterns (one set per period).
TEST(SharedLayoutSearch, PeriodPatternReportEqualsTheFullReportOnEveryPeriodPadding) {
  int paddings = 0;
  for_each_test_kernel([&](const NamedPlan& named, const ArchProfile& profile, const KernelSpec& spec) {
    const tile::SharedAccesses accesses = tile::shared_accesses(spec);
    std::map<std::int64_t, lowering::PeriodPatterns> patterns;
    for (const SharedLayout& layout : lowering::period_pad_candidates(spec, profile)) {
      ++paddings;
      const auto at = patterns.try_emplace(layout.period, spec, accesses, layout.period, layout.banks).first;
      expect_equal_degrees(tile::check_bank_conflicts(spec, layout, accesses), at->second.check(layout),
                           named.name + " kernel " + std::to_string(spec.kernel_index) + " " + to_string(layout));
    }
  });
  EXPECT_GT(paddings, 100);
}

// The default hopper plan of 512x256x256 has an X-only kernel whose butterfly groups make a 32-value tile (1M
// blocks, slow even as a copy: docs/performance.md, ledger "small-volume grids"). It takes 64 Y rows: 16 KB.
TEST(TileGrowth, TheXOnlyKernelOfTheDefaultHopperPlanTakesYRows) {
  Plan plan;
  plan.size = {512, 256, 256};
  plan.arch = "hopper";
  plan.kernels = {Kernel{{{Axis::x, 128, 4, 128, 512, true}, {Axis::y, 1, 256, 1, 256, false}}},
                  Kernel{{{Axis::x, 128, 4, 32, 128, true}, {Axis::z, 1, 256, 1, 256, false}}},
                  Kernel{{{Axis::x, 16, 32, 1, 32, false}}}};
  const KernelSpec spec = lower_plan(plan, *find_arch_profile("hopper")).kernels[2];
  EXPECT_EQ(spec.axes[0].extent(), 32);
  EXPECT_EQ(spec.axes[1].extent(), 64);
  EXPECT_EQ(spec.axes[2].extent(), 1);
  EXPECT_EQ(spec.tile_elements, 2048);
  EXPECT_EQ(spec.tiles, 16384);
  EXPECT_EQ(tile::check_bank_conflicts(spec).worst(), 1);
  EXPECT_TRUE(tile::check_coalescing(spec).coalesced());
}

// The default hopper plans of the sizes off the table that the GPU checks run, with grown tiles:
// conflict-free, coalesced, and compiled by NVRTC for sm_90 without spills.
TEST(TileGrowth, DefaultHopperPlansStayConflictFreeCoalescedAndSpillFree) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  for (const char* size : {"512x256x256", "1024x64x32"}) {
    const Plan plan = default_plan(parse_extents(size), "hopper", passes_on_its_profile);
    for (const KernelSpec& spec : lower_plan(plan, hopper).kernels) {
      SCOPED_TRACE(std::string(size) + " kernel " + std::to_string(spec.kernel_index));
      EXPECT_EQ(tile::check_bank_conflicts(spec).worst_excluding_natural_store(), 1);
      EXPECT_TRUE(tile::check_coalescing(spec).coalesced());
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90));
      EXPECT_FALSE(compiled.report.spills()) << compiled.report.log;
      std::cout << size << " kernel " << spec.kernel_index << " {" << to_string(spec.kernel) << "}: tile "
                << spec.tile_elements << " elements, " << spec.launch_blocks() << " blocks x " << spec.threads << " threads, "
                << compiled.report.registers << " registers\n";
    }
  }
}

// Every kernel of every test plan: axes with stages keep their tile; a tile under the limit grew as far as its
// stage-less axes allow; the block size is the profile's unless a split stage needs more (block_threads.cpp); the
// tiles still cover the volume exactly.
TEST(TileGrowth, OnlyStagelessAxesGrowAndBlocksKeepTheProfileSize) {
  for (const NamedPlan& named : layout_test_plans()) {
    const ArchProfile profile = *find_arch_profile(named.plan.arch);
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    const bool real = real_step_of(named.plan).has_value();
    for (const KernelSpec& spec : lowered->kernels) {
      SCOPED_TRACE(named.name + " kernel " + std::to_string(spec.kernel_index));
      // A kernel on padded rows tiles the padded plan's volume (padded_rows.cpp).
      const Plan source = spec.masks_x() ? lowering::padded_rows_plan(named.plan) : named.plan;
      const std::int64_t limit = lowering::grown_tile_limit(spec.kernel, profile);
      bool can_grow = false;
      for (Axis axis : all_axes) {
        const AxisTile& tile = spec.axes[axis_index(axis)];
        EXPECT_EQ(tile.extent() * tile.tiles(), tile.length);
        if (lowering::has_stages(spec.kernel, axis)) {
          const AxisTile ungrown = lowering::tile_axis(source, spec.kernel, axis, real);
          EXPECT_EQ(tile.tile, ungrown.tile);
          EXPECT_EQ(tile.grid, ungrown.grid);
        } else {
          can_grow |= tile.extent() < tile.length;
        }
      }
      EXPECT_EQ(spec.tile_elements * spec.tiles, source.size.elements());
      std::int64_t ungrown = 1;
      for (Axis axis : all_axes) ungrown *= lowering::tile_axis(source, spec.kernel, axis, real).extent();
      if (can_grow) {
        EXPECT_GT(2 * spec.tile_elements, limit);
      }
      if (spec.tile_elements > ungrown) {
        // A grown tile stays within the limit (or, after an odd factor's step from at most half of it, the cap) and
        // keeps the profile's block size: threads loop over more work.
        EXPECT_LE(spec.tile_elements, lowering::grown_tile_cap(spec.kernel, profile));
        EXPECT_EQ(spec.threads, profile.threads_per_block);
      }
    }
  }
}

// An fp64 word (8 bytes) spans two of Hopper's 4-byte banks, so its layouts count 16 banks of words: a half-warp
// of doubles reads in one wavefront only when its words differ modulo 16. 512x256x256's fp64 kernels (X 512 and
// Y 256 lines) had 2-way conflicts modulo 16 in the layouts chosen modulo 32 (Nsight Compute counted twice the
// ideal wavefronts on such loads); chosen modulo 16 they have none, at the same words.
TEST(SharedLayoutSearch, Fp64WordsSeeHalfTheBanks) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  EXPECT_EQ(lowering::shared_word_banks(hopper, Precision::fp32), 32);
  EXPECT_EQ(lowering::shared_word_banks(hopper, Precision::fp64), 16);
  EXPECT_EQ(lowering::shared_word_banks(*find_arch_profile("tesla"), Precision::fp32), 16);
  Plan plan = default_plan({512, 256, 256}, "hopper", passes_in_precision(passes_on_its_profile, Precision::fp64));
  plan.precision = Precision::fp64;
  for (const KernelSpec& spec : lower_plan(plan, hopper).kernels) {
    SCOPED_TRACE("kernel " + std::to_string(spec.kernel_index));
    EXPECT_EQ(spec.shared.banks, 16);
    EXPECT_EQ(tile::check_bank_conflicts(spec).worst(), 1);
    EXPECT_EQ(spec.shared.words, spec.part_elements());  // a swizzle: no extra words
  }
}

}  // namespace
}  // namespace fft3d::testing
