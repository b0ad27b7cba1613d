// Lowering of plans whose lengths and radices have the factors 3, 5 and 7 (mixed-radix digits in the tile maps):
// small plans of every kernel structure, interpreted on the CPU with the lowered maps, give the DFT (FFTW), in
// both orders, in place and out of place; the bench sizes, written by hand in the power-of-two plans' structure,
// lower on hopper, their shared-memory layouts are bank-conflict-free and their global accesses are reported
// segment by segment.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <iostream>
#include <numeric>
#include <optional>
#include <random>

#include "fft3d/arch_profile.hpp"
#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "emit/cuda_source.hpp"
#include "lowering/lowering_rules.hpp"
#include "lowering/tile_maps.hpp"
#include "test_plans.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

TEST(MixedRadix, SmallPlansOfEveryStructureInterpretToTheDft) {
  int checked = 0;
  for (const NamedPlan& named : mixed_radix_plans()) {
    SCOPED_TRACE(named.name + " on " + named.plan.arch);
    LoweredPlan lowered;
    ASSERT_NO_THROW(lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name));
    std::vector<std::complex<double>> input(static_cast<std::size_t>(named.plan.size.elements()));
    validate::fill_random(input, 29);
    for (Direction direction : {Direction::forward, Direction::inverse}) {
      std::vector<std::complex<double>> expected(input.size());
      validate::fftw_reference(named.plan.size, input, expected, direction);
      for (Order order : {Order::natural, Order::digit_reversed})
        for (bool out_of_place : {false, true}) {
          std::vector<std::complex<double>> data = input;
          interpret(lowered, data, {.direction = direction, .order = order}, out_of_place);
          if (order == Order::digit_reversed) validate::to_natural_order(named.plan, data);
          const validate::ErrorReport error = validate::compare(data, expected);
          const std::string mode =
              to_string(direction) + " " + to_string(order) + (out_of_place ? " out of place" : " in place");
          EXPECT_EQ(error.non_finite, 0) << mode;
          EXPECT_LT(error.relative_l2, 1e-12) << mode << ": peak " << error.peak_error << " at " << error.peak_index;
          ++checked;
        }
    }
  }
  EXPECT_GT(checked, 0);
}

// A random legal mixed-radix plan: lengths drawn from `lengths`, each axis's length cut into a random
// chain of radices, the axes' stages interleaved at random (each axis in its DIF order) and cut into kernels.
NamedPlan random_mixed_plan(std::mt19937_64& random, const std::string& arch,
                            const std::vector<std::int64_t>& lengths) {
  const auto draw = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(random);
  };
  std::array<std::int64_t, 3> size{};
  std::array<std::vector<std::string>, 3> stages;
  for (int a = 0; a < 3; ++a) {
    size[a] = lengths[static_cast<std::size_t>(draw(0, static_cast<std::int64_t>(lengths.size()) - 1))];
    std::vector<std::int64_t> radices;
    for (std::int64_t rest = size[a]; rest > 1;) {
      std::vector<std::int64_t> divisors;
      for (std::int64_t d = 2; d <= rest; ++d)
        if (rest % d == 0) divisors.push_back(d);
      const std::int64_t radix = divisors[static_cast<std::size_t>(draw(0, static_cast<std::int64_t>(divisors.size()) - 1))];
      radices.push_back(radix);
      rest /= radix;
    }
    stages[a] = axis_stages(static_cast<char>('X' + a), size[a], radices);
  }
  std::vector<std::string> order;  // the axes' stages interleaved
  std::array<std::size_t, 3> next{};
  while (next[0] < stages[0].size() || next[1] < stages[1].size() || next[2] < stages[2].size()) {
    const auto a = static_cast<std::size_t>(draw(0, 2));
    if (next[a] < stages[a].size()) order.push_back(stages[a][next[a]++]);
  }
  std::string text = "size: [" + std::to_string(size[0]) + ", " + std::to_string(size[1]) + ", " +
                     std::to_string(size[2]) + "]\narch: " + arch + "\nkernels:\n";
  std::string kernel;
  for (std::size_t i = 0; i < order.size(); ++i) {
    kernel += (kernel.empty() ? "" : ", ") + order[i];
    if (i + 1 == order.size() || draw(0, 2) == 0) {
      text += "  - \"" + kernel + "\"\n";
      kernel.clear();
    }
  }
  if (order.empty()) text += "  - \"X(1, 1, 1, 1, no-tw)\"\n";
  const Plan plan = parse_plan(text).plan;
  return {to_string(plan.size) + " " + plan.arch + " " + to_brace_string(plan.kernels), plan};
}

