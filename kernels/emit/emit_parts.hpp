// The levels of the generator: primitives (radix DFTs), index maps, whole kernels. Each writes into a SourceWriter
// and reads only the KernelSpec.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "lowering/kernel_spec.hpp"
#include "source_writer.hpp"

namespace fft3d::emit {

// Whether v is a power of two: its digits are then printed as shifts and masks, otherwise as `/` and `%` by
// constants (unsigned, which the compiler strength-reduces to multiplications).
inline bool is_power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// "dft_r8": the name of the in-register radix-r DFT (natural order in and out, forward sign).
std::string radix_function_name(std::int64_t radix);
// Straight-line radix-2 DIF network with literal twiddles, then the bit-reversal swap to natural order.
void write_radix_function(SourceWriter& out, std::int64_t radix);

// Device functions of one tile kernel: tile_pos_x/y/z(e), smem(e), reverse_<axis>(f), natural_source(e).
void write_tile_index_maps(SourceWriter& out, const KernelSpec& spec);
// Digit reversal of an axis: reverse_x(f) etc. (used by tile kernels and the reorder pass).
void write_reversal_function(SourceWriter& out, Axis axis, const std::vector<std::int64_t>& radices);
// name(f): fft3d::digit_reversed_position(f, radices) as a device function of long long.
void write_digit_reversal_function(SourceWriter& out, const std::string& name,
                                   const std::vector<std::int64_t>& radices);
// Statements declaring `const long long origin_x, origin_y, origin_z` from blockIdx.x (X tiles first).
void write_block_origin(SourceWriter& out, const KernelSpec& spec);

// Butterfly-loop pieces shared by in-register and split stages (emit_tile_kernel.cpp).
std::string twiddle_table_name(std::int64_t span);  // __device__ table of w_span^t, t < span
// How a block reaches the tile (emit_tile_access.cpp). Loops over this block's elements (`e`) or radix-`radix`
// butterflies (`b`): the whole tile, or the block's part of a distributed tile.
void open_element_loop(SourceWriter& out, const KernelSpec& spec, int unroll);
// The tile's element index of the block's `local`-th element (the part's, in a distributed tile), an expression.
std::string tile_element_of_part_element(const KernelSpec& spec, const std::string& local);
void open_butterfly_loop(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step, std::int64_t radix,
                         bool cross, int unroll);
// The loop over this thread's radix-`radix` butterflies (of the block's part) fully unrolled, `it` <
// held_iterations, so values indexed by `it` stay in registers; declares `b` like open_butterfly_loop.
std::int64_t held_iterations(const KernelSpec& spec, std::int64_t radix);
void open_held_butterfly_loop(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step,
                              std::int64_t radix, bool cross, std::int64_t iterations);
// The tile-wide index of the part's `local`-th such butterfly (tile::part_butterfly), as an expression.
std::string part_butterfly_index(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix, bool cross,
                                 const std::string& local);
// Declares the shared-memory word(s) of tile element `element` (an expression) and returns how to load and store
// them: smem(e) of this block, or, when `cross` (the access may reach another part of a distributed tile), the
// holding block's words through distributed shared memory (32-bit shared::cluster addresses).
struct TileWord {
  std::string name;
  bool cross = false;
  std::string load() const;                              // a float2 expression
  std::string store(const std::string& value) const;     // a statement storing the float2 `value`
};
TileWord declare_tile_word(SourceWriter& out, const KernelSpec& spec, const std::string& element, bool cross,
                           const std::string& name = "a");
// A butterfly's words, for the k loop over its inputs or outputs base + offset_k. With an identity or XOR-swizzled
// layout (every layout but the tesla/fermi paddings), smem, part_local and part_of are linear over XOR, and a
// butterfly's base has zeros in its k field: the word of base + offset_k is the base's word XOR the word of
// offset_k, a constant once k is unrolled (one XOR per k). declare_butterfly_base_word, before the loop,
// declares the base's word `name` where the layout allows (nothing otherwise); declare_butterfly_word, inside it,
// declares the word of base + `offset` from it, or in full (declare_tile_word) where the layout is padded.
void declare_butterfly_base_word(SourceWriter& out, const KernelSpec& spec, bool cross, const std::string& name);
TileWord declare_butterfly_word(SourceWriter& out, const KernelSpec& spec, const std::string& offset, bool cross,
                                const std::string& base_word);
// __syncthreads(), or the cluster barrier (with release/acquire ordering of shared and distributed shared memory).
void write_barrier(SourceWriter& out, bool cluster);
// The cluster barrier in two halves, for work that needs no other block between them: the arrival (with `release`,
// the block's earlier memory operations are seen by every block after its wait; relaxed, it publishes nothing) and
// the wait for every thread of the cluster (acquire). `guard` ("if (...) ") makes the statement conditional.
void write_cluster_arrive(SourceWriter& out, bool release, const std::string& guard = "");
void write_cluster_wait_after_arrive(SourceWriter& out, const std::string& guard = "");
// In-place order of stores that leave a one-block tile (the strided natural-order store across a cluster, under
// kernel_flag_natural_store; a first kernel's sorted stores, under kernel_flag_cluster_ordered_stores): the block
// arrives at the cluster barrier after its last global load and waits on it before its first global store, so no
// block of the cluster stores before every block has loaded. Nothing for other kernels.
void write_arrive_after_loads(SourceWriter& out, const KernelSpec& spec);
void write_wait_before_stores(SourceWriter& out, const KernelSpec& spec);
// "block" (the tile index) and, for a distributed tile, "part" from blockIdx.x.
void write_part_origin(SourceWriter& out, const KernelSpec& spec);
// cluster_address/cluster_load/cluster_store(array, word): a word of another block of the cluster, the rank in the
// word's high 8 bits (the natural-order exchange and distributed tiles use them).
void write_cluster_memory_functions(SourceWriter& out);
// part_of(e), part_local(e) and cluster_word(e) for a distributed tile (nothing otherwise).
void write_cluster_word_function(SourceWriter& out, const KernelSpec& spec);
// exchange_position, writer_word, exchange_rank and exchange_word of a writer-order exchange
// (tile::writer_exchange; nothing for other kernels).
void write_writer_exchange_functions(SourceWriter& out, const KernelSpec& spec);

// A thread-strided loop over `var` < count. unroll: the #pragma unroll count.
void open_strided_loop(SourceWriter& out, const std::string& var, std::int64_t count, int threads, int unroll);
// "const unsigned base = ..." (tile::butterfly_base) for butterfly `b`, then the radix inputs base + k*element_step
// read into `values`[k] (declared by the caller); `cross`: through distributed shared memory.
void write_butterfly_reads(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step, std::int64_t radix,
                           const std::string& values, bool cross);
// "const unsigned base = ..." for butterfly `b`, then its inputs read from global memory into `values`[k]
// (conjugated when the kernel's flags say so): the first pass of a kernel with load_in_first_pass.
void write_butterfly_global_reads(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step,
                                  std::int64_t radix, const std::string& values);
// The last pass's global stores, for the k loop over a butterfly's outputs first | constant_k (disjoint bits).
// declare_first_output_offset, before the loop: g0, the store offset of the first output `first` (in natural order
// of natural_destination(first)) with the block's origins. write_global_store_at, inside it: the float2 `value`,
// scaled and conjugated when the flags say so, stored at g0 plus the offset of `constant` with zero origins. Every
// map on the way (natural order, the sorted layout, the axes' digit fields) permutes bits, so the offsets add over
// disjoint bits, and once k is unrolled the second term is a constant for each value of the flags. Why: recomputed in
// full, the spread second kernels' stores took 22 PTX instructions an output (docs/performance.md, ledger "butterfly
// addressing").
void declare_first_output_offset(SourceWriter& out, const KernelSpec& spec, const std::string& first);
void write_global_store_at(SourceWriter& out, const KernelSpec& spec, const std::string& constant,
                           const std::string& value);
// A butterfly loop over the whole tile that writes in place (an in-register stage, or a split stage's inner pass):
// radix-`radix` DFTs of inputs `element_step` apart; with twiddle_span > 0, output k times
// w_twiddle_span^(j*k), j = `offset_j` (an expression of `base`). Ends with a barrier; a loop whose butterflies
// cross the parts of a distributed tile starts with a cluster barrier too and ends with one.
// load_global: the kernel's first pass, reading its inputs from global memory (KernelSpec::load_in_first_pass);
// store_global: its last pass, writing its outputs to global memory (store_in_last_pass), with no barrier after.
struct InPlaceButterflies {
  std::int64_t radix = 2;
  std::int64_t element_step = 1;
  std::int64_t twiddle_span = 0;  // 0: no twiddle
  std::string offset_j;
  bool cross = false;
  bool load_global = false;
  bool store_global = false;
};
void write_in_place_butterflies(SourceWriter& out, const KernelSpec& spec, const InPlaceButterflies& loop);
// "fft3d_mul(value, twiddle_at(span, exponent mod span))": value times w_span^exponent (emit_twiddles.hpp).
std::string times_twiddle(const std::string& value, std::int64_t span, const std::string& exponent);
// times_twiddle for an exponent known to lie below span: a butterfly's j * k where j < span / radix (stage_offset_j,
// a split pass's q mod its stride) and k < radix. A span other than a power of two takes it unreduced. Why: `% span`
// costs a multiply-high, a shift, a multiply and a subtraction an output there, in kernels bound by issue (a power
// of two's mask is one logic operation).
std::string times_twiddle_below_span(const std::string& value, std::int64_t span, const std::string& exponent);
// "(unsigned)((origin_a + tile_pos_a(base)) & (stride - 1))": a plan stage's offset j of the butterfly at base.
std::string stage_offset_j(const SubComputation& sub);

// A split stage (TileStage::split_radices): its passes as tile::split_passes describes them (emit_split_stage.cpp).
void write_split_stage(SourceWriter& out, const KernelSpec& spec, std::size_t index);
// The frequency map of split stage `index`'s last pass, "split_frequency_<index>(q)".
void write_split_frequency_function(SourceWriter& out, const KernelSpec& spec, std::size_t index);
std::string split_frequency_function_name(std::size_t index);

// A real transform's kernel (KernelSpec::real; emit_real_step.cpp). Its global accesses take the RealRows argument:
// real_load is the float2 at column `x` of row `row` (0 past the Nyquist column), real_store the statement storing
// `value` there (nothing past it). The kernel with the step: its twiddle spans, device functions and side arrays;
// the step itself (and, for R2C, the side stages after it); for C2R the side stages before it; the side array's
// load (C2R) and store (R2C), where `row_of_element` declares `row` for tile element `e` of the access.
bool is_real(const KernelSpec& spec);
// fft3d_real_pair(a, b, w) = (a + conj b) - i w (a - conj b), w = w_NX^k: for R2C, twice the real row's frequency k
// (a, b the packed row's frequencies k and half - k); for C2R, in the conjugated domain where the inverse runs,
// twice the conjugate of the packed row's frequency k (a, b the conjugated frequencies k and half - k).
void write_pair_function(SourceWriter& out);
std::set<std::int64_t> real_twiddle_spans(const KernelSpec& spec);
void write_real_rows_struct(SourceWriter& out, const KernelSpec& spec);
void write_real_functions(SourceWriter& out, const KernelSpec& spec);
void write_side_arrays(SourceWriter& out, const KernelSpec& spec);
std::string real_load(const std::string& x, const std::string& row, const KernelSpec& spec);
std::string real_store(const std::string& x, const std::string& row, const KernelSpec& spec, const std::string& value);
void write_real_step(SourceWriter& out, const KernelSpec& spec);
void write_side_stages_before_step(SourceWriter& out, const KernelSpec& spec);
void write_side_load(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element);
void write_side_store(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element);
// An odd NX's step kernel on paired rows (RealKernel::paired_rows): C2R's load sweep and R2C's store sweep, in place
// of the tile's own (`row_of_element` declares `row`, the paired row, for tile element `e`).
bool pairs_rows(const KernelSpec& spec);
void write_paired_load(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element);
void write_paired_store(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element);

// A batch kernel's arguments after the others (", long long in_volume_stride, long long out_volume_stride": the
// elements of `in`'s and `out`'s type from one volume to the next), and the statements moving its pointers to
// volume blockIdx.y, right after the wait for the previous kernel. Nothing for batch 1 (emit_batch.cpp).
std::string batch_parameters(const KernelSpec& spec);
void write_volume_offsets(SourceWriter& out, const KernelSpec& spec);

void write_tile_kernel(SourceWriter& out, const KernelSpec& spec);
void write_reorder_kernel(SourceWriter& out, const KernelSpec& spec);
void write_real_pass_kernel(SourceWriter& out, const KernelSpec& spec);

// The device helpers of kernels/device/*.cuh, embedded at build time: fp32 kernels take fft3d_complex.cuh,
// fp64 kernels fft3d_complex64.cuh in its place.
const char* device_helpers_source();
const char* device_helpers64_source();

// emit_precision.cpp: the precision of the kernel being emitted on this thread, for the duration of the scope
// (fp32 outside any). The emitters print fp32 text; fp64_kernel_text turns it into the fp64 kernel's (float2,
// make_float2, float -> double2, make_double2, double as whole identifiers; .f32 -> .f64 and the "f" asm operand
// constraints -> "d").
class PrecisionScope {
 public:
  explicit PrecisionScope(Precision precision);
  ~PrecisionScope();
  PrecisionScope(const PrecisionScope&) = delete;
  PrecisionScope& operator=(const PrecisionScope&) = delete;

 private:
  Precision previous_;
};
Precision current_precision();
std::string fp64_kernel_text(const std::string& text);

// A literal of the current precision with enough digits to round-trip it: fp32 "0.707106781f" (9 significant
// digits), fp64 "0.70710678118654757" (17).
std::string literal(double value);
std::string axis_suffix(Axis axis);  // "x", "y", "z"

}  // namespace fft3d::emit
