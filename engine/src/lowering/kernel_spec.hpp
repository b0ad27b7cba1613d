// KernelSpec: one plan kernel lowered against an architecture profile. Plain value types that the CUDA emitter,
// the static checkers and `explain` read; nothing here depends on CUDA.
//
// Tiles (docs/architecture.md, paper §4.3-4.4): for an axis with stages in the kernel, S = the first stage's span
// and T = the last stage's stride; one block holds the S/T positions {g*S + j + m*T : m < S/T} for one (g, j), i.e.
// whole butterfly groups of every stage of that axis. Along X the tile is made of aligned 16-element (128-byte) chunks.
// (A kernel without X stages may narrow them to 8-element, 64-byte runs on hopper: KernelSpec::x_run_elements.)
// A tile element's linear index is e = lx + EX*(ly + EY*lz), and every index map below reads and writes mixed-radix
// digits of such indices: a field (stride, extent) is extracted as (e / stride) % extent and inserted by a multiply-add.
// Where every extent and stride is a power of two (every power-of-two plan), the digits are bit fields and the
// emitter prints them as shifts and masks.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d {

// One digit of a tile or of the tile grid along an axis: `extent` values, `stride` apart in the axis's global
// coordinate. Contract: extent and stride are products of the supported factors (2, 3, 5, 7).
struct TileMode {
  std::int64_t extent = 1;
  std::int64_t stride = 1;
  friend bool operator==(const TileMode&, const TileMode&) = default;
};

// The tile of one axis. Global coordinate of (tile origin digits o, local index l) along the axis:
// sum over grid modes of o_i*stride_i + sum over tile modes of l_i*stride_i (digits fastest first).
// @post extent() * tiles() == length, and the two sums enumerate [0, length) exactly once.
struct AxisTile {
  Axis axis = Axis::x;
  std::int64_t length = 1;
  std::vector<TileMode> tile;  // fastest first; product = positions one block holds along the axis
  std::vector<TileMode> grid;  // fastest first; product = number of tiles along the axis
  // Digit reversal of the axis's stages (execution order), set when this kernel holds every stage of the axis:
  // the natural-order store then permutes inside the tile.
  std::vector<std::int64_t> reversal_radices;
  // Digit reversal across the tiles of a cluster, set when this kernel holds the last stage of the axis but not
  // every stage: the natural-order store writes the value at global position p to position
  // frequency_at_position(p, radices), which may lie in another tile of the same cluster (KernelSpec::cluster_blocks).
  std::vector<std::int64_t> cluster_reversal_radices;
  // Digit reversal by a kernel that loads a workspace (lowering rule natural_order.cpp, mark_transposed_store): set
  // on X of the plan's last kernel when it holds every stage of X but the first, its tile whole groups. The
  // natural-order store writes position p to frequency_at_position(p, radices) anywhere in the volume: it loads a
  // workspace no store touches, so no tile's stores land on rows another has yet to load (KernelSpec::
  // transposed_store_run says how the store walks the tile).
  std::vector<std::int64_t> workspace_reversal_radices;
  // The sorted layout (lowering rule sorted_layout.cpp), for an axis other than X whose stages span kernels and
  // would otherwise need the digit-reversal pass. A run out of place in natural order (kernel_flag_sorted_layout)
  // keeps position p of the axis at frequency_at_position(p, sorted_radices) of `out` between kernels: the plan's
  // first kernel, reading the input in its natural layout, stores there, and every later kernel with stages of the
  // axis loads and stores there (sorted_loads), so the axis's last stage leaves it in natural order. In place one
  // kernel's stores make that permutation across clusters of tiles (KernelSpec::sorted_store_cluster), or the run
  // keeps the reorder pass.
  std::vector<std::int64_t> sorted_radices;
  bool sorted_loads = false;

  std::int64_t extent() const;
  std::int64_t tiles() const;
  friend bool operator==(const AxisTile&, const AxisTile&) = default;
};

