// Kernel level: one tile kernel. Load the tile (coalesced: element e = thread + i*threads, X fastest), run each
// sub-computation on shared memory (butterfly b = thread + i*threads), store the tile (optionally permuted into
// natural order, conjugated and scaled). With KernelSpec::load_in_first_pass / store_in_last_pass the first pass
// reads global memory itself and the last pass writes it, and the load or store phase is left out.
#include <algorithm>
#include <array>
#include <set>

#include "emit_parts.hpp"
#include "emit_twiddles.hpp"
#include "emit/cuda_source.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// Every load of a thread's share of the tile in flight at once (up to 16): the fused kernels' stage registers
// limit occupancy, so bytes in flight per thread are what keeps the memory system busy.
int element_unroll(const KernelSpec& spec) {
  const std::int64_t per_thread = (spec.tile_elements + spec.threads - 1) / spec.threads;
  return static_cast<int>(std::clamp<std::int64_t>(per_thread, 1, 16));
}

// "(condition ? function(position) : position)".
std::string when(const std::string& condition, const std::string& function, const std::string& position) {
  return "(" + condition + " ? " + function + position + " : " + position + ")";
}

// "((flags & flag) ? function(position) : position)".
std::string when_flag(int flag, const std::string& function, const std::string& position) {
  return when("(flags & " + str(flag) + ")", function, position);
}

// The condition under which the kernel loads its sorted axes in the sorted layout: the layout's flag, except in the
// late form's kernel in place (kernel_flag_natural_loads), which loads natural positions.
std::string sorted_loads_condition(const KernelSpec& spec) {
  if (!tile::sorts_late_in_place(spec)) return "(flags & " + str(kernel_flag_sorted_layout) + ")";
  return "((flags & " + str(kernel_flag_sorted_layout | kernel_flag_natural_loads) +
         ") == " + str(kernel_flag_sorted_layout) + ")";
}

enum class GlobalAccess : std::uint8_t { load, store };

enum class Origins : std::uint8_t { block, zero };

// The global coordinates (x, y, z) of tile element `e` as the kernel loads it (tile::load_offset) or stores it
// (tile::store_offset): a store in natural order moves an axis reversed across the cluster to its frequency's
// position, and in the sorted layout an axis with one to sorted_<axis>(position); a load only the latter, where the
// kernel loads sorted. With Origins::zero, the coordinates the block at the volume's origin would have.
std::array<std::string, 3> global_positions(const KernelSpec& spec, const std::string& e, GlobalAccess access,
                                            Origins origins) {
  std::array<std::string, 3> p;
  const bool store = access == GlobalAccess::store;
  for (const AxisTile& axis : spec.axes) {
    const std::string a = axis_suffix(axis.axis);
    const std::string origin = origins == Origins::block ? "origin_" + a : std::string("0LL");
    std::string& position = p[axis_index(axis.axis)] = "(" + origin + " + tile_pos_" + a + "(" + e + "))";
    if (store && tile::store_maps_positions(spec, axis.axis, true, false))
      position = when_flag(kernel_flag_natural_store, "frequency_" + a, position);
    if (store && !axis.sorted_radices.empty())
      position = when_flag(kernel_flag_sorted_layout, "sorted_" + a, position);
    if (!store && axis.sorted_loads) position = when(sorted_loads_condition(spec), "sorted_" + a, position);
  }
  return p;
}

// y + NY*z of the global positions `p` (global_positions): a real kernel's rows have the launch's pitch.
std::string row_of(const KernelSpec& spec, const std::array<std::string, 3>& p) {
  return p[1] + " + " + str(spec.size.ny) + "LL * " + p[2];
}