// Random mixed plans on every profile lower (or refuse by a LoweringError, never another exception), and their
// lowered maps interpret to the DFT in both orders, in place and out of place.
const std::vector<std::int64_t> small_lengths = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 24, 25,
                                                 27, 28, 30, 32, 35, 36};

TEST(MixedRadix, RandomMixedPlansLowerAndInterpretToTheDft) {
  std::mt19937_64 random(2357);
  int interpreted = 0, refused = 0;
  for (int i = 0; i < 60; ++i) {
    const std::string arch = i % 3 == 0 ? "tesla" : i % 3 == 1 ? "fermi" : "hopper";
    NamedPlan named;
    try {
      named = random_mixed_plan(random, arch, small_lengths);
    } catch (const PlanError&) {
      continue;  // e.g. a radix over what the profile allows: not a legal plan
    }
    SCOPED_TRACE(named.name);
    std::optional<LoweredPlan> lowered;
    try {
      lowered = lower_plan(named.plan, *find_arch_profile(arch), named.name);
    } catch (const LoweringError& error) {
      ++refused;
      std::cout << "refused: " << named.name << ": " << error.what() << "\n";
      continue;
    }
    std::vector<std::complex<double>> input(static_cast<std::size_t>(named.plan.size.elements()));
    validate::fill_random(input, static_cast<std::uint64_t>(i));
    std::vector<std::complex<double>> expected(input.size());
    validate::fftw_reference(named.plan.size, input, expected, Direction::forward);
    for (Order order : {Order::natural, Order::digit_reversed})
      for (bool out_of_place : {false, true}) {
        std::vector<std::complex<double>> data = input;
        interpret(*lowered, data, {.order = order}, out_of_place);
        if (order == Order::digit_reversed) validate::to_natural_order(named.plan, data);
        const validate::ErrorReport error = validate::compare(data, expected);
        EXPECT_EQ(error.non_finite, 0) << to_string(order) << (out_of_place ? " out of place" : " in place");
        EXPECT_LT(error.relative_l2, 1e-12) << to_string(order) << (out_of_place ? " out of place" : " in place");
      }
    ++interpreted;
  }
  std::cout << interpreted << " random mixed plans interpreted, " << refused << " refused by lowering\n";
  EXPECT_GT(interpreted, 30);
}

// Larger random mixed plans (lengths up to 1000, as the default planner makes them) on hopper: lowering as the planner
// ranks them succeeds, with a cost, or throws a LoweringError, never another exception (the planner skips candidates
// by that error alone).
TEST(MixedRadix, LargerRandomMixedPlansLowerOrRefuseByALoweringError) {
  const std::vector<std::int64_t> lengths = {48, 60, 64, 81, 96, 100, 120, 125, 128, 144, 160, 192, 210, 240, 243, 256,
                                             343, 360, 384, 480, 500, 512, 640, 729, 768, 1000};
  std::mt19937_64 random(1117);
  int lowered = 0, refused = 0;
  for (int i = 0; i < 40; ++i) {
    NamedPlan named;
    try {
      named = random_mixed_plan(random, "hopper", lengths);
    } catch (const PlanError&) {
      continue;
    }
    try {  // as a kernel that runs lowers (whole-block parts allowed)
      lower_plan(named.plan, *find_arch_profile("hopper"), named.name);
    } catch (const LoweringError&) {
    } catch (const std::exception& error) {
      ADD_FAILURE() << named.name << ": " << error.what();
    }
    try {
      // As the planner ranks candidates (no whole-block parts: distribute_tile.cpp).
      lower_plan(named.plan, *find_arch_profile("hopper"), named.name, OffsetCheck::end_tiles);
      ++lowered;
      const std::optional<double> passes = passes_on_its_profile(named.plan);  // the planner's cost model on it
      EXPECT_TRUE(passes && *passes >= static_cast<double>(named.plan.kernels.size())) << named.name;
    } catch (const LoweringError&) {
      ++refused;
    } catch (const std::exception& error) {
      ADD_FAILURE() << named.name << ": " << error.what();
    }
  }
  std::cout << lowered << " lowered, " << refused << " refused by a LoweringError\n";
  EXPECT_GT(lowered + refused, 20);
}