// A sub-computation as it runs on the tile in shared memory. The radix-point DFT of butterfly b reads tile elements
// base(b) + k*element_step (k < radix); base(b) inserts a zero digit of extent radix at stride element_step.
//
// A radix over the profile's in-register limit is split (lowering rule split_radix.cpp): the radix-r DFT of every
// butterfly group runs as the DIF stages of an r-point line, radices r_1 * ... * r_n = r (execution order), each
// pass computed by many threads through shared memory; the last pass writes every output to its natural place in
// the group and applies the plan stage's twiddle there (tile::split_passes has the exact maps).
struct TileStage {
  SubComputation sub;
  std::int64_t element_step = 1;  // tile-linear distance between consecutive inputs of one butterfly
  std::vector<std::int64_t> split_radices;  // empty: one thread computes the whole radix in registers
  bool is_split() const { return !split_radices.empty(); }
  friend bool operator==(const TileStage&, const TileStage&) = default;
};

// Shared-memory word address of tile element e (real and imaginary parts live in two such arrays):
// identity: e; pad: e + (e >> shift); xor_rows: e ^ ((e >> shift) & (banks - 1)), and when second_shift > 0 also
// ^ ((e >> second_shift) & (banks - 1)) (two index fields staggering the banks: tiles whose passes stride along
// two axes, e.g. a split Z stage behind 16 X columns, need both); pad_period: e + (e / period) * period_words,
// period_words after each `period` elements, for tiles whose strides are not powers of two (e.g. Y rows of 100 X
// values: period 100; runs of 12 butterfly inputs 96 apart: period 96, 12 words).
enum class SharedLayoutKind : std::uint8_t { identity, pad, xor_rows, pad_period };
struct SharedLayout {
  SharedLayoutKind kind = SharedLayoutKind::identity;
  int shift = 0;
  int banks = 32;
  std::int64_t words = 0;  // per array (real or imaginary)
  int second_shift = 0;    // xor_rows only; 0: a single field
  std::int64_t period = 0;  // pad_period only
  std::int64_t period_words = 1;
  friend bool operator==(const SharedLayout&, const SharedLayout&) = default;
};

// tile: a kernel of the plan; digit_reversal: the reorder pass (natural_order.cpp); real_pass: a 1D real plan's step
// as a pass of its own (real_step.cpp), where the row's X stages span several kernels.
enum class KernelRole : std::uint8_t { tile, digit_reversal, real_pass };

// Why narrow_x_runs cut a tile's X runs to 64 bytes (narrow_x_runs.cpp): the narrowed tile fits one block; a tile
// filling a cluster, crossing it in a radix-8 or -16 pass, spreads over fewer or smaller parts; a one-line tile fits
// a cluster only narrowed; or a launch of one-block-a-multiprocessor tiles sheds a near-empty last wave.
enum class XRunNarrowing : std::uint8_t { none, fits_one_block, fills_a_cluster, fits_a_cluster, spares_a_tail };