// g = x + NX*(y + NY*z) of tile element `e` (global_positions). A real kernel's rows have the launch's pitch: it
// declares g_x = x and g_row = y + NY*z instead. Padded rows (KernelSpec::masks_x) take the volume's row length as
// NX and declare g_x too, for the masks below.
void write_global_offset(SourceWriter& out, const KernelSpec& spec, const std::string& e, GlobalAccess access,
                         const std::string& name = "g", Origins origins = Origins::block) {
  const std::array<std::string, 3> p = global_positions(spec, e, access, origins);
  if (is_real(spec)) {
    out.line("const long long " + name + "_x = " + p[0] + ";");
    out.line("const long long " + name + "_row = " + row_of(spec, p) + ";");
    return;
  }
  if (tile::offsets_are_elements(spec)) {  // tile_base: the tile origin's offset (write_block_origin)
    out.line("const long long " + name + " = " + (origins == Origins::block ? "tile_base + " : "") + "(long long)(" +
             e + ");");
    return;
  }
  std::string x = p[0];
  if (spec.masks_x()) {
    out.line("const long long " + name + "_x = " + p[0] + ";");
    x = name + "_x";
  }
  out.line("const long long " + name + " = " + x + " + " + str(spec.row_pitch()) + "LL * (" + p[1] + " + " +
           str(spec.size.ny) + "LL * " + p[2] + ");");
}

// Padded rows (KernelSpec::masks_x): the value at global offset `name` + `offset` (write_global_offset declared
// `name` and `name`_x), zero where x lies past the volume's rows; and `statement`, a store there, only where it does
// not. A kernel without X stages: a butterfly's inputs and outputs share the x of their first one.
std::string masked_load(const KernelSpec& spec, const std::string& name, const std::string& offset = "") {
  if (!spec.masks_x()) return "in[" + name + offset + "]";
  return "fft3d_masked_load(in, " + name + offset + ", " + name + "_x)";
}
std::string masked_store(const KernelSpec& spec, const std::string& name, const std::string& statement) {
  if (!spec.masks_x()) return statement;
  return "if (" + name + "_x < " + str(spec.volume_nx) + "LL) " + statement;
}

// fft3d_masked_load: a masked position reads its row's last value (a sector the run reads anyway) and returns zero.
// Why an unconditional load: ptxas spilled the loads held in flight when each was predicated on x.
void write_masked_load_function(SourceWriter& out, const KernelSpec& spec) {
  if (!spec.masks_x()) return;
  const std::string nx = str(spec.volume_nx) + "LL", last = str(spec.volume_nx - 1) + "LL";
  out.line("// Padded rows of " + str(spec.size.nx) + " values over the volume's rows of " + str(spec.volume_nx) +
           ": the value at g (position x of its row), zero past the row.");
  out.open("__device__ __forceinline__ float2 fft3d_masked_load(const float2* in, long long g, long long x)");
  out.line("const float2 v = in[x < " + nx + " ? g : g - (x - " + last + ")];");
  out.line("return x < " + nx + " ? v : make_float2(0.f, 0.f);");
  out.close();
}

// The statement declaring a real kernel's `row` of tile element `e` (for the side array's accesses too).
std::string row_declaration(const KernelSpec& spec, const std::string& e, GlobalAccess access) {
  return "const long long row = " + row_of(spec, global_positions(spec, e, access, Origins::block)) + ";";
}

// A real kernel's `x` and `row` of tile element `e`.
void write_row_position(SourceWriter& out, const KernelSpec& spec, const std::string& e, GlobalAccess access) {
  out.line("const long long x = " + global_positions(spec, e, access, Origins::block)[0] + ";");
  out.line(row_declaration(spec, e, access));
}

// Natural order across a cluster, strided form: every block of the cluster has loaded its tile before any block
// stores (in place, the stores land in the cluster's other tiles).
bool strided_cluster_store(const KernelSpec& spec) {
  return spec.tiles_per_cluster() > 1 && !tile::exchanges_across_cluster(spec);
}

