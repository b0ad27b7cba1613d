// Lowering: every shipped and random legal plan lowers; the tile maps cover the volume exactly once; the lowered
// kernels, interpreted on the CPU with the emitter's index maps, compute the DFT.
#include <gtest/gtest.h>

#include <algorithm>

#include <array>
#include <optional>
#include <set>

#include "fft3d/arch_profile.hpp"
#include "lowering/tile_maps.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/plan_text.hpp"
#include "test_plans.hpp"
#include "tile_interpreter.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

LoweredPlan lower(const NamedPlan& named) {
  return lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name);
}

TEST(Lowering, EveryShippedPlanLowers) {
  const std::vector<NamedPlan> plans = shipped_plans();
  ASSERT_GE(plans.size(), 12u) << "expected the 6 tesla and 6 fermi plans";
  for (const NamedPlan& named : plans) {
    SCOPED_TRACE(named.name);
    LoweredPlan lowered;
    ASSERT_NO_THROW(lowered = lower(named));
    EXPECT_EQ(lowered.kernels.size(), named.plan.kernels.size());
    for (const KernelSpec& spec : lowered.kernels) {
      EXPECT_LE(spec.shared_bytes, find_arch_profile(named.plan.arch)->shared_memory_per_block);
      EXPECT_EQ(spec.tile_elements * spec.tiles, named.plan.size.elements());
    }
  }
  std::cout << to_string(lower(plans.front()).kernels.back());
}

// The real step holds whole rows in one block (it pairs frequency k with NX/2 - k), so a real row over one block's
// tile limit (128 KB on hopper: 16384 complex fp32 values, 8192 fp64) is refused before any kernel lowers, with the
// step, the row's bytes and the longest real row the profile takes; such 1D lengths run on the CPU backend or as C2C.
TEST(Lowering, ARealRowOverOneBlockIsRefusedByTheStepWithTheLongestRowTaken) {
  const ArchProfile& hopper = *find_arch_profile("hopper");
  for (const auto& [precision, longest] : {std::pair{Precision::fp32, 32768}, std::pair{Precision::fp64, 16384}}) {
    for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
      SCOPED_TRACE(to_string(precision) + " " + to_string(kind));
      Plan fits = real_whole_axes_plan({longest, 1, 1}, "hopper", kind);
      fits.precision = precision;
      EXPECT_NO_THROW(lower_plan(fits, hopper));
      Plan over = real_whole_axes_plan({2 * longest, 1, 1}, "hopper", kind);
      over.precision = precision;
      try {
        lower_plan(over, hopper);
        ADD_FAILURE() << "a row of " << longest << " complex values lowered";
      } catch (const LoweringError& error) {
        const std::string text = error.what();
        EXPECT_NE(text.find("kernel 0 {"), std::string::npos) << text;
        EXPECT_NE(text.find(": the real step holds each row's " + std::to_string(longest) + " complex values"),
                  std::string::npos) << text;
        EXPECT_NE(text.find("real rows of up to NX = " + std::to_string(longest) + " (" + to_string(precision) + ")"),
                  std::string::npos) << text;
      }
    }
  }
}

// A GPU table's real plan must reach natural order without the digit-reversal pass, which real transforms do not
// run: out of place, and in place too unless the arch's table holds an in-place file of its size and kind, which in
// place runs take instead (find_gpu_table_plan).
TEST(Lowering, EveryGpuTableRealPlanReachesNaturalOrderInThePlacementsItServes) {
  int real_plans = 0;
  for (const GpuTableFile& file : gpu_table_files()) {
    const Plan plan = load_plan_file(file.path).plan;
    if (kind_of(plan) == TransformKind::c2c) continue;
    SCOPED_TRACE(file.path);
    const LoweredPlan lowered = lower_plan(plan, *find_arch_profile(plan.arch), file.path);
    EXPECT_FALSE(lowered.reorders(/*out_of_place=*/true));
    if (!arch_table_has_in_place_file(plan.arch, plan.size, kind_of(plan)))
      EXPECT_FALSE(lowered.reorders(/*out_of_place=*/false));
    ++real_plans;
  }
  EXPECT_GT(real_plans, 0);
}

