// fp64 kernels from the same plans (plan.precision): lowering counts every byte in the precision's element size
// (a tile that fits in fp32 may not in fp64, and lowering says where), the lowered fp64 specs still compute the DFT
// (tile interpreter), the emitted fp64 text holds no fp32 type, and NVRTC compiles fp64 kernels of every kernel
// structure for sm_90 (no GPU needed). The fp32 text is untouched: golden_source_test checks that.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "test_plans.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

Plan in_fp64(Plan plan) {
  plan.precision = Precision::fp64;
  return plan;
}

NamedPlan table_plan(const std::string& arch, const std::string& file) {
  const std::string name = arch + "/" + file;
  return {name, load_plan_file(std::string(FFT3D_SOURCE_DIR) + "/plans/" + name).plan};
}

LoweredPlan lower_fp64(const NamedPlan& named) {
  return lower_plan(in_fp64(named.plan), *find_arch_profile(named.plan.arch), named.name);
}

// The default planner's plan for `size` on hopper, its candidates lowered in fp64.
NamedPlan fp64_planner_plan(const Extents& size) {
  Plan plan = default_plan(size, "hopper", passes_in_precision(passes_on_its_profile, Precision::fp64));
  plan.precision = Precision::fp64;
  return {"fp64 planner " + to_string(size), plan};
}

// Plans of every kernel structure: powers of two (hopper's 128^3, 256^3 and 512^3 tables: split lines, a tile
// spread over 16 blocks), the fp64 planner's 96^3, mixed radix 3/5/7, tiles spread over clusters, real R2C and C2R.
std::vector<NamedPlan> fp64_structure_plans() {
  std::vector<NamedPlan> plans = {table_plan("hopper", "128x128x128.yaml"), table_plan("hopper", "256x256x256.yaml"),
                                  table_plan("hopper", "512x512x512.yaml"), fp64_planner_plan({96, 96, 96}),
                                  table_plan("hopper", "128x128x128-r2c.yaml"),
                                  table_plan("hopper", "128x128x128-c2r.yaml")};
  const std::vector<NamedPlan> mixed = mixed_radix_plans();
  for (std::size_t i = 0; i < mixed.size(); i += 4) plans.push_back(mixed[i]);
  // Tiles spread over a cluster: those whose fp64 parts still fit the profile's portable cluster.
  for (const NamedPlan& named : distributed_tile_plans())
    if (lower_if_it_fits({named.name, in_fp64(named.plan)})) plans.push_back(named);
  return plans;
}

// Every kernel of the plan lowers in fp64 with a precision tag, and its shared memory counts 8-byte words.
TEST(Fp64Lowering, SharedBytesCountDoubles) {
  const NamedPlan named = table_plan("hopper", "128x128x128.yaml");
  const LoweredPlan fp32 = lower_plan(named.plan, *find_arch_profile("hopper"), named.name);
  const LoweredPlan fp64 = lower_fp64(named);
  ASSERT_EQ(fp32.kernels.size(), fp64.kernels.size());
  EXPECT_EQ(fp64.precision(), Precision::fp64);
  for (std::size_t k = 0; k < fp64.kernels.size(); ++k) {
    const KernelSpec& spec = fp64.kernels[k];
    EXPECT_EQ(spec.precision, Precision::fp64);
    EXPECT_EQ(spec.real_bytes(), 8);
    EXPECT_EQ(spec.shared_bytes, 2 * spec.shared.words * 8) << k;
    EXPECT_EQ(spec.conflict_group_threads, 16) << k;
    EXPECT_NE(to_string(spec).find("precision fp64"), std::string::npos);
    EXPECT_EQ(to_string(fp32.kernels[k]).find("precision"), std::string::npos);
    EXPECT_NE(spec.entry_name(), fp32.kernels[k].entry_name());
  }
  if (fp64.reorder) {
    EXPECT_EQ(fp64.workspace_bytes(), 2 * fp32.workspace_bytes());
  }
}

