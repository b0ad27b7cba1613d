// Tiles spread over a cluster (lowering rule distribute_tile.cpp): the part maps are bijections, every butterfly of
// every pass is run by exactly one part, a pass that does not cross parts touches only its part's elements, and the
// kernels compile for sm_90 without spills. (The arithmetic is the tile's, whichever block runs it: the GPU test
// DistributedTilesOnGpu checks the results against cuFFT.)
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cuda/cuda_compiler.hpp"
#include "fft3d/planner.hpp"
#include "emit/cuda_source.hpp"
#include "lowering/tile_maps.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/wisdom.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

LoweredPlan lower_distributed(const NamedPlan& named) {
  return lower_plan(named.plan, *find_arch_profile("hopper"), named.name);
}

TEST(DistributedTile, EachPlanSpreadsATileOverACluster) {
  for (const NamedPlan& named : distributed_tile_plans()) {
    SCOPED_TRACE(named.name);
    int spread = 0;
    for (const KernelSpec& spec : lower_distributed(named).kernels) {
      if (spec.tile_blocks == 1) continue;
      ++spread;
      EXPECT_GT(spec.tile_elements * 8, find_arch_profile("hopper")->shared_memory_per_block);
      EXPECT_LE(spec.shared_bytes, find_arch_profile("hopper")->shared_memory_per_block);
      EXPECT_LE(spec.cluster_blocks, find_arch_profile("hopper")->max_cluster_size);
      EXPECT_TRUE(tile::check_coalescing(spec).coalesced()) << tile::check_coalescing(spec).first_problem;
      EXPECT_TRUE(tile::check_cluster_stores(spec).closed()) << tile::check_cluster_stores(spec).first_problem;
    }
    EXPECT_EQ(spread, 1);
  }
}

// Every (part, local butterfly) names a distinct butterfly of the tile; without crossing, all its elements are the
// part's own.
void check_pass(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix, bool cross) {
  const std::int64_t per_part = spec.part_elements() / radix;
  std::vector<int> runs(static_cast<std::size_t>(spec.tile_elements / radix), 0);
  for (std::int64_t part = 0; part < spec.tile_blocks; ++part)
    for (std::int64_t local = 0; local < per_part; ++local) {
      const std::int64_t b = tile::part_butterfly(spec, element_step, radix, cross, part, local);
      ASSERT_LT(b, static_cast<std::int64_t>(runs.size()));
      ++runs[static_cast<std::size_t>(b)];
      if (cross) continue;
      const std::int64_t base = tile::butterfly_base(element_step, radix, b);
      for (std::int64_t k = 0; k < radix; ++k)
        ASSERT_EQ(tile::element_part(spec, base + k * element_step), part) << "butterfly " << b << " input " << k;
    }
  EXPECT_EQ(std::count(runs.begin(), runs.end(), 1), static_cast<std::int64_t>(runs.size()));
}

TEST(DistributedTile, PartMapsAndButterflyAssignmentsArePartitions) {
  for (const NamedPlan& named : distributed_tile_plans())
    for (const KernelSpec& spec : lower_distributed(named).kernels) {
      if (spec.tile_blocks == 1) continue;
      SCOPED_TRACE(named.name + " kernel " + std::to_string(spec.kernel_index));
      std::vector<int> locals(static_cast<std::size_t>(spec.tile_elements), 0);
      for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
        const std::int64_t part = tile::element_part(spec, e), local = tile::part_local_element(spec, e);
        ASSERT_LT(local, spec.part_elements());
        ASSERT_EQ(tile::part_element(spec, part, local), e);
        ++locals[static_cast<std::size_t>(part * spec.part_elements() + local)];
      }
      EXPECT_EQ(std::count(locals.begin(), locals.end(), 1), spec.tile_elements);
      int crossing = 0;
      for (const TileStage& stage : spec.stages) {
        if (!stage.is_split()) {
          crossing += tile::stage_crosses_parts(spec, stage);
          check_pass(spec, stage.element_step, stage.sub.radix, tile::stage_crosses_parts(spec, stage));
          continue;
        }
        for (const tile::SplitPass& pass : tile::split_passes(stage)) {
          crossing += tile::pass_crosses_parts(spec, stage, pass);
          check_pass(spec, pass.element_step, pass.radix, tile::pass_crosses_parts(spec, stage, pass));
        }
      }
      EXPECT_GE(crossing, 1);  // every part bit is some stage's: at least one pass reaches other blocks
    }
}

