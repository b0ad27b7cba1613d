// Index maps of a tile kernel and the static checkers built on them. The CUDA emitter prints exactly these
// formulas (same modes, same shifts), so what the checkers prove on the CPU is what the GPU executes.
#pragma once

#include <array>
#include <bit>
#include <optional>
#include <utility>
#include <cstdint>
#include <string>
#include <vector>

#include "lowering/kernel_spec.hpp"

namespace fft3d::tile {

// @pre v is a power of two (else std::logic_error). @post (1 << result) == v. Inline: the static checks and the
// layout search call it for every access they enumerate; (v & (v - 1)) rather than std::has_single_bit, which
// without -mpopcnt is a libgcc call.
[[noreturn]] void throw_not_a_power_of_two(std::int64_t v);
inline int log2_exact(std::int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0) throw_not_a_power_of_two(v);
  return std::countr_zero(static_cast<std::uint64_t>(v));
}

// Whether every digit of the spec's index maps is a bit field: the volume's extents and every radix (stages, their
// splits, the reversals) are powers of two, as in every power-of-two plan. The emitter then prints shifts and masks,
// and maps that rely on disjoint bits (XOR-linear shared words, tile offsets that add over disjoint fields) apply.
bool bit_fields(const KernelSpec& spec);
// Whether the tile's own digits are bit fields: the tile's size, every radix (stages, their splits, the reversals)
// and the length of every axis a stage runs on are powers of two; an axis without stages may have any length (the
// flat column of half-spectrum rows, 513 x 512 long). @post bit_fields(spec) implies it.
bool staged_bit_fields(const KernelSpec& spec);

// Tile-linear distance between consecutive local indices of `axis` (1 for X, EX for Y, EX*EY for Z).
std::int64_t axis_linear_stride(const KernelSpec& spec, Axis axis);
// Local index of `axis` inside tile element e. @post < spec.axes[axis].extent().
std::int64_t local_index(const KernelSpec& spec, Axis axis, std::int64_t e);
// Offset along the axis of local index l: sum of l's digits times the tile modes' strides.
std::int64_t local_position(const AxisTile& axis, std::int64_t l);
// Origin along the axis of the tile with index t (t < axis.tiles()), from the grid modes.
std::int64_t origin_position(const AxisTile& axis, std::int64_t t);
// Origins (x, y, z) of block `block`: consecutive blocks walk the tiles in spec.grid_order (X, then Y, then Z unless
// a rule reorders them; paper §4.4), a real kernel's Nyquist tile as X tile number X tiles (origin NX/2).
std::array<std::int64_t, 3> block_origin(const KernelSpec& spec, std::int64_t block);

// Tiles the launch walks along `axis`: the grid's, and along X one more, the Nyquist tile, in a real kernel with
// Nyquist tiles (RealKernel::nyquist_tiles), which block_origin walks beside the X tiles of its row.
std::int64_t walked_tiles(const KernelSpec& spec, Axis axis);

