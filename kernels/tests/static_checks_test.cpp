// The static checkers on every shipped kernel: coalesced global accesses and the bank-conflict degree of every
// shared-memory phase on the plan's own profile.
#include <gtest/gtest.h>

#include "fft3d/arch_profile.hpp"
#include "lowering/tile_maps.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

TEST(StaticChecks, EveryShippedKernelIsCoalesced) {
  ASSERT_FALSE(shipped_plans().empty()) << "no shipped plan found: the loop below would check nothing";
  for (const NamedPlan& named : shipped_plans()) {
    for (const KernelSpec& spec : lower_plan(named.plan, *find_arch_profile(named.plan.arch)).kernels) {
      const tile::CoalescingReport report = tile::check_coalescing(spec);
      EXPECT_TRUE(report.coalesced()) << named.name << " kernel " << spec.kernel_index << ": "
                                      << report.first_problem;
      EXPECT_GT(report.requests, 0);
    }
  }
}

// The shipped real plans of a power-of-two NX on the rows a run gives them (check_real_row_coalescing). Out of
// place, a C2R reads the half spectrum's rows of NX/2 + 1 values (8 bytes off a segment's start) in its first kernel
// only, and keeps its intermediate in the output's real rows of NX/2 values: its other kernels cover whole
// segments; an R2C writes the half spectrum from its step kernel on, so every kernel has partial segments, its step
// kernel fewer than in place (its real rows are whole there). In place every kernel is on rows of NX/2 + 1 values.
// Complex kernels report nothing there.
TEST(StaticChecks, RealKernelsOnTheLaunchsRowsShowTheHalfSpectrumsOffset) {
  int checked = 0;
  for (const NamedPlan& named : shipped_real_plans()) {
    if (named.plan.arch != "hopper" || named.plan.size.nx % 32 != 0) continue;
    SCOPED_TRACE(named.name);
    const bool r2c = kind_of(named.plan) == TransformKind::r2c;
    for (const KernelSpec& spec : lower_plan(named.plan, *find_arch_profile(named.plan.arch)).kernels) {
      const tile::CoalescingReport out = tile::check_real_row_coalescing(spec, {.in_place = false});
      const tile::CoalescingReport in = tile::check_real_row_coalescing(spec, {.in_place = true});
      ASSERT_GT(out.requests, 0);
      const std::string kernel = "kernel " + std::to_string(spec.kernel_index);
      EXPECT_EQ(out.coalesced(), !r2c && spec.kernel_index > 0) << kernel << ": " << out.first_problem;
      if (r2c && spec.real.has_step())
        EXPECT_GT(out.segments - out.partial_segments, in.segments - in.partial_segments) << kernel;
      EXPECT_FALSE(in.coalesced()) << kernel;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
  for (const NamedPlan& named : shipped_plans())
    for (const KernelSpec& spec : lower_plan(named.plan, *find_arch_profile(named.plan.arch)).kernels)
      EXPECT_EQ(tile::check_real_row_coalescing(spec, {}).requests, 0) << named.name;
}

TEST(StaticChecks, EveryShippedKernelIsBankConflictFree) {
  ASSERT_FALSE(shipped_plans().empty()) << "no shipped plan found: the loop below would check nothing";
  for (const NamedPlan& named : shipped_plans()) {
    for (const KernelSpec& spec : lower_plan(named.plan, *find_arch_profile(named.plan.arch)).kernels) {
      const tile::BankReport report = tile::check_bank_conflicts(spec);
      std::string phases;
      for (const tile::PhaseConflict& p : report.phases) phases += " [" + p.phase + ": " + std::to_string(p.degree) + "]";
      std::cout << named.name << " kernel " << spec.kernel_index << " " << to_string(spec.shared) << ":" << phases
                << "\n";
      // The natural-order store gathers digit-reversed elements; its degree is reported, not required to be 1.
      EXPECT_EQ(report.worst_excluding_natural_store(), 1) << named.name << " kernel " << spec.kernel_index;
    }
  }
}

TEST(StaticChecks, ConflictDegreeOfAStridedLayoutIsSeen) {
  // Radix-16 butterflies along X, one per Y row: with an identity layout the 16 threads of a half-warp read
  // words 16 apart, all in one of the 16 banks.
  Plan plan;
  plan.size = {16, 16, 1};
  plan.arch = "tesla";
  plan.kernels = {Kernel{{{Axis::x, 1, 16, 1, 16, false}, {Axis::y, 1, 16, 1, 16, false}}}};
  KernelSpec spec = lower_plan(plan, *find_arch_profile("tesla")).kernels[0];
  SharedLayout identity{SharedLayoutKind::identity, 0, 16, spec.tile_elements};
  EXPECT_GT(tile::check_bank_conflicts(spec, identity).worst(), 1);
  EXPECT_EQ(tile::check_bank_conflicts(spec).worst_excluding_natural_store(), 1);
}

TEST(StaticChecks, ExplainNamesEveryKernelAndTheNaturalOrderPass) {
  const NamedPlan named = shipped_plans().front();
  const std::string text = tile::explain(lower_plan(named.plan, *find_arch_profile(named.plan.arch)));
  for (std::size_t k = 0; k < named.plan.kernels.size(); ++k)
    EXPECT_NE(text.find("kernel " + std::to_string(k) + " (tile): {" + to_string(named.plan.kernels[k]) + "}"),
              std::string::npos) << text;
  EXPECT_NE(text.find("digit-reversal pass"), std::string::npos) << text;
  EXPECT_NE(text.find("all whole 128-byte segments"), std::string::npos) << text;
}

}  // namespace
}  // namespace fft3d::testing