// The writer-order exchange (tile::writer_exchange): in each receiving part the writers fill every word once, each
// writer's output lands in the part holding its element, exchange_word finds it there, and neither the stores nor
// the sweep's reads meet a bank conflict. Over the distributed plans and the planner's batches of lines over one
// block (32768 and 65536 points along X, 32768 along Y, 16384 in fp64).
void check_writer_exchange(const KernelSpec& spec, const tile::WriterExchange& x) {
  const TileStage& stage = spec.stages[x.stage];
  const std::int64_t butterflies = spec.part_elements() / x.last_radix;
  std::vector<int> filled(static_cast<std::size_t>(spec.tile_elements), 0);
  for (std::int64_t part = 0; part < spec.tile_blocks; ++part)
    for (std::int64_t local = 0; local < butterflies; ++local) {
      const std::int64_t b = tile::part_butterfly(spec, stage.element_step, x.last_radix, false, part, local);
      const std::int64_t base = tile::butterfly_base(stage.element_step, x.last_radix, b);
      for (std::int64_t k = 0; k < x.last_radix; ++k) {
        const std::int64_t e = tile::split_output_element(stage, base, k);
        const std::int64_t to = tile::writer_exchange_part(spec, x, k);
        const std::int64_t word = tile::writer_exchange_word(spec, x, part, local, k);
        ASSERT_EQ(tile::element_part(spec, e), to) << "part " << part << " butterfly " << local << " output " << k;
        ASSERT_LT(word, spec.part_elements());
        ASSERT_EQ(tile::exchange_word(spec, x, e), word) << "element " << e;
        ++filled[static_cast<std::size_t>(to * spec.part_elements() + word)];
      }
    }
  EXPECT_EQ(std::count(filled.begin(), filled.end(), 1), spec.tile_elements);
  for (const tile::PhaseConflict& phase : tile::check_bank_conflicts(spec).phases)
    if (phase.phase == "exchange stores" || phase.phase == "store from exchange")
      EXPECT_EQ(phase.degree, 1) << phase.phase;
}

TEST(DistributedTile, AWriterOrderExchangeFillsEachPartOnceAndTheSweepFindsEveryElement) {
  std::vector<LoweredPlan> lowered;
  for (const NamedPlan& named : distributed_tile_plans()) lowered.push_back(lower_distributed(named));
  const auto planned = [](const Extents& extents, std::int64_t batch, Precision precision) {
    const TransformDesc desc{.extents = extents, .precision = precision, .batch = batch};
    return lower_plan(plan_for_descriptor(desc, "hopper", true).parsed.plan, *find_arch_profile("hopper"),
                      to_string(extents));
  };
  lowered.push_back(planned({32768, 1, 1}, 512, Precision::fp32));
  lowered.push_back(planned({65536, 1, 1}, 64, Precision::fp32));
  lowered.push_back(planned({1, 32768, 1}, 64, Precision::fp32));
  lowered.push_back(planned({16384, 1, 1}, 512, Precision::fp64));
  int exchanged = 0;
  for (const LoweredPlan& plan : lowered)
    for (const KernelSpec& spec : plan.kernels) {
      const std::optional<tile::WriterExchange> x = tile::writer_exchange(spec);
      if (!x) continue;
      SCOPED_TRACE(spec.plan_name + " kernel " + std::to_string(spec.kernel_index));
      ++exchanged;
      check_writer_exchange(spec, *x);
    }
  EXPECT_GE(exchanged, 4);  // the four planned batches of lines
}