// Every tile of a mixed plan covers the volume exactly once: the global offsets of all tiles' elements are a
// permutation of the volume.
TEST(MixedRadix, TilesCoverTheVolumeOnce) {
  for (const NamedPlan& named : mixed_radix_plans()) {
    SCOPED_TRACE(named.name);
    const LoweredPlan lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name);
    for (const KernelSpec& spec : lowered.kernels) {
      std::vector<int> seen(static_cast<std::size_t>(spec.size.elements()));
      for (std::int64_t block = 0; block < spec.tiles; ++block)
        for (std::int64_t e = 0; e < spec.tile_elements; ++e) ++seen[tile::global_offset(spec, block, e)];
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), spec.size.elements()) << "kernel " << spec.kernel_index;
    }
  }
}

// The layouts the search finds for mixed tiles (XOR swizzles, shift paddings, e + (e / P) * Q) leave at most
// 2-way conflicts: one layout serves every pass, and the runs of a split mixed radix (e.g. 12 inputs 96 apart)
// and its last pass (stride 12) want different ones. Global accesses are whole segments wherever the X rows are
// multiples of 16 values; elsewhere the checker names why a segment is partial.
TEST(MixedRadix, BenchSizesLowerWithAtMostTwoWayConflictsAndWholeSegmentsWhereRowsAllow) {
  for (const NamedPlan& named : mixed_bench_plans()) {
    SCOPED_TRACE(named.name);
    LoweredPlan lowered;
    ASSERT_NO_THROW(lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name));
    for (const KernelSpec& spec : lowered.kernels) {
      const tile::BankReport report = tile::check_bank_conflicts(spec);
      std::string phases;
      for (const tile::PhaseConflict& p : report.phases) phases += " [" + p.phase + ": " + std::to_string(p.degree) + "]";
      EXPECT_LE(report.worst_excluding_natural_store(), 2)
          << "kernel " << spec.kernel_index << " " << to_string(spec.shared) << phases;
      // Short rows whose first-pass loads split segments (a contiguous tile takes them: global_passes.cpp): the
      // layout is checked on the load sweep.
      KernelSpec swept = spec;
      if (spec.row_pitch() % spec.x_run_elements != 0 && !tile::first_pass_loads_coalesced(spec, 0))
        swept.load_in_first_pass = false;
      const tile::CoalescingReport coalescing = tile::check_coalescing(swept);
      EXPECT_GT(coalescing.requests, 0);
      const bool whole_rows_in_segments = spec.axes[0].extent() == spec.size.nx &&
                                          spec.tile_elements / spec.axes[2].extent() % spec.x_run_elements == 0;
      if (spec.row_pitch() % spec.x_run_elements == 0 || whole_rows_in_segments)
        EXPECT_TRUE(coalescing.coalesced()) << "kernel " << spec.kernel_index << ": " << coalescing.first_problem;
      else if (!coalescing.coalesced())
        EXPECT_TRUE(coalescing.first_problem.find("(X rows of") != std::string::npos ||
                    coalescing.first_problem.find("(the tile's contiguous X runs") != std::string::npos)
            << coalescing.first_problem;
      std::cout << named.name << " kernel " << spec.kernel_index << ": " << to_string(spec.shared) << ", "
                << report.worst_excluding_natural_store() << "-way conflicts at worst, "
                << coalescing.partial_segments << " partial segments in " << coalescing.requests << " requests"
                << (coalescing.coalesced() ? "" : ": " + coalescing.first_problem) << "\n";
    }
  }
}