// The block (tile index) of the grid's last tile, every grid digit at its largest: the last block but for the
// Nyquist tiles that walk beside it.
std::int64_t last_grid_tile(const KernelSpec& spec);
// Global coordinates (x, y, z) of tile element e in block `block`, and its element index x + NX*(y + NY*z).
std::array<std::int64_t, 3> axis_positions(const KernelSpec& spec, std::int64_t block, std::int64_t e);
std::int64_t global_offset(const KernelSpec& spec, std::int64_t block, std::int64_t e);
// The offsets above are in the tile's layout, rows of size.nx. With padded rows (KernelSpec::masks_x) the element
// of the volume that layout `offset` reaches, rows of volume_nx: -1 for a masked position (x >= volume_nx);
// otherwise `offset` itself.
std::int64_t volume_offset(const KernelSpec& spec, std::int64_t offset);
// Distributed tiles (KernelSpec::tile_blocks, part_stride): the part (block of the tile) holding tile element e, e's
// index in that block's shared memory (the part digit taken out), and the inverse. With one block per tile: part 0,
// e, e.
std::int64_t element_part(const KernelSpec& spec, std::int64_t e);
std::int64_t part_local_element(const KernelSpec& spec, std::int64_t e);
std::int64_t part_element(const KernelSpec& spec, std::int64_t part, std::int64_t local);
// Whether butterfly groups whose elements are element_step apart, `group` of them, touch several parts: unless the
// group's digit (element_step, group) lies wholly below the part digit (part_stride a multiple of element_step *
// group) or wholly above it (element_step a multiple of part_stride * tile_blocks). For bit fields: the group's
// field [log2 element_step, + log2 group) overlaps the part field.
bool crosses_parts(const KernelSpec& spec, std::int64_t element_step, std::int64_t group);
// The butterfly index (over the whole tile) of the part's `local`-th butterfly of radix-`radix` butterflies with
// inputs element_step apart: a pass that does not cross parts gives each part the butterflies of its own elements
// (the part digit inserted where it falls in the butterfly index, at part_butterfly_stride); one that crosses
// splits them by the top digit (part * butterflies per part + local).
// @pre a crossing pass's butterflies divide evenly among the parts (distribute_tile.cpp places the part so).
std::int64_t part_butterfly_stride(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix);
std::int64_t part_butterfly(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix, bool cross,
                            std::int64_t part, std::int64_t local);

// Inverse of the axis's digit fields (the tile and grid modes are disjoint mixed-radix digits of the position): the tile
// index and local index of global position p. @post origin_position(axis, t) + local_position(axis, l) == p.
std::int64_t tile_index_of(const AxisTile& axis, std::int64_t p);
std::int64_t local_index_of(const AxisTile& axis, std::int64_t p);

// Natural order across a cluster, the exchange form: when X is the only axis reversed across the cluster (the
// cluster is then the X tiles of one row), each block stores to the elements it loaded, gathering every value from
// the shared memory of the cluster's block that holds it (distributed shared memory), so the stores stay whole
// 128-byte segments. Otherwise (Y or Z reversed across the cluster) the store is strided, as store_offset says.
bool exchanges_across_cluster(const KernelSpec& spec);
// The (block, tile element) whose value block `block` stores at its tile element e in the exchange form.
// @pre exchanges_across_cluster(spec). @post the block is in block's cluster.
std::pair<std::int64_t, std::int64_t> exchange_source(const KernelSpec& spec, std::int64_t block, std::int64_t e);

// Global element index the store writes tile element e of block `block` to: global_offset, except that in natural
// order an axis with a cluster reversal (strided form, not the exchange) or a workspace reversal maps its position p
// to frequency_at_position(p, radices), and with `sorted` (kernel_flag_sorted_layout) an axis with a sorted layout
// maps p to sorted_position(axis, p).
std::int64_t store_offset(const KernelSpec& spec, std::int64_t block, std::int64_t e, bool natural,
                          bool sorted = false);
// The tile element a transposed store's slot `slot` takes in natural order (slot = thread + i*threads, the element
// loop's order): (slot % T) * G + slot / T for KernelSpec::transposed_store_run T > 0 and G = tile_elements / T, so
// consecutive slots take the same value of consecutive groups; `slot` itself without a transposed store.
std::int64_t transposed_store_element(const KernelSpec& spec, std::int64_t slot);
// Whether store_offset (load_offset) maps the global positions along `axis` (natural order across a cluster, the
// sorted layout) rather than taking them as they are. Where it does not, an element's offset is its position along
// the axis times the axis's stride plus terms of the other axes: a tile's origin adds the same to every offset.
bool store_maps_positions(const KernelSpec& spec, Axis axis, bool natural, bool sorted);
// Whether a tile element's global offset from its tile's origin is the element index itself (global_offset(spec,
// b, e) == global_offset(spec, b, 0) + e): the tile holds whole rows, whole planes below its last axis, one run
// along that axis, and no map moves a position (no cluster reversal, no sorted layout, no padded rows).
bool offsets_are_elements(const KernelSpec& spec);
bool load_maps_positions(const KernelSpec& spec, Axis axis, bool sorted);
// Global element index the load reads tile element e of block `block` from: global_offset, except that with
// `sorted` the axes the kernel loads sorted (AxisTile::sorted_loads) map p to sorted_position(axis, p).
std::int64_t load_offset(const KernelSpec& spec, std::int64_t block, std::int64_t e, bool sorted);
// Where the sorted layout keeps position p of the axis: frequency_at_position(p, axis.sorted_radices) (p itself
// without one).
std::int64_t sorted_position(const AxisTile& axis, std::int64_t p);
// Whether some axis of the kernel loads in its sorted layout (AxisTile::sorted_loads).
bool loads_sorted(const KernelSpec& spec);
// Whether the kernel makes the sorted layout's permutation in place itself (KernelSpec::sorted_store_cluster on a
// kernel that loads sorted out of place): in place it loads natural positions and stores sorted ones, in clusters.
bool sorts_late_in_place(const KernelSpec& spec);