// What the planner is told a spread kernel costs (lowering/cost_model.cpp; docs/performance.md, ledger "spread
// tiles and parts"): over 2 blocks 1.2 of a pass more when a pass after the global loads crosses parts (0.4 when only
// the first does: PlannerCost), over 8 blocks 1.5, and 0.1 for a part that leaves room for one block per
// multiprocessor. And the 256 KB tile of a 2048-point line (on a profile that does not narrow X runs to keep it in
// one block, narrow_x_runs.cpp) keeps both global passes, with only its first pass crossing, and so takes 4 parts of
// 64 KB, charged as the 2 blocks of 128 KB they were measured as.
TEST(DistributedTile, PlannerChargesSpreadKernelsByTheirParts) {
  const Plan lines = parse_plan("size: [2048, 2048, 2048]\narch: hopper\nplan: \"{Y(1, 2048, 1, 2048, no-tw)} "
                                "{Z(1, 2048, 1, 2048, no-tw)} {X(1, 2048, 1, 2048, no-tw)}\"\n").plan;
  ArchProfile wide_runs = *find_arch_profile("hopper");
  wide_runs.narrow_x_run_bytes = 0;
  const KernelSpec y = lower_plan(lines, wide_runs).kernels[0];
  ASSERT_EQ(y.tile_blocks, 4);
  EXPECT_EQ(y.blocks_per_multiprocessor, 2);
  EXPECT_TRUE(y.load_in_first_pass);
  EXPECT_TRUE(y.store_in_last_pass);
  const tile::ButterflyPass first = tile::first_pass(y), last = tile::last_pass(y);
  EXPECT_TRUE(tile::crosses_parts(y, first.element_step, first.radix));
  EXPECT_FALSE(last.cross);
  const Plan pair = parse_plan("size: [32, 1024, 128]\narch: hopper\nplan: \"{X(1, 32, 1, 32, no-tw), Y(1, 1024, 1, "
                               "1024, no-tw)} {Z(1, 128, 1, 128, no-tw)}\"\n").plan;
  ASSERT_EQ(lower_plan(pair, *find_arch_profile("hopper")).kernels[0].tile_blocks, 2);
  EXPECT_NEAR(*passes_on_its_profile(pair), 2 + 1.2 + 0.1, 1e-12);  // X stages: a pass after the loads crosses
  const Plan eight = parse_plan("size: [512, 256, 256]\narch: hopper\nplan: \"{X(1, 512, 1, 512, no-tw), Y(1, 256, "
                                "1, 256, no-tw)} {Z(1, 256, 1, 256, no-tw)}\"\n").plan;
  ASSERT_EQ(lower_plan(eight, *find_arch_profile("hopper")).kernels[0].tile_blocks, 8);
  EXPECT_NEAR(*passes_on_its_profile(eight), 2 + 1.5 + 0.1 + 0.1, 1e-12);
}

// The hopper table's 512^3 plan: {X 512, Z 32 at stride 16} {Z 16, Y 512}, whose second tile is spread over 8 blocks.
KernelSpec second_kernel_of_the_512_cubed_split() {
  const Plan split = parse_plan("size: [512, 512, 512]\narch: hopper\nplan: \"{X(1, 512, 1, 512, no-tw), Z(16, 32, "
                                "16, 512, tw)} {Z(32, 16, 1, 16, no-tw), Y(1, 512, 1, 512, no-tw)}\"\n").plan;
  return lower_plan(split, *find_arch_profile("hopper")).kernels[1];
}

// The part field goes where only the first pass, loading from global memory, crosses parts where there is such a
// place, before fewer crossings in all (512^3's split {X 512, Z 32 at stride 16} {Z 16, Y 512} ran 15% faster with
// the field on Z's bits, crossed by the first pass alone, than on Y's top bits, crossed by one middle pass).
TEST(DistributedTile, ThePartFieldIsCrossedByTheFirstPassAloneWhereThatIsPossible) {
  const KernelSpec second = second_kernel_of_the_512_cubed_split();
  ASSERT_EQ(second.tile_blocks, 8);
  ASSERT_TRUE(second.load_in_first_pass);
  const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(second);
  ASSERT_GE(passes.size(), 2u);
  EXPECT_TRUE(passes.front().cross);  // the Z pass of radix 16: 8 X x 512 Y below the field's bits
  for (std::size_t p = 1; p < passes.size(); ++p) EXPECT_FALSE(passes[p].cross) << "pass " << p;
  EXPECT_EQ(second.part_shift(), 3 + 9 + 1);  // Z's top 3 bits, above 8 X (64-byte runs) and 512 Y
}

