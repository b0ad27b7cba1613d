// 1D and 2D transforms through the 3D engine: the default planner's plans of the largest supported shapes, in every
// axis placement, emit kernels of bounded source (a twiddle span over emit::max_direct_twiddle_span is two small
// tables, not `span` literals, which NVRTC could not compile in any useful time), and a 2^24-point 1D plan's
// kernels compile with NVRTC for sm_90 in seconds (no GPU needed).
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>

#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/planner.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d::testing {
namespace {

// The most source one kernel may emit: a two-level table of a 2^27 span plus a kernel's code fit several times
// over, while one table of `span` literals for a 2^20 span (over 30 MB) is far above it.
constexpr std::size_t max_kernel_source_bytes = std::size_t{1} << 21;
// The most NVRTC may take for one kernel of a 2^24-point plan: many times a 3D plan's kernel, far below a crawl.
constexpr double max_compile_seconds = 30;

constexpr std::int64_t longest_1d = std::int64_t{1} << 27;
constexpr std::int64_t longest_2d_side = 16384;

// N in each placement: Nx1x1, 1xNx1, 1x1xN.
std::vector<Extents> placements_1d(std::int64_t n) { return {{n, 1, 1}, {1, n, 1}, {1, 1, n}}; }
// NxN in each placement: NxNx1, 1xNxN, Nx1xN.
std::vector<Extents> placements_2d(std::int64_t n) { return {{n, n, 1}, {1, n, n}, {n, 1, n}}; }

// The size's default hopper plan, planned once per test program (the largest take seconds each).
const Plan& planned(const Extents& size) {
  static std::map<std::string, Plan> plans;
  const std::string key = to_string(size);
  if (!plans.count(key)) plans[key] = default_plan(size, "hopper");
  return plans[key];
}

// Every kernel of the size's default hopper plan, the digit-reversal pass included.
std::vector<KernelSpec> default_plan_kernels(const Extents& size) {
  const Plan& plan = planned(size);
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"), to_string(size));
  std::vector<KernelSpec> specs = lowered.launched_specs();
  return specs;
}

void expect_bounded_sources(const Extents& size) {
  for (const KernelSpec& spec : default_plan_kernels(size)) {
    const std::size_t bytes = emit_cuda_source(spec).size();
    EXPECT_LE(bytes, max_kernel_source_bytes) << to_string(size) << " kernel " << spec.kernel_index;
    std::cout << to_string(size) << " kernel " << spec.kernel_index << ": " << bytes << " B of source\n";
  }
}

TEST(Shapes1d2d, TheLargest1dPlansEmitBoundedSourceInEveryPlacement) {
  for (const Extents& size : placements_1d(longest_1d)) expect_bounded_sources(size);
}

TEST(Shapes1d2d, TheLargest2dPlansEmitBoundedSourceInEveryPlacement) {
  for (const Extents& size : placements_2d(longest_2d_side)) expect_bounded_sources(size);
}

// The kernels of the default hopper plan of the 1D and 2D sizes the benchmarks cover, in every placement. A 2^24
// line is the four-step plan (two kernels); along X the cost model ranks 2^27's two-kernel plan, whose tiles spread
// over clusters of 8 blocks, after three kernels of one-block tiles. A 2D size whose outer axis is no longer than X
// takes one axis a kernel (two kernels), its 16384-point lines spread over clusters too, except along Z, where
// narrow_x_runs keeps 128-byte runs on lines of 512 planes or more (16384x1x16384 runs as 16384x16384x1, L100).
struct ShapeKernels {
  Extents size;
  std::size_t kernels = 0;
};
const std::vector<ShapeKernels> benchmark_shapes = {
    {{1 << 20, 1, 1}, 2},    {{1, 1 << 20, 1}, 2},    {{1, 1, 1 << 20}, 2},    {{1 << 22, 1, 1}, 2},
    {{1, 1 << 22, 1}, 2},    {{1, 1, 1 << 22}, 2},    {{1 << 24, 1, 1}, 2},    {{1, 1 << 24, 1}, 2},
    {{1, 1, 1 << 24}, 2},    {{longest_1d, 1, 1}, 3}, {{1, longest_1d, 1}, 2}, {{1, 1, longest_1d}, 2},
    {{1024, 1024, 1}, 2},    {{1, 1024, 1024}, 2},    {{1024, 1, 1024}, 2},    {{4096, 4096, 1}, 2},
    {{1, 4096, 4096}, 2},    {{4096, 1, 4096}, 2},    {{16384, 16384, 1}, 2}, {{1, 16384, 16384}, 2},
    {{16384, 1, 16384}, 3},
};

TEST(Shapes1d2d, DefaultPlansTakeTheRecordedKernelsPerShape) {
  for (const ShapeKernels& shape : benchmark_shapes) {
    const Plan& plan = planned(shape.size);
    EXPECT_EQ(plan.kernels.size(), shape.kernels) << to_string(shape.size) << "\n" << to_yaml(plan);
    EXPECT_NO_THROW(lower_plan(plan, *find_arch_profile("hopper"), to_string(shape.size)));
  }
}

// Compiles every kernel of the size's default plan for sm_90: without spills, each within max_compile_seconds.
void expect_compiles_in_seconds(const Extents& size) {
  for (const KernelSpec& spec : default_plan_kernels(size)) {
    const auto start = std::chrono::steady_clock::now();
    CompiledKernel compiled;
    ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << to_string(size) << " kernel " << spec.kernel_index;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LE(seconds, max_compile_seconds) << to_string(size) << " kernel " << spec.kernel_index;
    EXPECT_FALSE(compiled.report.spills()) << spec.entry_name() << "\n" << compiled.report.log;
    std::cout << to_string(size) << " kernel " << spec.kernel_index << ": " << seconds << " s"
              << (compiled.report.from_cache ? " (cached)" : "") << ", " << compiled.report.registers
              << " registers\n";
  }
}

TEST(Shapes1d2d, A2To24PointPlanCompilesForSm90InSeconds) {
  expect_compiles_in_seconds({std::int64_t{1} << 24, 1, 1});
}

// The two-kernel plans of the other placements: the four-step along Z, and Y riding in the Z kernels.
TEST(Shapes1d2d, TheOtherPlacementsTwoKernelPlansCompileWithoutSpills) {
  expect_compiles_in_seconds({1, 1, std::int64_t{1} << 24});
  expect_compiles_in_seconds({1, 4096, 4096});
}

}  // namespace
}  // namespace fft3d::testing