// The flag under which a one-block tile's stores wait for the whole cluster's loads: the strided natural-order
// store, or the sorted stores of a first kernel run in place (KernelSpec::sorted_store_cluster). 0: none.
int ordered_stores_flag(const KernelSpec& spec) {
  if (spec.tile_blocks > 1) return 0;  // a distributed tile takes a full cluster barrier (write_cluster_wait)
  if (strided_cluster_store(spec)) return kernel_flag_natural_store;
  if (spec.sorted_store_cluster > 1) return kernel_flag_cluster_ordered_stores;
  return 0;
}

void write_cluster_wait(SourceWriter& out, const KernelSpec& spec) {
  if (spec.tile_blocks > 1 && strided_cluster_store(spec)) write_barrier(out, true);
  if (!spec.store_in_last_pass) write_wait_before_stores(out, spec);
}

// Whether the store reads words of other parts: natural_source permutes an axis held whole by the tile, and that
// axis's field overlaps the part field.
bool store_crosses_parts(const KernelSpec& spec) {
  for (const AxisTile& axis : spec.axes)
    if (!axis.reversal_radices.empty() &&
        tile::crosses_parts(spec, tile::axis_linear_stride(spec, axis.axis), axis.length))
      return true;
  return false;
}

// Values a thread of a staged load sweep holds in flight: 16 registers, within every profile's limit (Fermi's 63
// included). Why 8: at 1024 threads that is 64 KB in flight a multiprocessor, above the ~25 KB that one of 132
// needs to keep 3 TB/s busy at a microsecond's latency.
constexpr std::int64_t staged_load_values = 8;

// The elements one block's sweep walks: its tile, or its part of a spread tile.
std::int64_t sweep_elements(const KernelSpec& spec) {
  return spec.tile_blocks == 1 ? spec.tile_elements : spec.part_elements();
}

// `target` (a declaration or a variable) assigned tile element `e` from global memory.
void write_element_load(SourceWriter& out, const KernelSpec& spec, const std::string& target) {
  if (is_real(spec)) {
    write_row_position(out, spec, "e", GlobalAccess::load);
    out.line(target + " = " + real_load("x", "row", spec) + ";");
  } else {
    write_global_offset(out, spec, "e", GlobalAccess::load);
    out.line(target + " = " + masked_load(spec, "g") + ";");
  }
}

// The loaded value `v` of tile element `e`, conjugated where the run asks, stored to its shared-memory word.
void write_loaded_value_to_tile(SourceWriter& out, const KernelSpec& spec) {
  out.line("if (flags & " + str(kernel_flag_conjugate_load) + ") v.y = -v.y;");
  const TileWord word = declare_tile_word(out, spec, "e", false);
  out.line(word.store("v"));
}

// One of the staged sweep's loops over the thread's elements of chunk `chunk`: `e_in_part` (the block's index)
// guarded by the sweep's count, and `e`, the tile's.
void open_staged_iteration(SourceWriter& out, const KernelSpec& spec, std::int64_t per_chunk, bool chunked) {
  out.line("#pragma unroll");
  out.open("for (unsigned i = 0; i < " + str(per_chunk) + "u; ++i)");
  const std::string iteration = chunked ? "(chunk * " + str(per_chunk) + "u + i)" : "i";
  out.line("const unsigned e_in_part = threadIdx.x + " + iteration + " * " + str(spec.threads) + "u;");
  out.open("if (e_in_part < " + str(sweep_elements(spec)) + "u)");
  out.line("const unsigned e = " + tile_element_of_part_element(spec, "e_in_part") + ";");
}

