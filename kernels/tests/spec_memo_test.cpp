// SpecMemo (lowering/spec_memo.hpp): a rule runs once per key, the key ignores only the fields that name a kernel
// (plan name, plan hash, kernel index), any other field of the spec or the profile is a new key, and a full memo
// starts over.
#include <gtest/gtest.h>

#include "fft3d/arch_profile.hpp"
#include "lowering/spec_memo.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

KernelSpec some_spec() {
  const std::vector<NamedPlan> plans = shipped_plans();
  return lower_plan(plans.front().plan, *find_arch_profile(plans.front().plan.arch)).kernels.front();
}

TEST(SpecMemo, RunsTheRuleOncePerKeyWhateverTheKernelIsNamed) {
  lowering::SpecMemo<int> memo(8);
  const ArchProfile profile = *find_arch_profile("hopper");
  int runs = 0;
  const auto rule = [&runs] { return ++runs; };
  KernelSpec spec = some_spec();
  EXPECT_EQ(memo.get(spec, profile, rule), 1);
  spec.plan_name = "another plan";
  spec.plan_hash += 1;
  spec.kernel_index += 1;
  EXPECT_EQ(memo.get(spec, profile, rule), 1);
  EXPECT_EQ(runs, 1);
}

TEST(SpecMemo, AnyOtherFieldOrTheProfileIsANewKey) {
  lowering::SpecMemo<int> memo(8);
  const ArchProfile profile = *find_arch_profile("hopper");
  int runs = 0;
  const auto rule = [&runs] { return ++runs; };
  const KernelSpec spec = some_spec();
  EXPECT_EQ(memo.get(spec, profile, rule), 1);
  KernelSpec threads = spec;
  threads.threads *= 2;
  EXPECT_EQ(memo.get(threads, profile, rule), 2);
  ArchProfile banks = profile;
  banks.shared_memory_banks /= 2;
  EXPECT_EQ(memo.get(spec, banks, rule), 3);
  EXPECT_EQ(memo.get(spec, profile, rule), 1);
  EXPECT_EQ(memo.get(threads, profile, rule), 2);
  EXPECT_EQ(runs, 3);
}

TEST(SpecMemo, AFullMemoStartsOver) {
  lowering::SpecMemo<int> memo(2);
  const ArchProfile profile = *find_arch_profile("hopper");
  int runs = 0;
  const auto rule = [&runs] { return ++runs; };
  KernelSpec spec = some_spec();
  for (int threads : {64, 128}) {
    spec.threads = threads;
    memo.get(spec, profile, rule);
  }
  spec.threads = 256;  // the third key empties the memo
  EXPECT_EQ(memo.get(spec, profile, rule), 3);
  spec.threads = 64;
  EXPECT_EQ(memo.get(spec, profile, rule), 4);
  spec.threads = 256;
  EXPECT_EQ(memo.get(spec, profile, rule), 3);
}

}  // namespace
}  // namespace fft3d::testing