// A random legal plan lowers, or its kernel's tile is over the profile's shared memory and the error says so with
// the numbers (the plan language lets a kernel hold more than a block can).
TEST(Lowering, EveryRandomLegalPlanLowersOrNamesItsSharedMemoryOverflow) {
  for (const char* arch : {"tesla", "fermi", "hopper"}) {
    int lowered = 0;
    for (const NamedPlan& named : random_plans(120, 7, 64, arch)) {
      SCOPED_TRACE(named.name);
      try {
        lower(named);
        ++lowered;
      } catch (const LoweringError& error) {
        EXPECT_NE(std::string(error.what()).find("B of shared memory per block; profile"), std::string::npos)
            << error.what();
      }
    }
    EXPECT_GT(lowered, 40) << arch;
  }
}

TEST(Lowering, TileMapsCoverTheVolumeOnce) {
  for (const NamedPlan& named : random_plans(60, 11, 32, "tesla")) {
    SCOPED_TRACE(named.name);
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      std::vector<int> hits(spec.size.elements(), 0);
      for (std::int64_t block = 0; block < spec.tiles; ++block)
        for (std::int64_t e = 0; e < spec.tile_elements; ++e) ++hits[tile::global_offset(spec, block, e)];
      EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), spec.size.elements()) << to_string(spec);
      std::set<std::int64_t> sources, words;
      for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
        sources.insert(tile::natural_source(spec, e));
        words.insert(tile::shared_address(spec.shared, e));
      }
      EXPECT_EQ(static_cast<std::int64_t>(sources.size()), spec.tile_elements);
      EXPECT_EQ(static_cast<std::int64_t>(words.size()), spec.tile_elements);
    }
  }
}

// offsets_are_elements (the emitter then addresses element e at the tile's origin plus e) says yes exactly where every
// element of the first and the last tile lies at its tile origin's offset plus its index, with no map that moves
// positions, on random and shipped plans; both answers occur.
TEST(Lowering, OffsetsAreElementsExactlyWhereTheTileLiesInMemoryOrder) {
  std::vector<NamedPlan> plans = random_plans(60, 11, 32, "tesla");
  for (NamedPlan& named : shipped_plans()) plans.push_back(std::move(named));
  int contiguous = 0, strided = 0;
  for (const NamedPlan& named : plans) {
    SCOPED_TRACE(named.name);
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      bool in_order = true;
      for (std::int64_t block : {std::int64_t{0}, spec.tiles - 1})
        for (std::int64_t e = 0; e < spec.tile_elements && in_order; ++e)
          in_order = tile::global_offset(spec, block, e) == tile::global_offset(spec, block, 0) + e;
      bool mapped = spec.masks_x();
      for (const AxisTile& axis : spec.axes)
        mapped = mapped || !axis.cluster_reversal_radices.empty() || !axis.sorted_radices.empty() || axis.sorted_loads;
      EXPECT_EQ(tile::offsets_are_elements(spec), in_order && !mapped) << to_string(spec);
      (tile::offsets_are_elements(spec) ? contiguous : strided) += 1;
    }
  }
  EXPECT_GT(contiguous, 5);
  EXPECT_GT(strided, 5);
}