// Rule: a load sweep of more elements than threads that do not divide evenly among them loads each thread's elements
// (staged_load_values at a time) into registers before it stores any to shared memory. Why: a strided loop of
// uneven trip count compiles to a rolled remainder loop that waits for each load before the next (mixed-size
// tiles, e.g. 14400 elements over 1024 threads), one load in flight per thread.
void write_staged_load(SourceWriter& out, const KernelSpec& spec) {
  const std::int64_t iterations = (sweep_elements(spec) + spec.threads - 1) / spec.threads;
  const std::int64_t per_chunk = std::min(iterations, staged_load_values);
  const std::int64_t chunks = (iterations + per_chunk - 1) / per_chunk;
  const bool chunked = chunks > 1;
  if (chunked) {
    out.line("#pragma unroll 1");
    out.open("for (unsigned chunk = 0; chunk < " + str(chunks) + "u; ++chunk)");
  }
  out.line("float2 staged[" + str(per_chunk) + "];");
  open_staged_iteration(out, spec, per_chunk, chunked);
  write_element_load(out, spec, "staged[i]");
  out.close();
  out.close();
  open_staged_iteration(out, spec, per_chunk, chunked);
  out.line("float2 v = staged[i];");
  write_loaded_value_to_tile(out, spec);
  out.close();
  out.close();
  if (chunked) out.close();
  out.line("__syncthreads();");
}

void write_load(SourceWriter& out, const KernelSpec& spec) {
  if (spec.load_in_first_pass) return;  // the first pass reads global memory itself
  if (sweep_elements(spec) > spec.threads && sweep_elements(spec) % spec.threads != 0) {
    write_staged_load(out, spec);
    return;
  }
  open_element_loop(out, spec, element_unroll(spec));
  write_element_load(out, spec, "float2 v");
  write_loaded_value_to_tile(out, spec);
  out.close();
  out.line("__syncthreads();");
}

void write_stage(SourceWriter& out, const KernelSpec& spec, std::size_t index) {
  const TileStage& stage = spec.stages[index];
  const SubComputation& sub = stage.sub;
  out.line("// stage " + str(static_cast<std::int64_t>(index)) + ": " + to_string(sub));
  const std::int64_t twiddle_span = sub.twiddle ? sub.span : 0;
  InPlaceButterflies loop{sub.radix, stage.element_step, twiddle_span, stage_offset_j(sub),
                          tile::stage_crosses_parts(spec, stage)};
  loop.load_global = index == 0 && spec.load_in_first_pass;
  loop.store_global = index + 1 == spec.stages.size() && spec.store_in_last_pass;
  write_in_place_butterflies(out, spec, loop);
}

// Every span whose twiddle table the kernel reads: twiddled plan stages, and the passes of split stages.
std::set<std::int64_t> twiddle_spans(const KernelSpec& spec) {
  std::set<std::int64_t> spans = real_twiddle_spans(spec);
  for (const TileStage& stage : spec.stages) {
    if (stage.sub.twiddle) spans.insert(stage.sub.span);
    if (!stage.is_split()) continue;
    for (const tile::SplitPass& pass : tile::split_passes(stage))
      if (!pass.last) spans.insert(pass.local_span);
  }
  return spans;
}

std::set<std::int64_t> dft_radices(const KernelSpec& spec) {
  std::set<std::int64_t> radices;
  for (const TileStage& stage : spec.stages) {
    if (!stage.is_split()) radices.insert(stage.sub.radix);
    for (std::int64_t radix : stage.split_radices) radices.insert(radix);
  }
  return radices;
}

void write_store(SourceWriter& out, const KernelSpec& spec) {
  if (spec.store_in_last_pass) return;  // the last pass wrote global memory itself
  const bool cross = store_crosses_parts(spec);
  if (cross) write_barrier(out, true);
  open_element_loop(out, spec, element_unroll(spec));
  // After a writer-order exchange the part's words are in its writers' order (no axis is reversed there).
  const bool exchanged = tile::writer_exchange(spec).has_value();
  if (exchanged) out.line("const unsigned a = exchange_word(e);");
  // A transposed store's slot e takes the tile element transposed_store_element gives in natural order.
  const std::string natural = "(flags & " + str(kernel_flag_natural_store) + ")";
  std::string stored = "e";
  if (spec.transposed_store_run > 0) {
    const std::int64_t run = spec.transposed_store_run, group = spec.tile_elements / run;
    out.line("const long long et = " + natural + " ? (e % " + str(run) + ") * " + str(group) + "LL + e / " +
             str(run) + " : e;");
    stored = "et";
  }
  const std::string element = natural + " ? natural_source(" + stored + ") : " + stored;
  const TileWord word = exchanged ? TileWord{"a", false} : declare_tile_word(out, spec, element, cross);
  out.line("float2 v = " + word.load() + ";");
  out.line("v.x *= scale; v.y *= scale;");
  out.line("if (flags & " + str(kernel_flag_conjugate_store) + ") v.y = -v.y;");
  if (is_real(spec)) {
    write_row_position(out, spec, "e", GlobalAccess::store);
    out.line(real_store("x", "row", spec, "v"));
  } else {
    write_global_offset(out, spec, stored, GlobalAccess::store);
    out.line(masked_store(spec, "g", "out[g] = v;"));
  }
  out.close();
  if (cross) write_barrier(out, true);  // no block leaves while another still reads its shared memory
}

