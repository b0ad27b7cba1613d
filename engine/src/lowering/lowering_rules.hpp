// The rules lowering applies, one per file. Each takes the plan kernel (and what earlier rules decided) and returns
// one part of a KernelSpec.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "lowering/tile_maps.hpp"
#include "lowering/kernel_spec.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::lowering {

// Complex fp32 values of a 128-byte segment: the X chunk that tiles without X stages walk (axis_tiling.cpp) and
// that real plans pad their half spectrum's columns and paired rows to (real_step.cpp), and complex plans their
// short-run rows (padded_rows.cpp).
inline constexpr std::int64_t x_chunk = 16;
// n rounded up to a multiple of x_chunk.
inline std::int64_t whole_chunks(std::int64_t n) { return (n + x_chunk - 1) / x_chunk * x_chunk; }

// padded_rows.cpp: whether kernel `kernel` of a complex plan lowers on rows padded to whole chunks
// (KernelSpec::volume_nx), and the plan of those rows.
bool pads_x_rows(const Plan& plan, const Kernel& kernel);
Plan padded_rows_plan(const Plan& plan);

// axis_tiling.cpp: the tile and grid modes of one axis for this kernel (the Tile rule of kernel_spec.hpp); real: the
// kernel belongs to a real plan (`plan` is then its complex stage plan).
AxisTile tile_axis(const Plan& plan, const Kernel& kernel, Axis axis, bool real);
// The X run a tile without X stages takes on the plan's rows (the longest run up to a chunk that divides them).
std::int64_t x_run_without_stages(const Plan& plan, bool real);

// narrow_x_runs.cpp: 8-element (64-byte) X runs for a kernel without X stages whose tile then fits one block and
// otherwise would not, or whose one-block-a-multiprocessor tiles end in a near-empty wave (a launch of `volumes`
// volumes of the batch; `nyquist_tiles`: a real plan's Nyquist tile per row of X tiles); profiles with
// narrow_x_run_bytes; spec.tile_elements, spec.tiles and x_run_elements follow.
void narrow_x_runs(KernelSpec& spec, const Kernel& kernel, const ArchProfile& profile, std::int64_t volumes,
                   bool nyquist_tiles);

// grow_tile.cpp: a tile under 16 KB doubled along axes without stages in the kernel (Y, then Z, then X by whole
// chunks) up to the limit below, keeping the grid exact; spec.tile_elements and spec.tiles follow.
std::int64_t grown_tile_limit(const Kernel& kernel, const ArchProfile& profile,
                              Precision precision = Precision::fp32);
// Whether the kernel has a sub-computation along `axis`.
bool has_stages(const Kernel& kernel, Axis axis);
// The most a grown tile may hold when a step from at most half the limit passes it (odd factors).
std::int64_t grown_tile_cap(const Kernel& kernel, const ArchProfile& profile,
                            Precision precision = Precision::fp32);
// `real`: a kernel of a real plan of an even NX (its tiles keep the limit; see grow_tile.cpp).
void grow_small_tile(KernelSpec& spec, const Kernel& kernel, const ArchProfile& profile, bool real);

// tile_stages.cpp: each sub-computation with the tile-linear step between its butterfly inputs.
std::vector<TileStage> tile_stages(const KernelSpec& spec, const Kernel& kernel);

// natural_order.cpp: the radices each axis needs reversed, and where: inside the tile of the kernel that holds
// every stage of the axis, across the cluster of the kernel that holds its last stage (when the cluster fits the
// profile; sets spec.cluster_blocks), otherwise in the digit-reversal pass (none when every axis is covered).
void mark_in_tile_reversals(const Plan& plan, const Kernel& kernel, KernelSpec& spec);
void mark_cluster_reversals(const Plan& plan, int kernel_index, KernelSpec& spec, const ArchProfile& profile);
std::optional<KernelSpec> digit_reversal_pass(const Plan& plan, const std::vector<KernelSpec>& kernels);