// The digit-reversal pass: the element it reads for output element `to` (natural order), each reversed axis's
// frequency at its digit-reversed position.
std::int64_t reorder_source(const KernelSpec& spec, std::int64_t to);
// The digit-reversal pass in its transposed form (KernelSpec::reorder_tile): the global element block `block`
// loads as its tile element e, and the one it stores that value to. Element e is frequency e / position_run of
// the block's frequency run and position e % position_run of its position run; consecutive blocks walk the
// frequency runs, then the position runs, then X's middle digits, then the rows (Y, Z) in natural order.
struct ReorderMove {
  std::int64_t from = 0;
  std::int64_t to = 0;
};
ReorderMove reorder_move(const KernelSpec& spec, std::int64_t block, std::int64_t e);
// Global coordinate along `axis` of tile element e in block `block`.
std::int64_t axis_position(const KernelSpec& spec, std::int64_t block, Axis axis, std::int64_t e);

// Shared-memory word of tile element e. @post injective on [0, tile_elements). Inline: the layout search calls it
// for every element of every conflict pattern of every candidate layout.
inline std::int64_t shared_address(const SharedLayout& layout, std::int64_t e) {
  switch (layout.kind) {
    case SharedLayoutKind::identity: return e;
    case SharedLayoutKind::pad: return e + (e >> layout.shift);
    case SharedLayoutKind::pad_period: return e + e / layout.period * layout.period_words;
    case SharedLayoutKind::xor_rows: {
      const std::int64_t second = layout.second_shift > 0 ? (e >> layout.second_shift) & (layout.banks - 1) : 0;
      return e ^ ((e >> layout.shift) & (layout.banks - 1)) ^ second;
    }
  }
  return e;
}
// First tile element of butterfly b of a stage (b < tile_elements / radix).
std::int64_t butterfly_base(const TileStage& stage, std::int64_t b);
// First tile element of butterfly b of radix-`radix` butterflies whose inputs are `element_step` apart: b with a
// zero digit of extent radix inserted at stride element_step, b % E + (b / E) * E * radix. (The overload above
// passes the stage's own.)
std::int64_t butterfly_base(std::int64_t element_step, std::int64_t radix, std::int64_t b);