// Natural order across the cluster, exchange form (tile::exchange_source): once every block of the cluster has
// computed its tile, each stores the elements it loaded (whole 128-byte segments), reading every value from the
// shared memory of the block that holds it; the second barrier keeps each block's shared memory alive until the
// cluster has read it.
void write_exchange_store(SourceWriter& out, const KernelSpec& spec) {
  write_barrier(out, true);
  open_element_loop(out, spec, element_unroll(spec));
  out.line("const long long held = held_at_x(origin_x + tile_pos_x(e));");
  const std::int64_t ex = spec.axes[0].extent();
  const std::string source = is_power_of_two(ex)
                                 ? "natural_source((e & ~" + str(ex - 1) + "u) | local_of_x(held))"
                                 : "natural_source(e - e % " + str(ex) + "u + local_of_x(held))";
  if (spec.tile_blocks == 1) {
    out.line("const unsigned a = smem(" + source + ");");
    out.line("const unsigned rank = tile_of_x(held);");
  } else {  // the cluster's blocks: the tiles of the row, each spread over tile_blocks parts
    out.line("const unsigned source = " + source + ";");
    out.line("const unsigned a = smem(part_local(source));");
    out.line("const unsigned rank = tile_of_x(held) * " + str(spec.tile_blocks) + "u + part_of(source);");
  }
  out.line("const unsigned word = (rank << 24) | a;");
  out.line("float2 v = make_float2(cluster_load(re, word) * scale, cluster_load(im, word) * scale);");
  out.line("if (flags & " + str(kernel_flag_conjugate_store) + ") v.y = -v.y;");
  write_global_offset(out, spec, "e", GlobalAccess::store);
  out.line(masked_store(spec, "g", "out[g] = v;"));
  out.close();
  write_barrier(out, true);
}

}  // namespace

void write_arrive_after_loads(SourceWriter& out, const KernelSpec& spec) {
  if (const int flag = ordered_stores_flag(spec))
    write_cluster_arrive(out, true, "if (flags & " + str(flag) + ") ");
}

void write_wait_before_stores(SourceWriter& out, const KernelSpec& spec) {
  if (const int flag = ordered_stores_flag(spec))
    write_cluster_wait_after_arrive(out, "if (flags & " + str(flag) + ") ");
}

// Element loops unroll so several global loads are in flight; butterfly loops do not (each iteration already holds
// 2*radix live registers).
void open_strided_loop(SourceWriter& out, const std::string& var, std::int64_t count, int threads, int unroll) {
  out.line("#pragma unroll " + str(unroll));
  out.open("for (unsigned " + var + " = threadIdx.x; " + var + " < " + str(count) + "u; " + var + " += " +
           str(threads) + "u)");
}