// A tile spread anyway whose first pass alone crosses takes parts of 64 KB, so that two blocks share a
// multiprocessor: 256x512x512's {Z 8, Y 512} (512 KB) over 8 blocks, not 4 of 128 KB. Its kernel asks for two blocks
// in its launch bounds and fits the registers that leaves a thread without spills (256 threads of
// 128 registers for its 512-point Y line in two passes). A tile whose middle pass crosses keeps parts of 128 KB, and
// so does every tile on a profile of one block a multiprocessor.
TEST(DistributedTile, TilesSpreadAnywayShareAMultiprocessorWhereOnlyTheFirstPassCrosses) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  const Plan plan = parse_plan("size: [256, 512, 512]\narch: hopper\nplan: \"{X(1, 256, 1, 256, no-tw), Z(8, 64, 8, "
                               "512, tw)} {Z(64, 8, 1, 8, no-tw), Y(1, 512, 1, 512, no-tw)}\"\n").plan;
  const KernelSpec second = lower_plan(plan, hopper).kernels[1];
  EXPECT_EQ(8 * second.tile_elements, 512 << 10);
  EXPECT_EQ(second.tile_blocks, 8);
  EXPECT_EQ(second.cluster_blocks, 8);
  EXPECT_EQ(8 * second.part_elements(), 64 << 10);
  EXPECT_EQ(second.blocks_per_multiprocessor, 2);
  EXPECT_EQ(second.threads, 256);
  const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(second);
  ASSERT_GE(passes.size(), 2u);
  EXPECT_TRUE(passes.front().cross);
  for (std::size_t p = 1; p < passes.size(); ++p) EXPECT_FALSE(passes[p].cross) << "pass " << p;
  EXPECT_NE(emit_cuda_source(second).find("__launch_bounds__(256, 2)"), std::string::npos);
  CompiledKernel compiled;
  ASSERT_NO_THROW(compiled = compile_kernel(second, 90));
  EXPECT_LE(compiled.report.registers, 128);
  EXPECT_FALSE(compiled.report.spills()) << compiled.report.log;

  ArchProfile one_block = hopper;
  one_block.spread_blocks_per_multiprocessor = 1;
  const KernelSpec whole = lower_plan(plan, one_block).kernels[1];
  EXPECT_EQ(whole.tile_blocks, 4);
  EXPECT_EQ(whole.blocks_per_multiprocessor, 1);
  EXPECT_NE(emit_cuda_source(whole).find("__launch_bounds__(1024)"), std::string::npos);

  const Plan pair = parse_plan("size: [32, 1024, 128]\narch: hopper\nplan: \"{X(1, 32, 1, 32, no-tw), Y(1, 1024, 1, "
                               "1024, no-tw)} {Z(1, 128, 1, 128, no-tw)}\"\n").plan;
  const KernelSpec crossing_later = lower_plan(pair, hopper).kernels[0];
  EXPECT_EQ(crossing_later.tile_blocks, 2);
  EXPECT_EQ(crossing_later.blocks_per_multiprocessor, 1);
}

// split_radix.cpp: a spread tile whose blocks share a multiprocessor runs a 512-point Y line in two
// passes, [16,32] on 256 threads, where the in-register limit would make it [8,8,8] on 512; the part field, and so
// the one crossing first pass, stay where they were. A 1024-point Y line ([8,8,16]) and a 512-point Z line behind 8 Y
// ran slower that way and keep their passes and 512 threads.
TEST(DistributedTile, SharedSpreadTilesRunA512PointYLineInTwoPasses) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  const KernelSpec y512 = second_kernel_of_the_512_cubed_split();
  ASSERT_EQ(y512.blocks_per_multiprocessor, 2);
  ASSERT_EQ(y512.stages.size(), 2u);
  EXPECT_EQ(y512.stages[1].split_radices, (std::vector<std::int64_t>{16, 32}));
  EXPECT_EQ(y512.threads, 256);
  EXPECT_EQ(y512.part_shift(), 3 + 9 + 1);
  const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(y512);
  ASSERT_EQ(passes.size(), 3u);  // the crossing Z 16, then Y 16 and Y 32
  EXPECT_TRUE(passes.front().cross);
  EXPECT_FALSE(passes[1].cross);
  EXPECT_FALSE(passes[2].cross);

  const auto second_kernel = [&](const std::string& plan_text) {
    return lower_plan(parse_plan(plan_text).plan, hopper).kernels[1];
  };
  const KernelSpec y1024 = second_kernel("size: [128, 1024, 1024]\narch: hopper\nplan: \"{X(1, 128, 1, 128, no-tw), "
                                         "Z(8, 128, 8, 1024, tw)} {Z(128, 8, 1, 8, no-tw), Y(1, 1024, 1, 1024, "
                                         "no-tw)}\"\n");
  const KernelSpec z512 = second_kernel("size: [1024, 64, 512]\narch: hopper\nplan: \"{X(1, 1024, 1, 1024, no-tw), "
                                        "Y(8, 8, 8, 64, tw)} {Y(8, 8, 1, 8, no-tw), Z(1, 512, 1, 512, no-tw)}\"\n");
  for (const KernelSpec& kept : {y1024, z512}) {
    ASSERT_EQ(kept.blocks_per_multiprocessor, 2);
    EXPECT_EQ(kept.threads, 512);
  }
  EXPECT_EQ(y1024.stages[1].split_radices, (std::vector<std::int64_t>{8, 8, 16}));
  EXPECT_EQ(z512.stages[1].split_radices, (std::vector<std::int64_t>{8, 8, 8}));
}

