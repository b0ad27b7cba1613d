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