namespace {

// tile::butterfly_base of butterfly `b`.
void write_butterfly_base(SourceWriter& out, std::int64_t element_step, std::int64_t radix) {
  if (!is_power_of_two(element_step) || !is_power_of_two(radix)) {
    out.line("const unsigned base = b % " + str(element_step) + "u + b / " + str(element_step) + "u * " +
             str(element_step * radix) + "u;");
    return;
  }
  const int low_bits = tile::log2_exact(element_step);
  const int field_bits = tile::log2_exact(radix);
  out.line("const unsigned base = (b & " + str(element_step - 1) + "u) | ((b >> " + str(low_bits) + ") << " +
           str(low_bits + field_bits) + ");");
}

// A first pass reading global memory issues every load of the thread before its first DFT when they fit in a
// quarter of the registers a thread has (65536 per SM over the block: 16 values for 1024 threads, which the
// radix-16 passes of such blocks hold already; 32 for 512).
std::int64_t max_values_in_flight(const KernelSpec& spec) {
  return std::min<std::int64_t>(32, 16384 / spec.threads);
}

}  // namespace

void write_butterfly_reads(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step, std::int64_t radix,
                           const std::string& values, bool cross) {
  write_butterfly_base(out, element_step, radix);
  declare_butterfly_base_word(out, spec, cross, "in_word0");
  out.line("#pragma unroll");
  out.open("for (int k = 0; k < " + str(radix) + "; ++k)");
  const TileWord word = declare_butterfly_word(out, spec, "k * " + str(element_step) + "u", cross, "in_word0");
  out.line(values + "[k] = " + word.load() + ";");
  out.close();
}

// The inputs' global offsets are the butterfly's first one plus tile_offset(k * element_step), a constant once k is
// unrolled: `base` has zeros in the k field, and a tile element's offset adds over disjoint bit fields.
void write_butterfly_global_reads(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step,
                                  std::int64_t radix, const std::string& values) {
  write_butterfly_base(out, element_step, radix);
  write_global_offset(out, spec, "base", GlobalAccess::load);
  const std::string step = "(k * " + str(element_step) + "u)";
  const auto sorted_or_not = [&spec, &step](const std::string& offset) {
    if (!tile::loads_sorted(spec)) return offset + step;
    return "(" + sorted_loads_condition(spec) + " ? " + offset + "_sorted" + step + " : " + offset + step + ")";
  };
  const std::string offset = sorted_or_not("tile_offset");
  out.line("#pragma unroll");
  out.open("for (int k = 0; k < " + str(radix) + "; ++k)");
  if (is_real(spec)) {  // the real rows: X and row offsets apart (both add over disjoint bits)
    const std::string row_offset = sorted_or_not("tile_row_offset");
    out.line("float2 input = " + real_load("(g_x + tile_pos_x" + step + ")", "(g_row + " + row_offset + ")", spec) + ";");
  } else {
    out.line("float2 input = " + masked_load(spec, "g", " + " + offset) + ";");
  }
  out.line("if (flags & " + str(kernel_flag_conjugate_load) + ") input.y = -input.y;");
  out.line(values + "[k] = input;");
  out.close();
}

void declare_first_output_offset(SourceWriter& out, const KernelSpec& spec, const std::string& first) {
  out.line("const unsigned p0 = " + first + ";");
  out.line("const unsigned d0 = (flags & " + str(kernel_flag_natural_store) + ") ? natural_destination(p0) : p0;");
  write_global_offset(out, spec, "d0", GlobalAccess::store, "g0");
}

void write_global_store_at(SourceWriter& out, const KernelSpec& spec, const std::string& constant,
                           const std::string& value) {
  out.line("const unsigned pk = " + constant + ";");
  out.line("const unsigned dk = (flags & " + str(kernel_flag_natural_store) + ") ? natural_destination(pk) : pk;");
  write_global_offset(out, spec, "dk", GlobalAccess::store, "gk", Origins::zero);
  out.line("float2 w = " + value + ";");
  out.line("w.x *= scale; w.y *= scale;");
  out.line("if (flags & " + str(kernel_flag_conjugate_store) + ") w.y = -w.y;");
  if (is_real(spec))
    out.line(real_store("(g0_x + gk_x)", "(g0_row + gk_row)", spec, "w"));
  else
    out.line(masked_store(spec, "g0", "out[g0 + gk] = w;"));
}

