// The slab and column plans of a slab decomposition over G GPUs (default_axes_plan): the z slab (NX, NY, NZ/G)
// transformed over X and Y, the y slab (NX, NY/G, NZ) over Z. They lower on hopper at every size and GPU count the
// multi-GPU transform runs, and a few of them compile with NVRTC for sm_90 without spills (no GPU needed).
#include <gtest/gtest.h>

#include <iostream>

#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/planner.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d::testing {
namespace {

const std::vector<std::int64_t> cube_lengths = {256, 512, 1024, 2048};
const std::vector<std::int64_t> gpu_counts = {1, 2, 4, 8};

// GPU g of `gpus` holds the z slab (n, n, n/gpus), then the y slab (n, n/gpus, n) of an n^3 volume.
Plan slab_plan(std::int64_t n, std::int64_t gpus) {
  return default_axes_plan({n, n, n / gpus}, "hopper", {Axis::x, Axis::y});
}
Plan column_plan(std::int64_t n, std::int64_t gpus) {
  return default_axes_plan({n, n / gpus, n}, "hopper", {Axis::z});
}

std::string name_of(const Plan& plan) { return to_string(plan.size) + " axes " + axes_text(plan.axes); }

TEST(AxesPlans, TheSlabAndColumnPlansLowerOnHopperAtEverySizeAndGpuCount) {
  for (std::int64_t n : cube_lengths)
    for (std::int64_t gpus : gpu_counts)
      for (const Plan& plan : {slab_plan(n, gpus), column_plan(n, gpus)}) {
        SCOPED_TRACE(to_yaml(plan));
        LoweredPlan lowered;
        ASSERT_NO_THROW(lowered = lower_plan(plan, *find_arch_profile("hopper"), name_of(plan)));
        const std::optional<double> passes = passes_on_its_profile(plan);
        ASSERT_TRUE(passes.has_value());
        for (const KernelSpec& spec : lowered.kernels) EXPECT_EQ(spec.size, plan.size);
        std::cout << name_of(plan) << ": " << to_brace_string(plan.kernels) << ", " << *passes << " passes"
                  << (lowered.reorder ? " (with the digit-reversal pass)" : "") << "\n";
      }
}

// A handful, so that the CI's two cores compile it in reasonable time: both plans at the smallest and largest size.
TEST(AxesPlans, SlabAndColumnKernelsCompileForSm90WithoutSpills) {
  for (const Plan& plan : {slab_plan(256, 2), column_plan(256, 2), slab_plan(2048, 8), column_plan(2048, 8)}) {
    const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"), name_of(plan));
    std::vector<KernelSpec> specs = lowered.launched_specs();
    for (const KernelSpec& spec : specs) {
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << name_of(plan) << " kernel " << spec.kernel_index;
      EXPECT_FALSE(compiled.report.spills())
          << name_of(plan) << " " << spec.entry_name() << "\n" << compiled.report.log;
      EXPECT_GT(compiled.report.registers, 0) << compiled.report.log;
      std::cout << name_of(plan) << " kernel " << spec.kernel_index << ": " << compiled.report.registers
                << " registers, " << spec.shared_bytes << " B shared\n";
    }
  }
}

}  // namespace
}  // namespace fft3d::testing