// One pass of a split stage (TileStage::split_radices = r_1..r_n, r = their product, E = stage.element_step).
// A butterfly group of the stage is the r tile elements group_base + q*E, q < r (group index q: the bits
// [log2 E, log2 E + log2 r) of the element). Pass i runs the DIF stage i of that r-point line: radix-r_i
// butterflies whose inputs are local_stride = r_(i+1)*...*r_n apart in q. A pass other than the last multiplies its
// output m by w_{local_span}^{(q mod local_stride)*m} (local_span = r_i*local_stride) and writes in place. The last
// pass (local_stride 1, butterflies at q = a multiple of r_n) writes output m to group index
// f = frequency_at_position(q + m, radices) (natural order in the group) multiplied by the plan stage's twiddle
// w_span^(j*f): after it, the group holds exactly the plan stage's outputs.
struct SplitPass {
  std::int64_t radix = 1;
  std::int64_t local_stride = 1;  // in group-index units
  std::int64_t local_span = 1;    // radix * local_stride: the span of this pass's twiddle
  std::int64_t element_step = 1;  // stage.element_step * local_stride: tile distance between inputs
  bool last = false;
};
// @pre stage.is_split(). @post one pass per split radix, in execution order; only the last has last == true.
std::vector<SplitPass> split_passes(const TileStage& stage);
// Group index q of tile element e in `stage`'s butterfly groups. @post q < stage.sub.radix
std::int64_t group_index(const TileStage& stage, std::int64_t e);
// The tile element the last pass writes output m of its butterfly with first element `base` to (natural order in the
// group). @post over all butterflies and m, a permutation of the tile that keeps every group.
std::int64_t split_output_element(const TileStage& stage, std::int64_t base, std::int64_t m);
// The natural group index that element (first element `base`, output m) of the last pass receives: f above.
std::int64_t split_output_frequency(const TileStage& stage, std::int64_t base, std::int64_t m);

// Whether a pass crosses parts: an in-register stage by its butterflies; a split stage's inner pass likewise; its
// last pass also when the stage's whole group does (its writes permute the group), unless it is the kernel's last
// pass and writes global memory (KernelSpec::store_in_last_pass). (The pass is one of split_passes(stage).)
bool stage_crosses_parts(const KernelSpec& spec, const TileStage& stage);
bool pass_crosses_parts(const KernelSpec& spec, const TileStage& stage, const SplitPass& pass);

// The tile element whose value belongs at element e when the store writes natural order (axes whose every stage
// is in this kernel are reversed inside the tile with fft3d::digit_reversed_position; others pass through).
std::int64_t natural_source(const KernelSpec& spec, std::int64_t e);

// The inverse of natural_source: the tile element whose natural-order position the value at tile element p takes.
// @post natural_source(spec, natural_destination(spec, p)) == p.
std::int64_t natural_destination(const KernelSpec& spec, std::int64_t p);

// The first and the last butterfly pass of a tile kernel: stage 0 (or the first pass of its split), and the last
// stage (or the last pass of its split). Butterfly b of a pass reads the tile elements
// butterfly_base(element_step, radix, b) + k*element_step.
struct ButterflyPass {
  std::int64_t radix = 1;
  std::int64_t element_step = 1;
  bool cross = false;  // its butterflies are split between the parts of a spread tile by the top bits (crosses_parts)
};
ButterflyPass first_pass(const KernelSpec& spec);
ButterflyPass last_pass(const KernelSpec& spec);
// Passes over the tile in shared memory: one per in-register stage, one per pass of a split stage.
int butterfly_passes(const KernelSpec& spec);
// Those passes in execution order, each with whether it crosses the parts of a spread tile (first_pass and
// last_pass are the ends of this list).
std::vector<ButterflyPass> butterfly_pass_list(const KernelSpec& spec);
// The tile element output m of the last pass's butterfly at `base` belongs to: the element it was read from, or
// for a split last stage its natural place in the group (split_output_element).
std::int64_t last_pass_output_element(const KernelSpec& spec, std::int64_t base, std::int64_t m);
// Global element index the kernel writes tile element p of block `block` to, in either order, when the last pass
// stores (KernelSpec::store_in_last_pass): store_offset of p, or in natural order of natural_destination(p).
std::int64_t last_pass_store_offset(const KernelSpec& spec, std::int64_t block, std::int64_t p, bool natural,
                                    bool sorted = false);

// One shared-memory access instruction: the tile element each thread touches (-1: inactive).
struct AccessInstruction {
  int phase = 0;  // index into SharedAccesses::phases
  std::vector<std::int64_t> element;
};
struct SharedAccesses {
  std::vector<std::string> phases;  // "load", "stage 2 X(32, 8, 8, 64, tw)", "store natural", ...
  std::vector<AccessInstruction> instructions;
};
// Every shared-memory access instruction of the kernel, in execution order (the writes of the load phase, each
// stage's reads (its writes touch the same words), the store's reads in both orders). Independent of the layout.
SharedAccesses shared_accesses(const KernelSpec& spec);