// A spread tile whose first pass loads global memory and stores into the other blocks waits for the cluster (every
// block started) only after issuing its loads: the arrival comes before the first load, the wait after the last one
// and before the first store to another block, and no full cluster barrier precedes that store.
TEST(DistributedTile, TheFirstPassLoadsWhileTheClusterGathers) {
  const KernelSpec second = second_kernel_of_the_512_cubed_split();
  ASSERT_EQ(second.tile_blocks, 8);
  ASSERT_TRUE(second.load_in_first_pass);
  ASSERT_TRUE(tile::butterfly_pass_list(second).front().cross);
  const std::string source = emit_cuda_source(second);
  const std::size_t body = source.find("extern \"C\" __global__");
  ASSERT_NE(body, std::string::npos);
  const std::size_t arrive = source.find("barrier.cluster.arrive.relaxed;", body);
  const std::size_t first_load = source.find("in[", body);
  const std::size_t wait = source.find("barrier.cluster.wait.acquire;", first_load);
  const std::size_t first_remote_store = source.find("cluster_store(", body);
  ASSERT_NE(arrive, std::string::npos);
  ASSERT_NE(first_load, std::string::npos);
  ASSERT_NE(wait, std::string::npos);
  ASSERT_NE(first_remote_store, std::string::npos);
  EXPECT_LT(arrive, first_load);
  EXPECT_LT(wait, first_remote_store);
  EXPECT_EQ(source.find("barrier.cluster.arrive.release;", body), source.find("barrier.cluster.arrive.release;",
                                                                               first_remote_store))
      << "a full cluster barrier before the first pass's stores to other blocks";
  EXPECT_EQ(source.find("barrier.cluster.wait", body), source.find("barrier.cluster.wait", first_load))
      << "a cluster wait before the first pass's loads";
}

// emit_split_stage.cpp: in a spread tile whose crossing first pass ends with a cluster barrier, every
// block's global loads are behind that barrier, so a last pass that reads its own part stores to global memory
// without another, in blocks of up to 256 threads (measured faster there). A 512-thread block (128x1024x1024's
// second kernel, measured 3% slower without it) keeps the cluster barrier between its reads and its stores.
TEST(DistributedTile, TheLastPassStoresWithoutAClusterBarrierWhereTheCrossingOrderedTheLoads) {
  // The position of the last full cluster barrier before the first global store, and of the last pass's registers.
  const auto barrier_and_held = [](const KernelSpec& spec) {
    const std::string source = emit_cuda_source(spec);
    const std::size_t body = source.find("extern \"C\" __global__");
    const std::size_t first_store = source.find("out[", body);
    const std::size_t held = source.find("float2 held_", body);
    EXPECT_NE(first_store, std::string::npos);
    EXPECT_NE(held, std::string::npos);
    const std::size_t barrier = source.rfind("barrier.cluster.arrive.release;", first_store);
    EXPECT_NE(barrier, std::string::npos);
    EXPECT_GT(barrier, body);
    return std::pair{barrier, held};
  };
  const KernelSpec y512 = second_kernel_of_the_512_cubed_split();
  ASSERT_EQ(y512.threads, 256);
  ASSERT_TRUE(tile::butterfly_pass_list(y512).front().cross);
  const auto [y512_barrier, y512_held] = barrier_and_held(y512);
  EXPECT_LT(y512_barrier, y512_held) << "a cluster barrier between the last pass's reads and its global stores";

  const KernelSpec y1024 =
      lower_plan(parse_plan("size: [128, 1024, 1024]\narch: hopper\nplan: \"{X(1, 128, 1, 128, no-tw), Z(8, 128, "
                            "8, 1024, tw)} {Z(128, 8, 1, 8, no-tw), Y(1, 1024, 1, 1024, no-tw)}\"\n")
                     .plan,
                 *find_arch_profile("hopper"))
          .kernels[1];
  ASSERT_EQ(y1024.threads, 512);
  const auto [y1024_barrier, y1024_held] = barrier_and_held(y1024);
  EXPECT_GT(y1024_barrier, y1024_held) << "no cluster barrier before a 512-thread block's global stores";
}

TEST(DistributedTile, KernelsCompileForSm90WithoutSpills) {
  for (const NamedPlan& named : distributed_tile_plans())
    for (const KernelSpec& spec : lower_distributed(named).kernels) {
      SCOPED_TRACE(named.name + " kernel " + std::to_string(spec.kernel_index));
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90));
      EXPECT_FALSE(compiled.report.spills()) << compiled.report.log;
    }
}

}  // namespace
}  // namespace fft3d::testing
