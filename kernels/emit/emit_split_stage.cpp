// Stage level: a radix over the in-register limit, as the DIF passes of tile::split_passes. Every pass is a
// thread-strided butterfly loop like an in-register stage; a pass other than the last twiddles by its position in
// the group and writes in place; the last reads all of a thread's butterflies, waits for every thread (its writes
// permute each group into natural order, over elements other threads are still reading), then writes each output
// to its natural place times the plan stage's twiddle.
#include <algorithm>

#include "emit_parts.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// `first`: the kernel's first pass (it loads from global memory when the spec says so).
void write_inner_pass(SourceWriter& out, const KernelSpec& spec, const TileStage& stage, const tile::SplitPass& pass,
                      bool first) {
  out.line("// radix " + str(pass.radix) + " at group stride " + str(pass.local_stride) + ", twiddle w_" +
           str(pass.local_span) + "^((q mod " + str(pass.local_stride) + ") * m)");
  const std::string q_mod_stride =
      is_power_of_two(stage.element_step) && is_power_of_two(pass.local_stride)
          ? "(base >> " + str(tile::log2_exact(stage.element_step)) + ") & " + str(pass.local_stride - 1) + "u"
          : "base / " + str(stage.element_step) + "u % " + str(pass.local_stride) + "u";
  InPlaceButterflies loop{pass.radix, pass.element_step, pass.local_span, q_mod_stride,
                          tile::pass_crosses_parts(spec, stage, pass)};
  loop.load_global = first && spec.load_in_first_pass;
  write_in_place_butterflies(out, spec, loop);
}

// Whether a pass before the last pass of split stage `index` crosses the parts of a spread tile. Every such pass ends
// with a cluster barrier (write_in_place_butterflies), and every global load of the kernel comes before it: the load
// phase, or the kernel's first pass.
bool earlier_pass_crosses_parts(const KernelSpec& spec, std::size_t index) {
  std::size_t through = 0;  // the kernel's butterfly passes up to that last pass (butterfly_pass_list's order)
  for (std::size_t s = 0; s <= index; ++s)
    through += spec.stages[s].is_split() ? spec.stages[s].split_radices.size() : 1;
  const std::vector<tile::ButterflyPass> passes = tile::butterfly_pass_list(spec);
  return std::any_of(passes.begin(), passes.begin() + static_cast<std::ptrdiff_t>(through - 1),
                     [](const tile::ButterflyPass& pass) { return pass.cross; });
}

// The last pass's butterfly base, its group index q and the product of a group index with the stage's element
// step E (tile::group_index, tile::butterfly_base): shifts and masks where E and the radix are powers of two.
struct GroupDigits {
  std::string base, q;
  bool bits = true;
  std::int64_t step = 1;
  std::string times_step(const std::string& index) const {
    if (bits) return "(" + index + " << " + std::to_string(tile::log2_exact(step)) + ")";
    return index + " * " + std::to_string(step) + "u";
  }
};
GroupDigits group_digits(const TileStage& stage, const tile::SplitPass& pass) {
  GroupDigits digits;
  digits.step = stage.element_step;
  digits.bits = is_power_of_two(stage.element_step) && is_power_of_two(stage.sub.radix);
  if (digits.bits) {
    const int group_shift = tile::log2_exact(stage.element_step);
    digits.base = "(b & " + str(pass.element_step - 1) + "u) | ((b >> " + str(group_shift) + ") << " +
                  str(group_shift + tile::log2_exact(pass.radix)) + ")";
    digits.q = "(base >> " + str(group_shift) + ") & " + str(stage.sub.radix - 1) + "u";
    return digits;
  }
  digits.base = "b % " + str(pass.element_step) + "u + b / " + str(pass.element_step) + "u * " +
                str(pass.element_step * pass.radix) + "u";
  digits.q = "base / " + str(stage.element_step) + "u % " + str(stage.sub.radix) + "u";
  return digits;
}