// fp32 kernels without X stages on rows whose own runs are short (under 96 bytes) or end inside a sector (100, 200,
// 243, 1000 values: runs of 4, 8, 9, 8) run on rows padded to whole chunks, in runs of a chunk with the volume's
// rows as their pitch; rows whose runs are 3 whole sectors or more (120, 300: 12 values) and fp64 rows keep their
// runs (the longest divisor up to a chunk that covers whole sectors where the row does); kernels with X stages keep
// the volume's rows.
TEST(MixedRadix, ShortXRunsRunOnRowsPaddedToWholeChunks) {
  constexpr std::int64_t chunk = 16;
  struct Case {
    std::int64_t n;
    Precision precision;
    std::int64_t run;  // 0: padded, runs of a chunk
  };
  for (const Case c : {Case{100, Precision::fp32, 0}, Case{200, Precision::fp32, 0}, Case{243, Precision::fp32, 0},
                       Case{1000, Precision::fp32, 0}, Case{120, Precision::fp32, 12}, Case{300, Precision::fp32, 12},
                       Case{120, Precision::fp64, 12},
                       Case{343, Precision::fp64, 7}}) {
    Plan plan = default_plan({c.n, c.n, c.n}, "hopper");
    plan.precision = c.precision;
    SCOPED_TRACE(std::to_string(c.n) + (c.precision == Precision::fp64 ? " fp64" : " fp32"));
    const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"), "padded rows");
    int stageless = 0;
    for (const KernelSpec& spec : lowered.kernels) {
      SCOPED_TRACE("kernel " + std::to_string(spec.kernel_index));
      EXPECT_EQ(spec.row_pitch(), c.n);
      EXPECT_EQ(spec.volume_elements(), plan.size.elements());
      if (lowering::has_stages(spec.kernel, Axis::x)) {
        EXPECT_FALSE(spec.masks_x());
        continue;
      }
      ++stageless;
      EXPECT_EQ(spec.tile_elements * spec.tiles, spec.size.elements());
      if (c.run > 0) {
        EXPECT_FALSE(spec.masks_x());
        EXPECT_EQ(spec.axes[0].extent(), c.run);
        continue;
      }
      EXPECT_EQ(spec.volume_nx, c.n);
      EXPECT_EQ(spec.size.nx, (c.n + chunk - 1) / chunk * chunk);
      EXPECT_EQ(spec.axes[0].extent(), chunk);
    }
    EXPECT_GT(stageless, 0);
    if (lowered.reorder) EXPECT_EQ(lowered.reorder->size, plan.size);
  }
}

// Mixed one-block tiles whose passes leave threads idle take fewer threads (a power of two) where the grid still
// fills the GPU: 300^3's X kernel in three passes (its radix-15 pass has 80 butterflies a row) runs 128 threads;
// 100^3's Z kernel, 700 tiles, keeps the profile's 256; power-of-two plans keep their block sizes.
TEST(MixedRadix, OneBlockMixedTilesLeaveFewerThreadsIdleWhereTheGridFillsTheGpu) {
  const ArchProfile& hopper = *find_arch_profile("hopper");
  const LoweredPlan p300 = lower_plan(parse_plan("size: [300, 300, 300]\narch: hopper\nplan: \"{Y(1, 300, 1, 300, "
                                                 "no-tw)} {Z(1, 300, 1, 300, no-tw)} {X(1, 300, 1, 300, no-tw)}\"",
                                                 "300").plan,
                                      hopper, "300");
  const LoweredPlan p100 = lower_plan(default_plan({100, 100, 100}, "hopper"), hopper, "100");
  const LoweredPlan p64 = lower_plan(default_plan({64, 64, 64}, "hopper"), hopper, "64");
  for (const LoweredPlan* lowered : {&p300, &p100, &p64})
    for (const KernelSpec& spec : lowered->kernels)
      EXPECT_TRUE(std::has_single_bit(static_cast<unsigned>(spec.threads)));
  ASSERT_EQ(p300.kernels.size(), 3u);
  EXPECT_TRUE(lowering::has_stages(p300.kernels[2].kernel, Axis::x));
  EXPECT_EQ(p300.kernels[2].threads, 128);
  ASSERT_EQ(p100.kernels.size(), 2u);
  EXPECT_EQ(p100.kernels[1].threads, hopper.threads_per_block);
  for (const KernelSpec& spec : p64.kernels) EXPECT_GE(spec.threads, hopper.threads_per_block);
}