// A real kernel's Nyquist tiles (RealKernel::nyquist_tiles) reach column NX/2 of every row of the stage volume
// exactly once (one Nyquist tile per tile of the other axes, its X lanes past NX/2 masked), and each walks beside its
// row's X tiles: no run of consecutive Nyquist tiles is longer than the tiles walked before X, so that they spread
// through the launch instead of forming its tail.
TEST(Lowering, NyquistTilesReachEveryRowsNyquistColumnOnceBesideTheirRows) {
  int kernels = 0;
  for (const NamedPlan& named : shipped_real_plans()) {
    SCOPED_TRACE(named.name);
    for (const KernelSpec& spec : lower(named).kernels) {
      if (spec.real.nyquist_tiles == 0) continue;
      ++kernels;
      std::int64_t before_x = 1;
      for (Axis axis : spec.grid_order) {
        if (axis == Axis::x) break;
        before_x *= spec.axes[axis_index(axis)].tiles();
      }
      std::vector<int> hits(spec.size.ny * spec.size.nz, 0);
      std::int64_t nyquist = 0, run = 0, longest_run = 0;
      for (std::int64_t block = 0; block < spec.tiles + spec.real.nyquist_tiles; ++block) {
        const bool is_nyquist = tile::block_origin(spec, block)[0] == spec.real.half;
        run = is_nyquist ? run + 1 : 0;
        longest_run = std::max(longest_run, run);
        if (!is_nyquist) continue;
        ++nyquist;
        for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
          const std::array<std::int64_t, 3> p = tile::axis_positions(spec, block, e);
          ASSERT_GE(p[0], spec.real.half);
          if (p[0] == spec.real.half) ++hits[p[1] + spec.size.ny * p[2]];
        }
      }
      EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), spec.size.ny * spec.size.nz) << to_string(spec);
      EXPECT_EQ(nyquist, spec.real.nyquist_tiles);
      EXPECT_EQ(spec.real.nyquist_tiles, spec.tiles / spec.axes[0].tiles());
      EXPECT_LE(longest_run, before_x) << to_string(spec);
    }
  }
  EXPECT_GT(kernels, 0);
}

// Hopper plans included: their natural order is stored across clusters, which the interpreter runs cluster by
// cluster in place (load all, compute, store all), so a cluster that misses a tile gives a wrong result. Out of
// place, plans with a sorted layout (sorted_layout.cpp) skip the reorder pass.
TEST(Lowering, InterpretedKernelsComputeTheDft) {
  std::uint64_t seed = 3;
  int clustered = 0, sorted = 0;
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (const NamedPlan& named : random_plans(40, 5, 16, arch)) {
      SCOPED_TRACE(named.name);
      const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
      if (!lowered) continue;
      for (const KernelSpec& spec : lowered->kernels) clustered += spec.tiles_per_cluster() > 1;
      sorted += lowered->sorted_layout;
      std::vector<std::complex<double>> input(static_cast<std::size_t>(named.plan.size.elements()));
      validate::fill_random(input, seed++);
      for (Direction direction : {Direction::forward, Direction::inverse}) {
        const std::vector<std::complex<double>> expected = naive_dft(named.plan.size, input, direction);
        for (Order order : {Order::natural, Order::digit_reversed})
          for (bool out_of_place : {false, true}) {
            std::vector<std::complex<double>> data = input;
            interpret(*lowered, data, {.direction = direction, .order = order}, out_of_place);
            if (order == Order::digit_reversed) validate::to_natural_order(named.plan, data);
            const validate::ErrorReport error = validate::compare(data, expected);
            const std::string mode = to_string(direction) + " " + to_string(order) +
                                     (out_of_place ? " out of place" : " in place");
            EXPECT_EQ(error.non_finite, 0) << mode;
            EXPECT_LT(error.relative_l2, 1e-12) << mode << ": peak " << error.peak_error << " at "
                                                << error.peak_index;
          }
      }
    }
  EXPECT_GT(clustered, 5);
  EXPECT_GT(sorted, 5);
}