// A kernel of a real transform (lowering rule real_step.cpp). Its tiles run on the complex volume of the plan's
// stages, (NX/2) x NY x NZ (KernelSpec::size), and its global accesses meet the real rows and the half spectrum
// (NX/2 + 1 columns) through the row pitches the launch passes (the RealRows argument, emit/cuda_source.hpp).
// The half spectrum's extra column x = NX/2 (Nyquist) rides in the same kernels: in the kernel with the real step,
// as one more value per tile row in a side array that the kernel's Y and Z stages also transform; in the others,
// as `nyquist_tiles` more tiles, whose X origin is NX/2 and whose columns past it are masked: each walks as one
// more X tile beside its row's X tiles (tile::block_origin), so that they spread through the launch, not a tail.
// An odd NX (`odd`): the kernel with the step runs on (NX, NY, NZ) with whole rows of NX complex values, R2C loading
// each real as (x, 0) and storing columns 0 .. half, C2R loading those and filling column NX - k with the conjugate
// of column k before its X stages, then storing the real parts; no side array. The other kernels run on the
// half + 1 columns padded to a multiple of 16 (`padded_columns`). Their global accesses to the half spectrum take row
// pitches in reals, where row r starts at complex value (pitch * r + 1) / 2: so an out-of-place C2R's intermediate
// rows lie inside the output's rows of NX reals, 8-byte aligned (pitch NX).
struct RealKernel {
  TransformKind kind = TransformKind::c2c;  // c2c: a complex plan's kernel
  std::int64_t half = 0;                    // NX/2, rounded down
  bool odd = false;                         // NX = 2 half + 1
  // A kernel without the step on the half spectrum's columns padded to runs of 16 (half_spectrum_stage_plan, for
  // an odd NX and an even one whose NX/2 is no multiple of 16): columns past `half` masked, no Nyquist tiles.
  bool padded_columns = false;
  // An odd NX's step kernel with X stages only (pairs_real_rows): it runs on (NX, paired rows, 1), tile row p holding
  // the volume's real rows 2p (real part) and 2p + 1 (imaginary part) of its `volume_rows` (NY * NZ; rows past it
  // read as zeros and are not stored), so that one FFT serves two rows. R2C splits each row's Z into the two rows'
  // frequencies, A[k] = (Z[k] + conj Z[NX-k]) / 2 and B[k] = (Z[k] - conj Z[NX-k]) / 2i, and stores both; C2R loads
  // both rows' half spectra, forms Z = A + iB over all NX frequencies and stores real and imaginary parts apart.
  bool paired_rows = false;
  std::int64_t volume_rows = 0;
  // The real step runs before stages[step_stage] (== stages.size(): after every stage); -1: not in this kernel.
  int step_stage = -1;
  std::int64_t nyquist_tiles = 0;
  bool has_step() const { return step_stage >= 0; }
  friend bool operator==(const RealKernel&, const RealKernel&) = default;
};

// The most volumes one launch of a batch covers: CUDA's limit on gridDim.y, where the volume index lives.
constexpr std::int64_t max_volumes_per_launch = 65535;

// The digit-reversal pass with X reversed (lowering rule natural_order.cpp): each block transposes, through shared
// memory, `frequency_run` consecutive frequencies (the digit of X's first radix) by `position_run` consecutive
// positions (the digit of its last radix) of one row, so its loads are runs of positions and its stores runs of
// frequencies (tile::reorder_move). Zero: the pass gathers one value a thread (X natural, or a tile under a
// gather's block of 256 values).
struct ReorderTile {
  std::int64_t frequency_run = 0;
  std::int64_t position_run = 0;
  bool transposes() const { return frequency_run > 0; }
  std::int64_t elements() const { return frequency_run * position_run; }
  friend bool operator==(const ReorderTile&, const ReorderTile&) = default;
};