// Every (part, local butterfly) of a pass names a distinct butterfly of the tile; without crossing, all its
// elements are the part's own; crossing or not, the part maps are a bijection of the tile.
void check_part_maps(const KernelSpec& spec) {
  std::vector<int> locals(static_cast<std::size_t>(spec.tile_elements), 0);
  for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
    const std::int64_t part = tile::element_part(spec, e), local = tile::part_local_element(spec, e);
    ASSERT_LT(local, spec.part_elements());
    ASSERT_EQ(tile::part_element(spec, part, local), e);
    ++locals[static_cast<std::size_t>(part * spec.part_elements() + local)];
  }
  EXPECT_EQ(std::count(locals.begin(), locals.end(), 1), spec.tile_elements);
  for (const tile::ButterflyPass& pass : tile::butterfly_pass_list(spec)) {
    std::vector<int> runs(static_cast<std::size_t>(spec.tile_elements / pass.radix), 0);
    for (std::int64_t part = 0; part < spec.tile_blocks; ++part)
      for (std::int64_t local = 0; local < spec.part_elements() / pass.radix; ++local) {
        const std::int64_t b = tile::part_butterfly(spec, pass.element_step, pass.radix, pass.cross, part, local);
        ASSERT_LT(b, static_cast<std::int64_t>(runs.size()));
        ++runs[static_cast<std::size_t>(b)];
        if (pass.cross) continue;
        const std::int64_t base = tile::butterfly_base(pass.element_step, pass.radix, b);
        for (std::int64_t k = 0; k < pass.radix; ++k)
          ASSERT_EQ(tile::element_part(spec, base + k * pass.element_step), part) << "butterfly " << b;
      }
    EXPECT_EQ(std::count(runs.begin(), runs.end(), 1), static_cast<std::int64_t>(runs.size()))
        << "pass radix " << pass.radix << " step " << pass.element_step;
  }
}

// The lowered plan, interpreted on random input (seed), equals FFTW's forward DFT in both orders, in place and out.
void expect_interprets_to_the_dft(const Plan& plan, const LoweredPlan& lowered, std::uint64_t seed) {
  std::vector<std::complex<double>> input(static_cast<std::size_t>(plan.size.elements()));
  validate::fill_random(input, seed);
  std::vector<std::complex<double>> expected(input.size());
  validate::fftw_reference(plan.size, input, expected, Direction::forward);
  for (Order order : {Order::natural, Order::digit_reversed})
    for (bool out_of_place : {false, true}) {
      std::vector<std::complex<double>> data = input;
      interpret(lowered, data, {.order = order}, out_of_place);
      if (order == Order::digit_reversed) validate::to_natural_order(plan, data);
      EXPECT_LT(validate::compare(data, expected).relative_l2, 1e-12) << to_string(order) << " " << out_of_place;
    }
}

// Mixed tiles spread over a cluster: on hopper with a small block (so that the small plans' tiles are over the part
// limit), the part digit's maps are partitions, the parts fit the block, and the lowered plans (their splits and
// layouts chosen for parts) interpret to the DFT in both orders, in place and out of place.
TEST(MixedRadix, SpreadTilesHavePartitioningPartMapsAndInterpretToTheDft) {
  ArchProfile small = *find_arch_profile("hopper");
  small.shared_memory_per_block = 3 * 1024;  // parts of at most 2 KB: 256 values
  int spread = 0;
  for (const NamedPlan& named : mixed_radix_plans()) {
    if (named.plan.arch != "hopper") continue;
    SCOPED_TRACE(named.name);
    LoweredPlan lowered;
    try {
      lowered = lower_plan(named.plan, small, named.name);
    } catch (const LoweringError& error) {
      std::cout << named.name << ": refused on the small profile: " << error.what() << "\n";
      continue;
    }
    for (const KernelSpec& spec : lowered.kernels) {
      if (spec.tile_blocks == 1) continue;
      ++spread;
      SCOPED_TRACE("kernel " + std::to_string(spec.kernel_index) + ": " + std::to_string(spec.tile_blocks) +
                   " parts at stride " + std::to_string(spec.part_stride));
      EXPECT_LE(spec.shared_bytes, small.shared_memory_per_block);
      EXPECT_LE(spec.cluster_blocks, small.max_cluster_size_opt_in);
      check_part_maps(spec);
    }
    expect_interprets_to_the_dft(named.plan, lowered, 31);
  }
  EXPECT_GT(spread, 2);
}