// transposed_store.cpp: the last kernel of a 1D plan whose X stages all but the first lie in it stores natural
// order itself out of a workspace (AxisTile::workspace_reversal_radices, KernelSpec::transposed_store_run), its tile
// grown to 16 or 8 groups, where that tile fits one block's part (part_bytes_limit), in fp32 volumes from the
// profile's transposed_store_min_elements. `complex_run`: the plan runs as a C2C transform (a real
// plan's complex stages keep the reorder pass).
void mark_transposed_store(const Plan& plan, int index, KernelSpec& spec, const ArchProfile& profile,
                           bool complex_run);

// sorted_layout.cpp: when every axis the reorder pass reverses is Y or Z, their sorted layouts
// (AxisTile::sorted_radices, sorted_loads) on the first kernel and on the later kernels with their stages, and
// lowered.sorted_layout; with the first kernel's sorted_store_cluster, or the late form's on the last kernel with
// the sorted axes' stages where `late_form_allowed(its index)`, lowered.sorted_layout_in_place.
void mark_sorted_layouts(const Plan& plan, LoweredPlan& lowered, const ArchProfile& profile,
                         const std::function<bool(std::size_t)>& late_form_allowed);

// distribute_tile.cpp: a tile over part_bytes_limit (the largest power of two within a block's shared memory)
// spread over 2, 4, ... blocks of one cluster (a mixed tile: the fewest blocks that divide it) (spec.tile_blocks;
// spec.cluster_blocks grows with it), within the profile's portable cluster size (a mixed tile that no portable
// cluster divides: the opt-in size), with the part digit (spec.part_stride) where the fewest passes cross it; where the
// first pass alone crosses, in parts of 1/profile.spread_blocks_per_multiprocessor of that size, that many blocks a
// multiprocessor (spec.blocks_per_multiprocessor); a tile of the whole volume over the portable cluster's most
// blocks, in parts as small as that makes them, where no more passes cross. Needs spec.stages. Nothing changes on a
// profile without clusters.
std::int64_t part_bytes_limit(const ArchProfile& profile);
// whole_block_parts: a mixed tile that no cluster divides within part_bytes_limit may take parts up to the block's
// own shared memory (else it is refused).
void distribute_large_tile(KernelSpec& spec, const ArchProfile& profile, bool whole_block_parts = false);
// Whether the tile holds every axis whole and at least whole_volume_min_axes of them are longer than 1: a batch's 2D
// or 3D volume, one a tile. A 1D line is left out: 32768-point lines took longer in 8 small parts than in 4
// (docs/performance.md L131).
inline constexpr std::int64_t whole_volume_min_axes = 2;
bool tile_holds_whole_volume(const KernelSpec& spec);
// A whole-volume tile is widened only into parts of at most 1/whole_volume_part_share of part_bytes_limit, where
// several blocks share a multiprocessor (the form measured; wider parts keep the fewest blocks).
inline constexpr std::int64_t whole_volume_part_share = 4;
// Whether `spec` is such a widened tile (lowering/cost_model.cpp charges it spread_whole_volume).
bool whole_volume_in_small_parts(const KernelSpec& spec, const ArchProfile& profile);

// split_radix.cpp: radices over the profile's in-register limit, split into balanced power-of-two passes
// (product = radix, each <= limit; one entry when radix <= limit) and recorded on the stages that need them, each
// pass at most pass_limit: the in-register limit, or the wider radix of a tile that holds an SM alone
// (pass_radix_limit; needs spec.tile_elements).
std::vector<std::int64_t> split_radices(std::int64_t radix, std::int64_t limit);
void split_large_radices(std::vector<TileStage>& stages, std::int64_t limit, std::int64_t pass_limit);
std::int64_t pass_radix_limit(const KernelSpec& spec, const ArchProfile& profile);
// The same file: a tile spread over blocks that share a multiprocessor, with a Y stage the in-register limit splits
// into three radix-8 passes, split again at the one-block radix (a 512-point Y line: [16,32]) where its part field
// stays put. `unsplit` is the spec before split_large_radices and distribute_large_tile; `spec` after both.
void widen_shared_spread_passes(KernelSpec& spec, const KernelSpec& unsplit, const ArchProfile& profile);