// A random input of `size` and its forward transform by FFTW in fp64: error(run, out_of_place) is the relative L2
// error of `run`'s interpreted forward transform (natural order) against it.
class ForwardOracle {
 public:
  ForwardOracle(const Extents& size, std::uint64_t seed)
      : input_(static_cast<std::size_t>(size.elements())), expected_(input_.size()) {
    validate::fill_random(input_, seed);
    validate::fftw_reference(size, input_, expected_, Direction::forward);
  }
  double error(const LoweredPlan& run, bool out_of_place) const {
    std::vector<std::complex<double>> data = input_;
    interpret(run, data, {}, out_of_place);
    return validate::compare(data, expected_).relative_l2;
  }

 private:
  std::vector<std::complex<double>> input_, expected_;
};

// The sorted layout on the two-pass shape it is for ({X whole, Y part} {Y rest, Z whole}): in natural order the
// reorder pass is skipped and the result is the DFT, out of place and in place (the first kernel in clusters of its
// 4 Y tiles). The first kernel's sorted store is what makes it so (without it the last stage leaves Y
// digit-reversed), the later kernel's sorted loads too, and in place a cluster of half the tiles overwrites rows
// the other half has yet to load.
TEST(Lowering, SortedLayoutGivesNaturalOrder) {
  // The second kernel's 16 Y tiles are more than a cluster holds, so without the sorted layout Y takes the pass.
  const Plan plan = parse_plan("size: [16, 64, 4]\narch: hopper\nplan: \"{X(1, 16, 1, 16, no-tw), Y(4, 16, 4, 64, tw)} "
                               "{Y(16, 4, 1, 4, no-tw), Z(1, 4, 1, 4, no-tw)}\"\n")
                        .plan;
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"));
  ASSERT_TRUE(lowered.sorted_layout);
  ASSERT_TRUE(lowered.sorted_layout_in_place);
  ASSERT_TRUE(lowered.reorder.has_value());  // digit-reversed order still skips it; natural needs it nowhere
  EXPECT_EQ(lowered.workspace_bytes(true), 0);
  EXPECT_EQ(lowered.workspace_bytes(false), 0);
  EXPECT_FALSE(lowered.kernels[0].axes[1].sorted_loads);
  EXPECT_TRUE(lowered.kernels[1].axes[1].sorted_loads);
  EXPECT_EQ(lowered.kernels[0].sorted_store_cluster, 4);
  EXPECT_EQ(lowered.kernels[1].sorted_store_cluster, 1);
  for (const KernelSpec& spec : lowered.kernels) {
    EXPECT_TRUE(tile::check_coalescing(spec).coalesced());
    EXPECT_TRUE(tile::check_cluster_stores(spec).closed());
  }
  const ForwardOracle oracle(plan.size, 11);
  EXPECT_LT(oracle.error(lowered, true), 1e-12);
  EXPECT_LT(oracle.error(lowered, false), 1e-12);
  LoweredPlan unsorted_store = lowered;
  unsorted_store.kernels[0].axes[1].sorted_radices.clear();
  EXPECT_GT(oracle.error(unsorted_store, true), 0.1);
  LoweredPlan unsorted_load = lowered;
  unsorted_load.kernels[1].axes[1].sorted_loads = false;
  EXPECT_GT(oracle.error(unsorted_load, true), 0.1);
  LoweredPlan half_cluster = lowered;
  half_cluster.kernels[0].sorted_store_cluster = 2;
  EXPECT_FALSE(tile::check_cluster_stores(half_cluster.kernels[0]).closed());
  EXPECT_GT(oracle.error(half_cluster, false), 0.1);
}