// A fermi tile (48 KB a block, no clusters) that fits in fp32 and not in fp64: a located LoweringError naming the
// kernel, the tile's elements as fp64 and the bytes it needs.
TEST(Fp64Lowering, ATileThatFitsOnlyInFp32IsALocatedError) {
  const Plan plan = parse_plan("size: [64, 64, 1]\narch: fermi\nkernels:\n"
                               "  - \"X(8, 8, 8, 64, tw), X(8, 8, 1, 8, no-tw), Y(8, 8, 8, 64, tw), Y(8, 8, 1, 8, no-tw)\"\n")
                        .plan;
  const ArchProfile& fermi = *find_arch_profile("fermi");
  EXPECT_NO_THROW(lower_plan(plan, fermi));
  try {
    lower_plan(in_fp64(plan), fermi);
    FAIL() << "the 4096-element fp64 tile lowered on fermi";
  } catch (const LoweringError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("kernel 0"), std::string::npos) << what;
    EXPECT_NE(what.find("4096 fp64 elements"), std::string::npos) << what;
    EXPECT_NE(what.find("65536 B"), std::string::npos) << what;
    EXPECT_NE(what.find("fermi"), std::string::npos) << what;
  }
}

// The hopper table's 512^3 plan holds a 16 x 512 x 16 tile: 2 MB of doubles, spread over an opt-in cluster of 16
// blocks of 128 KB in fp64 (8 in fp32). A descriptor asking fp64 takes the table plan only where the planner's fp64
// costs rank it before the default planner's plan: at 512^3 they do not (the 16-block fp64 tiles), so the default
// planner's plan, chosen among candidates that lower in fp64, runs: out of place L153's two-pass Z split (tiles over
// 8 parts of 64 KB, docs/performance.md L156); in place three passes of one-block tiles (the table's in-place plan).
// A size without a table plan takes the planner's too.
TEST(Fp64Lowering, DescriptorsTakeTheTablePlanOnlyWhereFp64CostsRankItFirst) {
  const LoweredPlan table512 = lower_fp64(table_plan("hopper", "512x512x512.yaml"));
  EXPECT_EQ(table512.kernels[1].tile_blocks, 16);
  EXPECT_EQ(lower_plan(table_plan("hopper", "512x512x512.yaml").plan, *find_arch_profile("hopper")).kernels[1]
                .tile_blocks,
            8);
  const SizedPlan chosen512 =
      plan_for_descriptor({.extents = {512, 512, 512}, .precision = Precision::fp64}, "hopper", true);
  EXPECT_EQ(chosen512.parsed.plan.precision, Precision::fp64);
  EXPECT_NE(chosen512.source.find("default planner"), std::string::npos) << chosen512.source;
  const LoweredPlan planned512 = lower_plan(chosen512.parsed.plan, *find_arch_profile("hopper"));
  ASSERT_EQ(planned512.kernels.size(), 2u);
  for (const KernelSpec& kernel : planned512.kernels) EXPECT_EQ(kernel.tile_blocks, 8);
  const SizedPlan in_place512 = plan_for_descriptor(
      {.extents = {512, 512, 512}, .precision = Precision::fp64, .placement = Placement::in_place}, "hopper", true);
  const LoweredPlan three_passes = lower_plan(in_place512.parsed.plan, *find_arch_profile("hopper"));
  EXPECT_EQ(three_passes.kernels.size(), 3u);
  for (const KernelSpec& kernel : three_passes.kernels) EXPECT_EQ(kernel.tile_blocks, 1);
  // Where the table's plan costs no more in fp64 (the same plan as the planner's), the table's serves.
  const SizedPlan chosen1024 =
      plan_for_descriptor({.extents = {1024, 1024, 1024}, .precision = Precision::fp64}, "hopper", true);
  EXPECT_NE(chosen1024.source.find("table, in fp64"), std::string::npos) << chosen1024.source;
  const SizedPlan chosen96 =
      plan_for_descriptor({.extents = {96, 96, 96}, .precision = Precision::fp64}, "hopper", true);
  EXPECT_EQ(chosen96.parsed.plan.precision, Precision::fp64);
  EXPECT_NE(chosen96.source.find("default planner"), std::string::npos) << chosen96.source;
  EXPECT_NO_THROW(lower_plan(chosen96.parsed.plan, *find_arch_profile("hopper")));
  const SizedPlan fp32 = plan_for_descriptor({.extents = {512, 512, 512}}, "hopper", true);
  EXPECT_EQ(fp32.parsed.plan.precision, Precision::fp32);
  EXPECT_NE(fp32.source.find("table)"), std::string::npos) << fp32.source;
}