struct KernelSpec {
  KernelRole role = KernelRole::tile;
  std::string plan_name;          // the plan's file or "<plan>"
  std::uint64_t plan_hash = 0;    // stable_hash(plan)
  int kernel_index = 0;           // position in the plan (the reorder pass takes kernels.size())
  Kernel kernel;                  // the plan's text for this kernel (empty for the reorder pass)
  std::string profile;            // arch profile name
  // The data's and the arithmetic's precision: every byte count of the tile (shared memory, X runs, the part
  // limits) goes by real_bytes() / complex_bytes(), so a tile that fits in fp32 may not fit in fp64.
  Precision precision = Precision::fp32;
  // Threads whose shared accesses are served together: the profile's, halved for fp64 (8-byte words are served
  // per half-warp).
  int conflict_group_threads = 32;
  Extents size;
  // The volume's row length where the tile runs on rows padded to whole X chunks (`size.nx`; lowering rule
  // padded_rows.cpp: a complex kernel without X stages on rows whose own X runs are short). Its global accesses
  // take `volume_nx` as the row pitch, and tile positions x >= volume_nx are masked (their loads read zeros, their
  // stores are skipped). 0: the rows are size.nx long.
  std::int64_t volume_nx = 0;
  std::array<AxisTile, 3> axes;   // x, y, z (tile role only)
  // Elements of the contiguous X run each global access of the tile covers whole: 16 (128 bytes), or 8 where the
  // lowering narrowed the X runs of a tile without X stages (narrow_x_runs.cpp), for the reason it records.
  std::int64_t x_run_elements = 16;
  XRunNarrowing x_run_narrowing = XRunNarrowing::none;
  std::vector<TileStage> stages;  // in kernel order (tile role only)
  // Digit-reversal pass: radices of each axis to undo (empty: the axis is already natural).
  std::array<std::vector<std::int64_t>, 3> reorder_radices;
  ReorderTile reorder_tile;
  SharedLayout shared;
  int threads = 0;                // block size
  std::int64_t tile_elements = 0;
  // Tiles in the grid (tile t has the origins tile::block_origin(spec, t)). The reorder pass has no tiles: there
  // this counts its blocks of `threads` elements.
  std::int64_t tiles = 0;
  // Blocks one tile is spread over (distributed shared memory; lowering rule distribute_tile.cpp): part p of a
  // tile, block tile*tile_blocks + p, holds the tile elements whose digit (part_stride, tile_blocks) of the
  // tile-linear index, (e / part_stride) % tile_blocks, reads p (tile::element_part). Where part_stride and
  // tile_blocks are powers of two the digit is the bit field [part_shift(), part_shift() + log2 tile_blocks).
  // 1: one block.
  int tile_blocks = 1;
  std::int64_t part_stride = 1;
  // Blocks of this kernel that must fit one multiprocessor together: the second argument of __launch_bounds__, which
  // caps the registers a thread may take (1: not asked). Parts of a spread tile may be cut small for two blocks to
  // share a multiprocessor (distribute_tile.cpp).
  int blocks_per_multiprocessor = 1;
  // Consecutive blocks launched as one thread-block cluster (1: none): the parts of a distributed tile, and with a
  // cluster reversal all the tiles of the axes up to the reversed one, so the cluster's natural-order stores land
  // exactly where it loaded (a cluster barrier between loads and stores keeps an in-place run from overwriting an
  // unread tile).
  int cluster_blocks = 1;
  // Global memory reached from the butterfly passes themselves (lowering rule global_passes.cpp): the first pass
  // reads its inputs from global memory instead of a load phase writing the tile to shared memory, and the last
  // pass writes its outputs to global memory instead of a store phase reading the tile back (tile::first_pass,
  // tile::last_pass say which passes those are).
  bool load_in_first_pass = false;
  bool store_in_last_pass = false;
  // The kernel of a plan with a sorted layout (AxisTile::sorted_radices) whose stores make its permutation in place:
  // the first kernel (its sorted stores), or, where the first kernel's tiles cannot form the clusters below, the
  // last kernel with the sorted axes' stages, which in place loads natural positions and stores sorted ones (the
  // late form, tile::sorts_late_in_place; the kernels before it then address natural positions). Its stores land on
  // rows other tiles load, and the tiles of the sorted axes (this many consecutive tiles) load exactly the rows they
  // store. Launched as one cluster of that many blocks (kernel_flag_cluster_ordered_stores), every block loads
  // before any stores (a cluster barrier), so an in-place run keeps the sorted layout too.
  // 1: no such kernel, or the cluster would be over the profile's opt-in size (in place then takes the reorder
  // pass); over the portable size, the engine opts the kernel in to it.
  int sorted_store_cluster = 1;
  // The order in which consecutive blocks walk the axes' tiles, fastest first: X, then Y, then Z (paper section
  // 4.4), except that a kernel with sorted stores in place walks the sorted axes first, so that the tiles of its
  // cluster are consecutive (sorted_layout.cpp).
  std::array<Axis, 3> grid_order{Axis::x, Axis::y, Axis::z};
  RealKernel real;
  // Groups T of the transposed store (X's workspace_reversal_radices; 0: none): the tile holds T consecutive groups of
  // G = tile_elements / T values, and in natural order the store's slot s takes tile element (s % T) * G + s / T
  // (tile::transposed_store_element), so a warp writes runs of T consecutive frequencies: whole sectors, where slots
  // in element order would write one value a sector.
  std::int64_t transposed_store_run = 0;
  std::int64_t shared_bytes = 0;
  double nominal_flops = 0;       // 5 r log2 r per butterfly + 6 per twiddle multiply, over the whole volume
  // Volumes of the plan's batch (Plan::batch). Over 1, the kernel runs launches of up to max_volumes_per_launch
  // volumes, blockIdx.y the volume, and takes the distances between volumes as two more arguments
  // (emit/cuda_source.hpp); its tiles, grid and shared memory are one volume's, whatever the batch.
  std::int64_t batch = 1;