// Z split: the first kernel's Y tiles lie between its Z tiles in the usual block order, so it walks the Z tiles
// first (grid_order), which makes the 4 Z tiles of a cluster consecutive blocks. In the usual order those 4 blocks
// would be Y tiles, whose stores land on rows the cluster did not load, and the in-place result would be wrong.
TEST(Lowering, SortedLayoutAlongZWalksTheZTilesFirst) {
  const Plan plan = parse_plan("size: [16, 32, 64]\narch: hopper\nplan: \"{X(1, 16, 1, 16, no-tw), Z(4, 16, 4, 64, tw)} "
                               "{Z(16, 4, 1, 4, no-tw), Y(1, 32, 1, 32, no-tw)}\"\n")
                        .plan;
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"));
  ASSERT_TRUE(lowered.sorted_layout_in_place);
  const KernelSpec& first = lowered.kernels[0];
  ASSERT_GT(first.axes[1].tiles(), 1);
  EXPECT_EQ(first.sorted_store_cluster, 4);
  EXPECT_EQ(first.grid_order, (std::array{Axis::z, Axis::x, Axis::y}));
  EXPECT_TRUE(tile::check_cluster_stores(first).closed());
  const ForwardOracle oracle(plan.size, 12);
  EXPECT_LT(oracle.error(lowered, false), 1e-12);
  EXPECT_LT(oracle.error(lowered, true), 1e-12);
  LoweredPlan usual_order = lowered;
  usual_order.kernels[0].grid_order = {Axis::x, Axis::y, Axis::z};
  EXPECT_FALSE(tile::check_cluster_stores(usual_order.kernels[0]).closed());
  EXPECT_GT(oracle.error(usual_order, false), 0.1);
  EXPECT_LT(oracle.error(usual_order, true), 1e-12);  // out of place the order does not matter
}

// The late form: the C2R mirror's shape, Z split with the first kernel's 32 Z tiles over the opt-in cluster of 16,
// the last kernel's Y tiles between its Z tiles in the usual block order (so no cluster reversal either).
// In place the last kernel (8 Z tiles) loads natural positions and stores sorted ones in clusters of its Z tiles,
// walked first, and the kernel before it keeps natural positions; out of place the sorted layout is unchanged. The
// in-place result is the DFT only with both: the first kernel's sorted stores or the last kernel's sorted loads in
// place would read rows the cluster had not written yet.
TEST(Lowering, SortedLayoutLateFormSortsInThePlansLastKernel) {
  const Plan plan = parse_plan("size: [16, 64, 256]\narch: hopper\nplan: \"{Y(1, 64, 1, 64, no-tw), "
                               "Z(32, 8, 32, 256, tw)} {Z(8, 32, 1, 32, no-tw), X(1, 16, 1, 16, no-tw)}\"\n")
                        .plan;
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile("hopper"));
  ASSERT_TRUE(lowered.sorted_layout_in_place);
  ASSERT_TRUE(lowered.sorts_late_in_place);
  EXPECT_EQ(lowered.kernels[0].sorted_store_cluster, 1);
  const KernelSpec& last = lowered.kernels[1];
  EXPECT_EQ(last.sorted_store_cluster, 8);
  EXPECT_EQ(last.grid_order, (std::array{Axis::z, Axis::x, Axis::y}));
  EXPECT_TRUE(tile::sorts_late_in_place(last));
  EXPECT_TRUE(tile::check_cluster_stores(last).closed());
  EXPECT_EQ(lowered.workspace_bytes(false), 0);
  EXPECT_FALSE(lowered.addresses_sorted(0, false));
  EXPECT_TRUE(lowered.addresses_sorted(1, false));
  EXPECT_TRUE(lowered.loads_natural_in_sorted_run(1, false));
  EXPECT_TRUE(lowered.addresses_sorted(0, true));
  EXPECT_FALSE(lowered.loads_natural_in_sorted_run(1, true));
  const ForwardOracle oracle(plan.size, 13);
  EXPECT_LT(oracle.error(lowered, false), 1e-12);
  EXPECT_LT(oracle.error(lowered, true), 1e-12);
  LoweredPlan early = lowered;  // the early form's flags in place: the first kernel's sorted stores, unordered
  early.sorts_late_in_place = false;
  EXPECT_GT(oracle.error(early, false), 0.1);
  LoweredPlan usual_order = lowered;
  usual_order.kernels[1].grid_order = {Axis::x, Axis::y, Axis::z};
  EXPECT_FALSE(tile::check_cluster_stores(usual_order.kernels[1]).closed());
  EXPECT_GT(oracle.error(usual_order, false), 0.1);
}