// An fp64 tile spread over a cluster takes parts of 64 KB, two blocks a multiprocessor, even where a middle pass
// crosses (512^3's {X 512, Z 64}: Z's first pass after X's three); one that fits one block stays whole (256^3's first
// kernel, 128 KB of doubles), and fp32 keeps its rule (the first pass alone crossing).
TEST(Fp64Lowering, SpreadTilesTakeHalfBlockPartsTwoAMultiprocessor) {
  const Plan plan = parse_plan("size: [512, 512, 512]\narch: hopper\nkernels:\n"
                               "  - \"X(1, 512, 1, 512, no-tw), Z(8, 64, 8, 512, tw)\"\n"
                               "  - \"Z(64, 8, 1, 8, no-tw), Y(1, 512, 1, 512, no-tw)\"\n")
                        .plan;
  const ArchProfile& hopper = *find_arch_profile("hopper");
  const KernelSpec spread = lower_plan(in_fp64(plan), hopper).kernels[0];
  EXPECT_EQ(spread.tile_blocks, 8);
  EXPECT_EQ(spread.complex_bytes() * spread.part_elements(), 65536);
  EXPECT_EQ(spread.blocks_per_multiprocessor, 2);
  EXPECT_EQ(spread.threads, 256);
  const KernelSpec fp32 = lower_plan(plan, hopper).kernels[0];
  EXPECT_EQ(fp32.blocks_per_multiprocessor, 1);
  EXPECT_EQ(fp32.complex_bytes() * fp32.part_elements(), 131072);
  const KernelSpec whole = lower_fp64(table_plan("hopper", "256x256x256.yaml")).kernels[0];
  EXPECT_EQ(whole.tile_blocks, 1);
  EXPECT_EQ(whole.complex_bytes() * whole.tile_elements, 131072);
}

// A hopper tile that no cluster holds in fp64: a 1024 x 1024 tile is 16 MB of doubles, over 16 blocks of 128 KB.
TEST(Fp64Lowering, ATileOverTheLargestClusterIsALocatedError) {
  const std::string kernel = "X(32, 32, 32, 1024, tw), X(32, 32, 1, 32, no-tw), Y(32, 32, 32, 1024, tw), "
                             "Y(32, 32, 1, 32, no-tw)";
  const Plan plan = parse_plan("size: [1024, 1024, 1]\narch: hopper\nkernels:\n  - \"" + kernel + "\"\n").plan;
  try {
    lower_plan(in_fp64(plan), *find_arch_profile("hopper"));
    FAIL() << "a 1024 x 1024 fp64 tile lowered on hopper";
  } catch (const LoweringError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("kernel 0"), std::string::npos) << what;
    EXPECT_NE(what.find("1048576 fp64 elements"), std::string::npos) << what;
    EXPECT_NE(what.find("hopper"), std::string::npos) << what;
  }
}