// block_threads.cpp: the block size: the profile's, raised for kernels with split stages whose tiles would leave a
// thread too many elements, lowered for complex one-block tiles whose passes would leave threads idle (real: a
// real plan's kernel of an even NX, which keeps the first).
int block_threads(const KernelSpec& spec, const ArchProfile& profile, bool real);

// global_passes.cpp: whether the first butterfly pass loads the tile from global memory and the last stores it
// there (KernelSpec::load_in_first_pass, store_in_last_pass), each where its accesses stay whole 128-byte segments.
// Needs the stages, threads and tile_blocks; the shared layout search then sees only the sweeps that remain.
// `check`: how far the offsets' split form is checked (OffsetCheck).
void reach_global_from_passes(KernelSpec& spec, OffsetCheck check = OffsetCheck::every_tile);

// shared_layout.cpp: the padding or swizzle with the fewest bank conflicts (ties: fewer words), among the candidates
// below (in search order). by_pattern checks each candidate on ConflictPatterns (the period paddings on
// PeriodPatterns); exhaustive on every access (tile::check_bank_conflicts); both choose the same layout (tested on
// every shipped and random plan).
enum class LayoutSearch : std::uint8_t { by_pattern, exhaustive };
// The banks a layout of `precision` words sees: the profile's banks of bank_width_bytes, counted in words. An fp64
// word (8 bytes) spans two 4-byte banks, so the 16 threads of an fp64 conflict group read without a conflict only
// when their words differ modulo 16, not 32 (Nsight Compute: a layout conflict-free modulo 32 took two wavefronts a
// half-warp on Hopper).
int shared_word_banks(const ArchProfile& profile, Precision precision);
std::vector<SharedLayout> shared_layout_candidates(const ArchProfile& profile, Precision precision,
                                                   std::int64_t elements);
SharedLayout choose_shared_layout(const KernelSpec& spec, const ArchProfile& profile,
                                  LayoutSearch search = LayoutSearch::by_pattern);

// The distinct conflict-group patterns of a kernel's shared accesses: per phase, each conflict group's elements
// with the bits common to the whole group cleared. Contract (shared_layout.cpp proves it for identity, pad and
// xor_rows): check(layout) == tile::check_bank_conflicts(spec, layout, accesses) for every such layout.
// stop_above: as check_bank_conflicts's, a partial report once a phase other than the natural-order store exceeds it.
class ConflictPatterns {
 public:
  ConflictPatterns(const KernelSpec& spec, const tile::SharedAccesses& accesses);
  tile::BankReport check(const SharedLayout& layout, int stop_above = 1 << 30) const;
  std::size_t size() const { return patterns_.size(); }

 private:
  std::vector<std::string> phases_;
  int group_threads_ = 32;  // threads per conflict group
  std::vector<std::pair<int, std::vector<std::int64_t>>> patterns_;
};

// The period paddings of the search (pad_period: Q words after each P elements), last in search order.
std::vector<SharedLayout> period_pad_candidates(const KernelSpec& spec, const ArchProfile& profile);

// The distinct conflict-group patterns of a kernel's shared accesses for the paddings of one period P over `banks`
// banks: per phase, each group's distinct elements e as the pairs (e mod banks, (e / P) mod banks), taken relative
// to its first element's pair (modulo banks) and sorted.
// Contract (shared_layout.cpp proves it): check(layout) == tile::check_bank_conflicts(spec, layout, accesses) for
// every pad_period layout of that period and bank count (stop_above as ConflictPatterns's).
class PeriodPatterns {
 public:
  PeriodPatterns(const KernelSpec& spec, const tile::SharedAccesses& accesses, std::int64_t period, int banks);
  tile::BankReport check(const SharedLayout& layout, int stop_above = 1 << 30) const;
  std::size_t size() const { return patterns_.size(); }