  std::string entry_name() const;  // the extern "C" kernel name, unique per spec text
  std::int64_t real_bytes() const { return static_cast<std::int64_t>(real_value_bytes(precision)); }  // one part
  std::int64_t complex_bytes() const { return 2 * real_bytes(); }
  std::int64_t launch_blocks() const { return (tiles + real.nyquist_tiles) * tile_blocks; }
  // Values of the side array of a kernel with the real step (one per tile row: the Nyquist column); 0 otherwise.
  std::int64_t side_elements() const { return real.has_step() && !real.odd ? tile_rows() : 0; }
  // Rows of the tile (tile elements / its X extent): the rows a real step walks.
  std::int64_t tile_rows() const { return tile_elements / axes[0].extent(); }
  std::int64_t part_elements() const { return tile_elements / tile_blocks; }  // tile elements one block holds
  // log2 part_stride. @pre part_stride is a power of two (the part field is a bit field).
  int part_shift() const { return std::countr_zero(static_cast<std::uint64_t>(part_stride)); }
  std::int64_t tiles_per_cluster() const { return cluster_blocks / tile_blocks; }
  bool masks_x() const { return volume_nx > 0; }
  std::int64_t row_pitch() const { return masks_x() ? volume_nx : size.nx; }  // values from one row to the next
  std::int64_t volume_elements() const { return row_pitch() * size.ny * size.nz; }  // one volume's, unpadded
  friend bool operator==(const KernelSpec&, const KernelSpec&) = default;
};