void write_in_place_butterflies(SourceWriter& out, const KernelSpec& spec, const InPlaceButterflies& loop) {
  const std::string radix = str(loop.radix);
  const std::int64_t iterations = held_iterations(spec, loop.radix);
  const bool loads_held = loop.load_global && iterations * loop.radix <= max_values_in_flight(spec);
  // A crossing first pass that loads global memory stores into the other blocks' shared memory, which exist once
  // every block of the cluster has started: it arrives before its loads and waits after them, so the loads are in
  // flight while the cluster gathers (the spread second kernels ran 2.5-6.5% faster; docs/performance.md, ledger
  // "cluster barriers").
  const bool split_start = loop.cross && loads_held;
  if (split_start)
    write_cluster_arrive(out, false);
  else if (loop.cross)
    write_barrier(out, true);  // every part's previous pass is done
  if (loop.store_global) write_wait_before_stores(out, spec);
  if (loads_held) {
    out.line("float2 loaded[" + str(iterations) + "][" + radix + "];  // every load in flight before the first DFT");
    open_held_butterfly_loop(out, spec, loop.element_step, loop.radix, loop.cross, iterations);
    write_butterfly_global_reads(out, spec, loop.element_step, loop.radix, "loaded[it]");
    out.close();
    if (split_start) write_cluster_wait_after_arrive(out);
    open_held_butterfly_loop(out, spec, loop.element_step, loop.radix, loop.cross, iterations);
    write_butterfly_base(out, loop.element_step, loop.radix);
    out.line("float2 (&v)[" + radix + "] = loaded[it];");
  } else {
    open_butterfly_loop(out, spec, loop.element_step, loop.radix, loop.cross, 1);
    out.line("float2 v[" + radix + "];");
    if (loop.load_global)
      write_butterfly_global_reads(out, spec, loop.element_step, loop.radix, "v");
    else
      write_butterfly_reads(out, spec, loop.element_step, loop.radix, "v", loop.cross);
  }
  out.line(radix_function_name(loop.radix) + "(v);");
  if (loop.store_global)
    declare_first_output_offset(out, spec, "base");
  else
    declare_butterfly_base_word(out, spec, loop.cross, "out_word0");
  // Twiddles are applied as each output is written back, so each value's live range ends at its store.
  if (loop.twiddle_span > 0) out.line("const unsigned j = " + loop.offset_j + ";");
  out.line("#pragma unroll");
  out.open("for (int k = 0; k < " + str(loop.radix) + "; ++k)");
  const std::string offset = "k * " + str(loop.element_step) + "u";
  const std::string value =
      loop.twiddle_span > 0 ? "k == 0 ? v[0] : " + times_twiddle_below_span("v[k]", loop.twiddle_span, "j * k")
                             : "v[k]";
  if (loop.store_global) {
    write_global_store_at(out, spec, offset, "(" + value + ")");
  } else {
    const TileWord word = declare_butterfly_word(out, spec, offset, loop.cross, "out_word0");
    out.line("const float2 w = " + value + ";");
    out.line(word.store("w"));
  }
  out.close();
  out.close();
  if (!loop.store_global) write_barrier(out, loop.cross);
  if (loop.load_global) write_arrive_after_loads(out, spec);  // the block's last global load is behind it
}

std::string times_twiddle(const std::string& value, std::int64_t span, const std::string& exponent) {
  const std::string reduced = is_power_of_two(span) ? "(" + exponent + ") & " + str(span - 1) + "u"
                                                    : "(" + exponent + ") % " + str(span) + "u";
  return "fft3d_mul(" + value + ", " + twiddle_at(span, reduced) + ")";
}

std::string times_twiddle_below_span(const std::string& value, std::int64_t span, const std::string& exponent) {
  if (is_power_of_two(span)) return times_twiddle(value, span, exponent);
  return "fft3d_mul(" + value + ", " + twiddle_at(span, exponent) + ")";
}