struct PhaseConflict {
  std::string phase;
  int degree = 1;  // worst number of distinct words one bank serves in one request of a conflict group
};
struct BankReport {
  std::vector<PhaseConflict> phases;  // worst degree per phase name
  int worst() const;
  int worst_excluding_natural_store() const;
};
// Bank conflicts of the spec's shared layout (or `layout`) over groups of spec.conflict_group_threads threads.
BankReport check_bank_conflicts(const KernelSpec& spec);
BankReport check_bank_conflicts(const KernelSpec& spec, const SharedLayout& layout);
// stop_above: give up once a phase other than the natural-order store exceeds this degree (the layout search
// cannot pick such a layout); the report is then partial, with that phase's degree at least stop_above + 1.
BankReport check_bank_conflicts(const KernelSpec& spec, const SharedLayout& layout, const SharedAccesses& accesses,
                                int stop_above = 1 << 30);

struct CoalescingReport {
  std::int64_t requests = 0;          // warp-wide global loads and stores checked
  std::int64_t segments = 0;          // segments (KernelSpec::x_run_elements values) the requests touch
  std::int64_t partial_segments = 0;  // of those, the ones a request touches but does not cover whole
  std::string first_problem;          // empty when coalesced
  bool coalesced() const { return partial_segments == 0; }
};
// Every global load and store of every warp as the kernel issues them: the load and store phases (element
// e = thread + i*threads), or the first pass's loads and the last pass's stores in both orders when the kernel
// reaches global memory from its passes (checked for the first and last blocks; the others are translates of them
// by multiples of the X run along X). A segment is one X run: 16 values (128 bytes), or 8 where the tile's runs were
// narrowed (KernelSpec::x_run_elements), aligned by global address: X rows whose length is not a multiple of it share
// segments, and first_problem then says so (or that the tile's X runs are shorter than a segment, or strided).
CoalescingReport check_coalescing(const KernelSpec& spec);
// A real kernel of an even NX (RealKernel) checked the same way on the rows a run in that placement gives it, rather
// than its stage layout: real rows of NX reals (NX/2 complex values) out of place, the half spectrum's rows of
// NX/2 + 1 values (in place, the real rows too: padded), a C2R's intermediate in the output's real rows out of place
// with column NX/2 kept apart (not counted, nor are masked columns or a step kernel's side array). An empty report
// (no requests) for a complex kernel or an odd NX, whose real rows count reals.
struct RealRows {
  bool in_place = false;
};
CoalescingReport check_real_row_coalescing(const KernelSpec& spec, const RealRows& rows);
// The element of the launch's rows that a real kernel's stage-layout `offset` reaches for a load or a store; -1
// where it reaches none there (a masked column; column NX/2 kept apart).
std::int64_t real_row_address(const KernelSpec& spec, const RealRows& rows, std::int64_t offset, bool load);
// The first pass's loads, and the last pass's stores in both orders, of one block, as they would be issued with
// KernelSpec::load_in_first_pass / store_in_last_pass set (lowering rule global_passes.cpp asks before it sets them).
CoalescingReport check_first_pass_loads(const KernelSpec& spec, std::int64_t block);
CoalescingReport check_last_pass_stores(const KernelSpec& spec, std::int64_t block);
// Whether those are coalesced, as check_first_pass_loads(spec, block).coalesced() and
// check_last_pass_stores(spec, block).coalesced() say, stopping at the first partial segment (the lowering rule
// needs only the answer, and a mixed tile's first request often has one).
bool first_pass_loads_coalesced(const KernelSpec& spec, std::int64_t block);
bool last_pass_stores_coalesced(const KernelSpec& spec, std::int64_t block);
// Whether the passes' global offsets split as the emitter writes them: a butterfly's first offset plus a constant
// for each input or output k (its offset in block 0, whose origin is zero). For bit fields this holds by
// construction; for other digits it holds when no step of a butterfly carries into another digit of the tile or of
// the maps (natural order, sorted layout), which these check exhaustively along the pass's axis, in every tile
// along it (OffsetCheck::every_tile), or in the tiles_checked_at_each_end first and last ones (end_tiles). Where the
// maps take the axis's positions as they are (store_maps_positions), a tile's origin cancels from the difference
// checked, so the first tile alone answers for every tile.
inline constexpr std::int64_t tiles_checked_at_each_end = 1;
bool first_pass_offsets_add(const KernelSpec& spec, OffsetCheck check = OffsetCheck::every_tile);
bool last_pass_offsets_add(const KernelSpec& spec, OffsetCheck check = OffsetCheck::every_tile);