// Hopper's natural order across a cluster: on random plans, every kernel with a cluster reversal, or with sorted
// stores run in place in clusters, stores exactly the elements its cluster loads, and the digit-reversal pass is
// left only for axes no cluster can cover.
TEST(Lowering, ClusterReversalsStoreWithinTheirCluster) {
  int clustered = 0;
  for (const NamedPlan& named : random_plans(120, 17, 64, "hopper")) {
    SCOPED_TRACE(named.name);
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    for (const KernelSpec& spec : lowered->kernels) {
      EXPECT_LE(spec.cluster_blocks, find_arch_profile("hopper")->max_cluster_size);
      EXPECT_LE(spec.sorted_store_cluster, find_arch_profile("hopper")->max_cluster_size_opt_in);
      if (spec.tiles_per_cluster() == 1 && spec.sorted_store_cluster == 1) continue;
      ++clustered;
      EXPECT_EQ(spec.tiles % spec.tiles_per_cluster(), 0);
      const tile::ClusterStoreReport report = tile::check_cluster_stores(spec);
      EXPECT_TRUE(report.closed()) << report.first_problem << "\n" << to_string(spec);
    }
  }
  EXPECT_GT(clustered, 10);
}

// What `fft3d run` and `fft3d bench` count as passes over one volume: the tile kernels and the reorder pass where
// natural order takes it, in place too (the kernels run in the workspace and the pass writes the output, no copy
// back: GpuTransform::execute; a batch's copy back is GpuProfiler's to count).
TEST(Lowering, VolumePassesCountTheReorderPassWhereARunTakesIt) {
  const auto lowered_table_plan = [](const std::string& arch, const Extents& size) {
    return lower_plan(load_plan_file(find_table_plan(arch, size).value()).plan, *find_arch_profile(arch));
  };
  const LoweredPlan paper = lowered_table_plan("tesla", {128, 128, 128});  // three kernels, X reversed across them
  ASSERT_EQ(paper.kernels.size(), 3u);
  EXPECT_EQ(paper.volume_passes(true, true), 4);
  EXPECT_EQ(paper.volume_passes(true, false), 4);
  EXPECT_EQ(paper.volume_passes(false, true), 3);
  EXPECT_EQ(paper.volume_passes(false, false), 3);
  const LoweredPlan sorted = lowered_table_plan("hopper", {256, 256, 256});  // the sorted layout spares the pass
  EXPECT_EQ(sorted.volume_passes(true, true), 2);
  EXPECT_EQ(sorted.volume_passes(true, false), 2);
}

// The check can fail: half the cluster the two-pass 256^3 plan's last kernel needs stores outside what it loads.
TEST(Lowering, ClusterStoreCheckCatchesAClusterTooSmall) {
  // The two-pass 256^3 plan with an X split: its second kernel stores natural order across a cluster of 4 X tiles.
  const Plan two_pass = parse_plan("size: [256, 256, 256]\narch: hopper\nplan: \"{X(64, 4, 64, 256, tw), "
                                   "Y(1, 256, 1, 256, no-tw)} {X(4, 64, 1, 64, no-tw), Z(1, 256, 1, 256, no-tw)}\"\n")
                            .plan;
  const LoweredPlan lowered = lower_plan(two_pass, *find_arch_profile("hopper"));
  EXPECT_FALSE(lowered.reorder.has_value());
  KernelSpec spec = lowered.kernels.back();
  ASSERT_EQ(spec.tiles_per_cluster(), 4);
  EXPECT_TRUE(tile::check_cluster_stores(spec).closed());
  spec.cluster_blocks = 2 * spec.tile_blocks;
  EXPECT_FALSE(tile::check_cluster_stores(spec).closed());
}

}  // namespace
}  // namespace fft3d::testing