// The lowered fp64 specs (smaller tiles, more cluster parts, lower register radix) still compute the DFT: the tile
// interpreter runs them exactly as the kernels do.
TEST(Fp64Lowering, InterpretedFp64KernelsComputeTheDft) {
  std::uint64_t seed = 11;
  int lowered_plans = 0;
  for (const char* arch : {"fermi", "hopper"})
    for (const NamedPlan& named : random_plans(12, 7, 16, arch)) {
      SCOPED_TRACE(named.name);
      const std::optional<LoweredPlan> lowered = lower_if_it_fits({named.name, in_fp64(named.plan)});
      if (!lowered) continue;
      ++lowered_plans;
      std::vector<std::complex<double>> input(static_cast<std::size_t>(named.plan.size.elements()));
      validate::fill_random(input, seed++);
      const std::vector<std::complex<double>> expected = naive_dft(named.plan.size, input, Direction::forward);
      std::vector<std::complex<double>> data = input;
      interpret(*lowered, data, {});
      EXPECT_LT(validate::compare(data, expected).relative_l2, 1e-12);
    }
  EXPECT_GT(lowered_plans, 10);
}

// fp64 kernel text: double2 throughout, no fp32 type or PTX suffix, and the fp64 signature.
void expect_fp64_text(const KernelSpec& spec) {
  const std::string text = emit_cuda_kernel_text(spec);
  static const std::regex fp32_word(R"(\bfloat2?\b|make_float2|\.f32\b)");
  std::smatch match;
  EXPECT_FALSE(std::regex_search(text, match, fp32_word)) << spec.entry_name() << ": " << match.str();
  EXPECT_NE(text.find("(const double2* in, double2* out, double scale, int flags"), std::string::npos)
      << spec.entry_name();
}

TEST(Fp64Emit, KernelTextHoldsNoFp32Type) {
  int spread = 0, split = 0, real = 0, clustered = 0;
  for (const NamedPlan& named : fp64_structure_plans()) {
    SCOPED_TRACE(named.name);
    const LoweredPlan lowered = lower_fp64(named);
    for (const KernelSpec& spec : lowered.kernels) {
      expect_fp64_text(spec);
      spread += spec.tile_blocks > 1;
      clustered += spec.cluster_blocks > 1;
      real += spec.real.has_step();
      for (const TileStage& stage : spec.stages) split += stage.is_split();
    }
    if (lowered.reorder) expect_fp64_text(*lowered.reorder);
  }
  // The set covers every structure the emitter has: DSMEM parts, clusters, split radices, the real step.
  EXPECT_GT(spread, 0);
  EXPECT_GT(clustered, 0);
  EXPECT_GT(split, 0);
  EXPECT_GE(real, 2);
}

// Twiddle literals of fp64 kernels round-trip doubles: 17 significant digits, no float suffix.
TEST(Fp64Emit, TwiddlesPrintSeventeenDigits) {
  const LoweredPlan lowered = lower_fp64(table_plan("hopper", "128x128x128.yaml"));
  const std::string text = emit_cuda_kernel_text(lowered.kernels.front());
  EXPECT_NE(text.find("7.0710678118654757e-01"), std::string::npos);
  EXPECT_EQ(text.find("7.07106781e-01f"), std::string::npos);
}

// NVRTC compiles fp64 kernels of every structure for sm_90.
TEST(Fp64Emit, NvrtcCompilesFp64KernelsForSm90) {
  for (const NamedPlan& named : fp64_structure_plans()) {
    const LoweredPlan lowered = lower_fp64(named);
    std::vector<KernelSpec> specs = lowered.launched_specs();
    for (const KernelSpec& spec : specs) {
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << named.name << " kernel " << spec.kernel_index;
      EXPECT_GT(compiled.report.registers, 0) << compiled.report.log;
      std::cout << named.name << " fp64 kernel " << spec.kernel_index << ": " << compiled.report.registers
                << " registers, " << compiled.report.spill_store_bytes << "/" << compiled.report.spill_load_bytes
                << " B spilled, " << spec.shared_bytes << " B shared\n";
    }
  }
}

}  // namespace
}  // namespace fft3d::testing