// All kernels of a plan, and whether natural order needs the digit-reversal pass (through a workspace).
struct LoweredPlan {
  std::vector<KernelSpec> kernels;         // tile kernels, in plan order
  std::optional<KernelSpec> reorder;       // present when some axis's stages span several kernels
  // A 1D real plan whose X stages span several kernels: the step in a pass of its own over the row in natural
  // order (real_step.cpp), after the reorder pass for R2C, before the first kernel for C2R. The kernels and the
  // reorder pass then lower and run as the complex plan of the packed row.
  std::optional<KernelSpec> real_pass;
  // Every axis the reorder pass reverses has a sorted layout (AxisTile::sorted_radices): a run out of place in
  // natural order needs neither the pass nor its workspace.
  bool sorted_layout = false;
  // In place too: one kernel's sorted stores are ordered across a cluster (KernelSpec::sorted_store_cluster).
  bool sorted_layout_in_place = false;
  // That kernel is not the first (the late form): in place the kernels before it address natural positions.
  bool sorts_late_in_place = false;
  bool sorted(bool out_of_place) const { return sorted_layout && (out_of_place || sorted_layout_in_place); }
  // The last kernel stores natural order itself out of the workspace (KernelSpec::transposed_store_run): a run in
  // natural order runs its kernels in the workspace, the last one storing into `out`, in both placements.
  bool stores_out_of_workspace() const { return !kernels.empty() && kernels.back().transposed_store_run > 0; }
  // Whether kernel `index` addresses its sorted axes in their sorted layout (kernel_flag_sorted_layout): every
  // kernel of a sorted run, except those before the late form's kernel in place.
  bool addresses_sorted(std::size_t index, bool out_of_place) const {
    if (!sorted(out_of_place)) return false;
    if (out_of_place || !sorts_late_in_place) return true;
    for (std::size_t k = index; k < kernels.size(); ++k)
      if (kernels[k].sorted_store_cluster > 1) return k == index;
    return true;
  }
  // Whether kernel `index` is the late form's kernel in place: it loads natural positions, stores sorted ones.
  bool loads_natural_in_sorted_run(std::size_t index, bool out_of_place) const {
    return !out_of_place && sorted(out_of_place) && sorts_late_in_place && kernels[index].sorted_store_cluster > 1;
  }
  // Whether kernel `index` of a sorted run in place is launched in clusters of its sorted_store_cluster, loads
  // ordered before stores (kernel_flag_cluster_ordered_stores).
  bool orders_stores_in_clusters(std::size_t index, bool out_of_place) const {
    return sorted(out_of_place) && !out_of_place && kernels[index].sorted_store_cluster > 1;
  }
  // Whether natural order takes the reorder pass, and its workspace (digit-reversed order needs neither).
  bool reorders(bool out_of_place) const { return reorder && !sorted(out_of_place); }
  // Natural order's workspace: one volume for the reorder pass or for the kernels before a transposed store; 0 else.
  std::int64_t workspace_bytes(bool out_of_place = false) const;
  // Every kernel a run may launch, in the order `specs` of GpuTransform keeps them: the tile kernels, then the
  // reorder pass and the real pass where the lowering has them.
  std::vector<KernelSpec> launched_specs() const {
    std::vector<KernelSpec> specs = kernels;
    if (reorder) specs.push_back(*reorder);
    if (real_pass) specs.push_back(*real_pass);
    return specs;
  }
  Precision precision() const { return kernels.empty() ? Precision::fp32 : kernels.front().precision; }
  // Reads and writes of the whole volume one volume's run makes: one per tile kernel, one for the reorder pass where
  // natural order takes it (its kernels run in the workspace in both placements, GpuTransform::execute), one for a
  // real pass. (A batch reorders in place and copies back: GpuProfiler::volume_passes counts that.)
  std::int64_t volume_passes(bool natural_order, bool out_of_place) const {
    const bool reordering = natural_order && reorders(out_of_place);
    return static_cast<std::int64_t>(kernels.size()) + (reordering ? 1 : 0) + (real_pass ? 1 : 0);
  }
};

// How far the lowering checks that a pass's global offsets add (tile::first_pass_offsets_add): along the pass's
// axis in every tile (what a kernel that runs needs), or in the first and last tiles_checked_at_each_end tiles only
// (what ranking candidates needs: that check walks the whole axis, a second a kernel on axes of millions of points).
enum class OffsetCheck : std::uint8_t { every_tile, end_tiles };

// Lowers a legal plan (require_legal is called) for `profile`. Throws LoweringError. With OffsetCheck::end_tiles the
// passes may be marked to reach global memory where a middle tile's offsets carry: for the planner's cost only,
// never for a kernel that runs.
LoweredPlan lower_plan(const Plan& plan, const ArchProfile& profile, const std::string& plan_name = "<plan>",
                       OffsetCheck offset_check = OffsetCheck::every_tile);
// Largest radix one thread computes in registers on `profile`; larger radices are split across threads
// (TileStage::split_radices). See lowering/split_radix.cpp for how the limit follows from the register file.
// fp64 values take two registers each, so the limit is lower for fp64.
std::int64_t register_radix_limit(const ArchProfile& profile, Precision precision = Precision::fp32);

// Canonical text of a spec (every field, one per line); stable across builds. `explain` prints it.
std::string to_string(const KernelSpec& spec);
std::string to_string(const TileMode& mode);          // "16:1"
std::string to_string(const SharedLayout& layout);    // "pad(>>5) 1056 words"
std::uint64_t stable_hash(const KernelSpec& spec);    // FNV-1a of to_string(spec)
std::uint64_t fnv1a(const std::string& text, std::uint64_t seed = 14695981039346656037ULL);

}  // namespace fft3d