std::string stage_offset_j(const SubComputation& sub) {
  const std::string axis = axis_suffix(sub.axis);
  if (!is_power_of_two(sub.stride))
    return "(unsigned)((origin_" + axis + " + tile_pos_" + axis + "(base)) % " + str(sub.stride) + "LL)";
  return "(unsigned)((origin_" + axis + " + tile_pos_" + axis + "(base)) & " + str(sub.stride - 1) + "LL)";
}

void write_tile_kernel(SourceWriter& out, const KernelSpec& spec) {
  for (std::int64_t radix : dft_radices(spec)) write_radix_function(out, radix);
  for (std::int64_t span : twiddle_spans(spec)) write_twiddles(out, span);
  write_tile_index_maps(out, spec);
  if (is_real(spec)) write_real_rows_struct(out, spec);
  write_real_functions(out, spec);
  write_masked_load_function(out, spec);
  for (std::size_t s = 0; s < spec.stages.size(); ++s)
    if (spec.stages[s].is_split()) write_split_frequency_function(out, spec, s);
  out.blank();
  if (spec.tiles_per_cluster() > 1)
    out.line("// in may equal out: each cluster of " + str(spec.tiles_per_cluster()) +
             " tiles reads them before any of it writes, and clusters are disjoint.");
  else
    out.line("// in may equal out: each block reads its whole tile (or its part of a spread tile) before it writes "
             "it, and tiles are disjoint.");
  const std::string min_blocks =
      spec.blocks_per_multiprocessor > 1 ? ", " + str(spec.blocks_per_multiprocessor) : std::string();
  out.open("extern \"C\" __global__ void __launch_bounds__(" + str(spec.threads) + min_blocks + ") " +
           spec.entry_name() + "(const float2* in, float2* out, float scale, int flags" +
           (is_real(spec) ? ", RealRows rows" : "") + batch_parameters(spec) + ")");
  out.line("extern __shared__ float fft3d_shared[];");
  out.line("float* const re = fft3d_shared;");
  out.line("float* const im = fft3d_shared + " + str(spec.shared.words) + ";");
  write_side_arrays(out, spec);
  out.line("fft3d_wait_for_previous_kernel();");
  write_volume_offsets(out, spec);
  write_block_origin(out, spec);
  write_side_load(out, spec, row_declaration(spec, "e", GlobalAccess::load));
  if (pairs_rows(spec) && spec.real.kind == TransformKind::c2r)
    write_paired_load(out, spec, row_declaration(spec, "e", GlobalAccess::load));
  else
    write_load(out, spec);
  if (!spec.load_in_first_pass) write_arrive_after_loads(out, spec);
  for (std::size_t s = 0; s < spec.stages.size(); ++s) {
    if (static_cast<int>(s) == spec.real.step_stage) {
      write_side_stages_before_step(out, spec);
      write_real_step(out, spec);
    }
    if (spec.stages[s].is_split())
      write_split_stage(out, spec, s);
    else
      write_stage(out, spec, s);
  }
  if (spec.real.step_stage == static_cast<int>(spec.stages.size())) {
    write_side_stages_before_step(out, spec);
    write_real_step(out, spec);
  }
  write_cluster_wait(out, spec);
  if (tile::exchanges_across_cluster(spec)) {
    out.open("if (flags & " + str(kernel_flag_natural_store) + ")");
    write_exchange_store(out, spec);
    out.close();
    out.open("else");
    write_store(out, spec);
    out.close();
  } else if (pairs_rows(spec) && spec.real.kind == TransformKind::r2c) {
    write_paired_store(out, spec, row_declaration(spec, "e", GlobalAccess::store));
  } else {
    write_store(out, spec);
  }
  write_side_store(out, spec, row_declaration(spec, "e", GlobalAccess::store));
  out.close();
}

}  // namespace fft3d::emit