// In-place safety of a natural-order store across a cluster: the global elements the cluster stores (natural
// order) are exactly those it loads, so with a cluster barrier between loads and stores no block overwrites an
// element another block has yet to load, and each stored 128-byte segment is written whole by the cluster. In the
// exchange form, the gathered (block, element) sources also cover the cluster's tiles exactly once. Checked for the
// first and the last cluster.
struct ClusterStoreReport {
  std::int64_t clusters_checked = 0;
  std::string first_problem;  // empty when closed
  bool closed() const { return first_problem.empty(); }
};
ClusterStoreReport check_cluster_stores(const KernelSpec& spec);

// Writer-order exchange (writer_exchange.cpp). A tile spread over a cluster whose kernel ends with a split stage's
// last pass writing across parts, then a store sweep, lays each part out as its writers run: the word of output k
// of butterfly b_in_part of part p is (p * r / blocks + k') * (part_elements / r) + b_in_part (r the last pass's
// radix, k' output k's index among the r / blocks outputs one butterfly sends to that part), XOR-swizzled so the
// sweep reads distinct banks. A warp's remote stores then fill whole runs of words (natural order would scatter them
// a word at a time over the other blocks' banks), and the sweep reads each element through exchange_word. Applies
// where the part digit lies in the digit of the last pass's output k (so k alone names the receiving part), the
// tile's digits are bit fields (the swizzle is a bit map) and no axis is reversed in the store (natural_source is
// the identity).
struct WriterExchange {
  std::size_t stage = 0;             // the kernel's last stage, split
  std::int64_t step = 1;             // its element step E
  std::int64_t radix = 1;            // its radix R
  std::int64_t last_radix = 1;       // r: the radix of its last pass
  std::int64_t k_run = 1;            // c: consecutive outputs k that go to one part (part_stride / (E * R / r))
  std::int64_t butterfly_part_stride = 1;  // part_butterfly_stride of the last pass
  std::vector<std::pair<int, int>> swizzle;  // (from bit, to bit): word ^= ((word >> from) & 1) << to
};
// @post has a value exactly where the rule above applies.
std::optional<WriterExchange> writer_exchange(const KernelSpec& spec);
// The receiving part of output k (of any butterfly of the last pass): (k / c) % tile_blocks.
std::int64_t writer_exchange_part(const KernelSpec& spec, const WriterExchange& x, std::int64_t k);
// The word in the receiving part that output k of butterfly b_in_part of part `part` fills.
// @post over all parts, butterflies and k of one receiving part: a permutation of [0, part_elements).
std::int64_t writer_exchange_word(const KernelSpec& spec, const WriterExchange& x, std::int64_t part,
                                  std::int64_t b_in_part, std::int64_t k);
// The word of tile element e in its own part after the exchange: writer_exchange_word of the output that lands
// at e (split_output_element).
std::int64_t exchange_word(const KernelSpec& spec, const WriterExchange& x, std::int64_t e);
// The exchange's shared-memory accesses, as words (no layout applies): the last pass's stores of part 0's
// butterflies into each receiving part, and the sweep's reads of part 0.
SharedAccesses writer_exchange_accesses(const KernelSpec& spec, const WriterExchange& x);

// What `fft3d explain` shows: each kernel's spec, its bank-conflict degrees and coalescing, and the natural-order
// strategy (in-tile permutation or the digit-reversal pass and its workspace).
std::string explain(const LoweredPlan& lowered);

}  // namespace fft3d::tile