 private:
  std::vector<std::string> phases_;
  std::int64_t period_ = 1;
  int banks_ = 32;
  std::vector<std::pair<int, std::vector<std::int64_t>>> patterns_;  // a relative pair (a, b) as a + banks * b
};

// real_step.cpp: a real plan's stages as a complex plan of the stage extents (NX/2, NY, NZ; NX where NX is odd),
// which lowers like any other; then each lowered kernel marked with its real step or its Nyquist tiles
// (RealKernel). Throws LoweringError for the tile shapes real kernels do not handle: the step's kernel must hold
// whole X rows in one block, and a kernel without it must walk X in single runs with no cluster spanning X tiles.
Plan complex_stage_plan(const Plan& plan);
// A 1D real plan (NY = NZ = 1, one volume, NX even) whose step's kernel does not hold every X stage: the step runs
// as a pass of its own over the row in natural order (LoweredPlan::real_pass), one thread a pair (k, NX/2 - k), so
// a row over one block's shared memory takes a real transform too.
bool detaches_real_step(const Plan& plan);
inline constexpr int real_pass_threads = 256;
KernelSpec real_pass_spec(const Plan& plan, const ArchProfile& profile, const std::string& plan_name);
// Refuses, before any kernel lowers, a real plan whose step's rows (stage_extents(plan).nx complex values) are over
// part_bytes_limit: the step pairs frequency k with NX/2 - k of a row, so its kernel holds whole rows in one block.
void require_step_rows_fit(const Plan& plan, const ArchProfile& profile);
// Where pads_spectrum_columns: the complex plan the kernels without the step lower from, (padded_spectrum_columns,
// NY, NZ) without X stages (they are all in the step's kernel): those kernels' tiles cover the half spectrum's
// NX/2 + 1 columns in runs of 16 values, the columns past them masked, no Nyquist tiles (RealKernel).
Plan half_spectrum_stage_plan(const Plan& plan);
// An odd NX (its NX/2 + 1 columns seldom have a divisor near 16: 122 = 2 * 61), and an even NX whose NX/2 is over
// 16 and no multiple of it (120 walks runs of 15 and 120 one-column Nyquist tiles; 128 keeps runs of 16 and its
// Nyquist tiles, which padding would only widen).
bool pads_spectrum_columns(const Plan& plan);
// An odd NX whose step kernel holds X stages only (RealKernel::paired_rows): that kernel lowers from
// paired_rows_stage_plan, (NX, paired_rows, 1), each complex row two of the volume's real rows; paired_rows is
// NY * NZ / 2 rounded up to a multiple of 16, so that tiles grow by whole factors.
bool pairs_real_rows(const Plan& plan);
std::int64_t paired_rows(const Plan& plan);
Plan paired_rows_stage_plan(const Plan& plan);
// NX/2 + 1 rounded up to a multiple of 16, the complex fp32 values of a 128-byte segment (itself where it is no
// more).
std::int64_t padded_spectrum_columns(const Plan& plan);
// The real step runs between two passes: a kernel whose step comes after its last stage keeps its store phase, one
// whose step comes before its first stage its load phase (global_passes.cpp decided the rest).
void keep_real_step_off_global_passes(KernelSpec& spec, const Kernel& real_kernel);
void mark_real_kernels(const Plan& plan, LoweredPlan& lowered);
// Whether kernel `index` of real plan `plan` takes Nyquist tiles (RealKernel::nyquist_tiles): a kernel without the
// step whose columns are not padded.
bool takes_nyquist_tiles(const Plan& plan, std::size_t index);
// The Nyquist tiles of such a kernel: one per tile of the axes other than X, whatever the X run.
std::int64_t nyquist_tile_count(const KernelSpec& spec);

// flops.cpp: nominal flop count of the kernel over the whole volume.
double nominal_flops(const KernelSpec& spec);

}  // namespace fft3d::lowering