// The last pass reads across parts only when its butterflies cross them (each block then reads through distributed
// shared memory after a cluster barrier); otherwise each block takes the butterflies of its own part (as an inner
// pass does) and reads them locally after the previous pass's barrier. Its writes cross parts when its reads do or
// when its group (the whole split stage's radix) does: the natural-order writes permute the group. The kernel's
// last pass with store_in_last_pass writes global memory instead, with no barrier after (no thread reads the tile
// again) and none before unless the tile is spread over a cluster (see below for when even that one is left out).
void write_last_pass(SourceWriter& out, const KernelSpec& spec, std::size_t index, const tile::SplitPass& pass) {
  const TileStage& stage = spec.stages[index];
  const bool reads_cross = tile::crosses_parts(spec, pass.element_step, pass.radix);
  const bool cross = tile::pass_crosses_parts(spec, stage, pass);
  const bool store_global = index + 1 == spec.stages.size() && spec.store_in_last_pass;
  const std::int64_t iterations = held_iterations(spec, pass.radix);
  const std::string held = "held_" + str(static_cast<std::int64_t>(index));
  out.line("// radix " + str(pass.radix) + " at group stride 1, outputs to natural order in the group");
  if (reads_cross) write_barrier(out, true);
  out.line("float2 " + held + "[" + str(iterations) + "][" + str(pass.radix) + "];");
  open_held_butterfly_loop(out, spec, pass.element_step, pass.radix, reads_cross, iterations);
  write_butterfly_reads(out, spec, pass.element_step, pass.radix, held + "[it]", reads_cross);
  out.line(radix_function_name(pass.radix) + "(" + held + "[it]);");
  out.close();
  // Stores to global memory need no barrier, except after reads of other parts (no block leaves while another still
  // reads its shared memory), or in a tile spread over a cluster: every block's loads (of its own part) come before
  // any block's stores (to the whole tile's positions), in place. After a crossing pass, its cluster barrier has
  // ordered them already, and blocks of up to 256 threads go on without another. Why: their kernels ran 0-3.6%
  // faster without it, a 512-thread block's 3% slower (its stores then queue with other blocks' loads), so larger
  // blocks keep it (docs/performance.md, ledger "cluster barriers").
  // Writes to shared memory that stay in the block's part need only the block's barrier: the loads' order matters
  // to global stores alone, and the kernel's last pass decides it.
  const bool loads_ordered =
      spec.tile_blocks == 1 || (spec.threads <= 256 && earlier_pass_crosses_parts(spec, index));
  const bool cluster_barrier = cross || (store_global && !loads_ordered);
  if (!store_global || cluster_barrier) write_barrier(out, cluster_barrier);
  if (store_global) write_wait_before_stores(out, spec);
  open_held_butterfly_loop(out, spec, pass.element_step, pass.radix, reads_cross, iterations);
  const GroupDigits digits = group_digits(stage, pass);
  // The writer-order exchange (tile::writer_exchange, the kernel's last stage only) names the receiving word by the
  // writer, not by f: f only twiddles there.
  const std::optional<tile::WriterExchange> exchange = store_global ? std::nullopt : tile::writer_exchange(spec);
  const bool exchanged = exchange && exchange->stage == index;
  if (!exchanged || stage.sub.twiddle) {
    out.line("const unsigned base = " + digits.base + ";");
    out.line("const unsigned q = " + digits.q + ";");
    if (!exchanged) out.line("const unsigned group_base = base - " + digits.times_step("q") + ";");
    out.line("const unsigned f0 = (unsigned)" + split_frequency_function_name(index) + "(q);");
  }
  if (store_global) declare_first_output_offset(out, spec, "group_base + " + digits.times_step("f0"));
  if (stage.sub.twiddle) out.line("const unsigned j = " + stage_offset_j(stage.sub) + ";");
  out.line("#pragma unroll");
  out.open("for (int k = 0; k < " + str(pass.radix) + "; ++k)");
  if (!exchanged || stage.sub.twiddle)
    out.line("const unsigned f = f0 + k * " + str(stage.sub.radix / pass.radix) + "u;");
  const std::string value = held + "[it][k]";
  // j < stride and f < sub.radix: j * f < span
  const std::string twiddled = stage.sub.twiddle ? times_twiddle_below_span(value, stage.sub.span, "j * f") : value;
  if (store_global) {
    // output k's element is the first's plus (k * sub.radix / radix) << group_shift, in bits f0 << group_shift
    // leaves zero (f0 < sub.radix / radix)
    const std::string k_step = "(k * " + str(stage.sub.radix / pass.radix) + "u)";
    write_global_store_at(out, spec,
                          digits.bits ? k_step + " << " + str(tile::log2_exact(stage.element_step))
                                      : digits.times_step(k_step),
                          twiddled);
  } else if (exchanged) {
    out.line("const unsigned a = (exchange_rank(k) << 24) | writer_word(part, b_in_part, k);");
    out.line("const float2 w = " + twiddled + ";");
    out.line(TileWord{"a", true}.store("w"));
  } else {
    const TileWord word = declare_tile_word(out, spec, "group_base + " + digits.times_step("f"), cross);
    out.line("const float2 w = " + twiddled + ";");
    out.line(word.store("w"));
  }
  out.close();
  out.close();
  if (!store_global) write_barrier(out, cross);
}

}  // namespace

std::string split_frequency_function_name(std::size_t index) {
  return "split_frequency_" + std::to_string(index);
}

// frequency_at_position(p, radices) is digit_reversed_position(p, radices reversed) (index_maps.hpp: the position's
// digits, most significant first, are the frequency's, least significant first).
void write_split_frequency_function(SourceWriter& out, const KernelSpec& spec, std::size_t index) {
  std::vector<std::int64_t> reversed = spec.stages[index].split_radices;
  std::reverse(reversed.begin(), reversed.end());
  out.line("// Natural group index of group position q after the passes of split stage " + std::to_string(index) + ".");
  write_digit_reversal_function(out, split_frequency_function_name(index), reversed);
}

void write_split_stage(SourceWriter& out, const KernelSpec& spec, std::size_t index) {
  const TileStage& stage = spec.stages[index];
  std::string radices;
  for (std::int64_t r : stage.split_radices) radices += (radices.empty() ? "" : " x ") + str(r);
  out.line("// stage " + str(static_cast<std::int64_t>(index)) + ": " + to_string(stage.sub) + ", split " + radices);
  const std::vector<tile::SplitPass> passes = tile::split_passes(stage);
  for (std::size_t p = 0; p < passes.size(); ++p) {
    if (passes[p].last)
      write_last_pass(out, spec, index, passes[p]);
    else
      write_inner_pass(out, spec, stage, passes[p], index == 0 && p == 0);
  }
}

}  // namespace fft3d::emit