// A mixed tile that no cluster divides into parts within the power-of-two part limit takes parts up to the block's
// own shared memory (distribute_tile.cpp): a 49 x 49 plane (19208 B) on a block of 3000 B, whose power-of-two limit
// (2048 B) 7 parts of 2744 B miss and 49 parts would pass the opt-in cluster. It spreads over 7 blocks within the
// block, its part maps partition the tile, and the plan interprets to the DFT in both orders and placements; the
// planner's ranking does not lower it.
TEST(MixedRadix, AMixedTileOverThePartLimitTakesTheBlocksOwnMemory) {
  ArchProfile small = *find_arch_profile("hopper");
  small.shared_memory_per_block = 3000;
  const NamedPlan named{"49x49x7 plane", parse_plan("size: [49, 49, 7]\narch: hopper\nplan: \"{X(1, 49, 1, 49, no-tw), "
                                                    "Y(1, 49, 1, 49, no-tw)} {Z(1, 7, 1, 7, no-tw)}\"\n").plan};
  const LoweredPlan lowered = lower_plan(named.plan, small, named.name);
  const KernelSpec& plane = lowered.kernels.at(0);
  EXPECT_EQ(plane.tile_blocks, 7);
  EXPECT_LE(plane.shared_bytes, small.shared_memory_per_block);
  EXPECT_GT(plane.complex_bytes() * plane.part_elements(), 2048);
  check_part_maps(plane);
  expect_interprets_to_the_dft(named.plan, lowered, 37);
  // The planner's ranking lowering leaves such tiles refused (their candidates doubled the planning of 13440^2).
  EXPECT_THROW(lower_plan(named.plan, small, named.name, OffsetCheck::end_tiles), LoweringError);
}

// The two-kernel bench plans spread their mixed tiles over clusters (within the portable size, or the opt-in size for
// 243^3's tiles of 3^10 values), with partitioning part maps, closed cluster stores and the part digit emitted.
TEST(MixedRadix, TwoKernelBenchPlansSpreadMixedTilesOverClusters) {
  const ArchProfile& hopper = *find_arch_profile("hopper");
  int spread = 0;
  for (const NamedPlan& named : mixed_bench_plans()) {
    const LoweredPlan lowered = lower_plan(named.plan, hopper, named.name);
    if (lowered.kernels.size() != 2) continue;
    for (const KernelSpec& spec : lowered.kernels) {
      if (spec.tile_blocks == 1 || tile::bit_fields(spec)) continue;
      SCOPED_TRACE(named.name + " kernel " + std::to_string(spec.kernel_index));
      ++spread;
      EXPECT_LE(spec.shared_bytes, hopper.shared_memory_per_block);
      EXPECT_LE(spec.cluster_blocks, hopper.max_cluster_size_opt_in);
      EXPECT_TRUE(tile::check_cluster_stores(spec).closed()) << tile::check_cluster_stores(spec).first_problem;
      check_part_maps(spec);
      // The emitter prints the part digit as the maps compute it (a bit field only where stride and blocks are
      // powers of two).
      const std::string source = emit_cuda_source(spec);
      const bool bits = std::has_single_bit(static_cast<std::uint64_t>(spec.part_stride)) &&
                        std::has_single_bit(static_cast<std::uint64_t>(spec.tile_blocks));
      const std::string part_of = bits ? "return (e >> " + std::to_string(spec.part_shift()) + ") & " +
                                             std::to_string(spec.tile_blocks - 1) + "u;"
                                       : "return e / " + std::to_string(spec.part_stride) + "u % " +
                                             std::to_string(spec.tile_blocks) + "u;";
      EXPECT_NE(source.find(part_of), std::string::npos) << part_of;
      std::cout << named.name << " kernel " << spec.kernel_index << ": " << spec.tile_blocks << " parts of "
                << spec.part_elements() << " at stride " << spec.part_stride << ", cluster " << spec.cluster_blocks
                << ", " << tile::butterfly_passes(spec) << " passes\n";
    }
  }
  EXPECT_GE(spread, 4);
}

}  // namespace
}  // namespace fft3d::testing
