// The canonical text of a KernelSpec (explain, cache keys, generated-source headers) and its stable hash.
#include <bit>
#include <iomanip>
#include <sstream>

#include "lowering/kernel_spec.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d {
namespace {

// Why narrow_x_runs narrowed the X runs (XRunNarrowing), as `explain` prints it.
std::string narrowing_text(XRunNarrowing reason) {
  switch (reason) {
    case XRunNarrowing::fits_one_block: return "the narrowed tile fits one block";
    case XRunNarrowing::fills_a_cluster: return "a tile filling its cluster spreads over fewer or smaller parts";
    case XRunNarrowing::fits_a_cluster: return "the line's tile fits a cluster only narrowed";
    case XRunNarrowing::spares_a_tail: return "two narrowed tiles a multiprocessor spare a near-empty last wave";
    case XRunNarrowing::none: break;
  }
  return "narrowed";
}

std::string modes_text(const std::vector<TileMode>& modes) {
  std::string text = "(";
  for (std::size_t i = 0; i < modes.size(); ++i) text += (i ? ", " : "") + to_string(modes[i]);
  return text + ")";
}

// How the part of a spread tile reads its elements: "element bits from S" where the part digit is a bit field,
// else "element digit (e / stride) % blocks".
std::string part_field_text(const KernelSpec& spec) {
  const std::uint64_t stride = static_cast<std::uint64_t>(spec.part_stride);
  if (std::has_single_bit(stride) && std::has_single_bit(static_cast<std::uint64_t>(spec.tile_blocks)))
    return "element bits from " + std::to_string(spec.part_shift());
  return "element digit (e / " + std::to_string(spec.part_stride) + ") % " + std::to_string(spec.tile_blocks);
}

std::string radices_text(const std::vector<std::int64_t>& radices) {
  std::string text = "[";
  for (std::size_t i = 0; i < radices.size(); ++i) text += (i ? "," : "") + std::to_string(radices[i]);
  return text + "]";
}

const char* role_text(KernelRole role) {
  return role == KernelRole::tile ? "tile" : role == KernelRole::digit_reversal ? "digit-reversal" : "real pass";
}

void write_axes(std::ostringstream& text, const KernelSpec& spec) {
  for (const AxisTile& axis : spec.axes) {
    text << "axis " << axis_letter(axis.axis) << ": length " << axis.length << ", tile " << modes_text(axis.tile)
         << " = " << axis.extent() << ", grid " << modes_text(axis.grid) << " = " << axis.tiles();
    if (!axis.reversal_radices.empty())
      text << ", natural order inside the tile (radices " << radices_text(axis.reversal_radices) << ")";
    if (!axis.cluster_reversal_radices.empty())
      text << ", natural order across the cluster (radices " << radices_text(axis.cluster_reversal_radices) << ")";
    if (!axis.workspace_reversal_radices.empty())
      text << ", natural order out of the workspace (radices " << radices_text(axis.workspace_reversal_radices)
           << "), stored in runs of " << spec.transposed_store_run << " frequencies";
    if (!axis.sorted_radices.empty())
      text << ", sorted layout (radices " << radices_text(axis.sorted_radices) << "; "
           << (axis.sorted_loads ? "loads and stores" : "stores") << ")";
    text << "\n";
  }
  for (std::size_t s = 0; s < spec.stages.size(); ++s) {
    const TileStage& stage = spec.stages[s];
    text << "stage " << s << ": " << to_string(stage.sub) << ", element step " << stage.element_step;
    if (stage.is_split())
      text << ", split " << radices_text(stage.split_radices)
           << " across threads (DIF passes in each group, the last writes natural order)";
    text << "\n";
  }
}

// An odd NX's real kernel (RealKernel::odd): whole rows of NX complex values in the step's kernel, the half
// spectrum's columns elsewhere.
void write_odd_real(std::ostringstream& text, const KernelSpec& spec) {
  const RealKernel& real = spec.real;
  const bool r2c = real.kind == TransformKind::r2c;
  const std::int64_t nx = 2 * real.half + 1;
  text << "real transform " << (r2c ? "R2C" : "C2R") << ", NX = " << nx << " odd: half spectrum rows of "
       << real.half + 1 << " complex values, row pitches in reals (row r at value (pitch * r + 1) / 2)\n";
  if (!real.has_step()) {
    text << "columns 0.." << real.half << " in tiles of " << spec.size.nx << " padded columns, those past "
         << real.half << " masked\n";
  } else if (r2c) {
    text << "step kernel: each real loaded as (x, 0) into rows of " << nx << " values; columns 0.." << real.half
         << " stored, the others dropped\n";
  } else {
    text << "step kernel: columns 0.." << real.half << " loaded, column " << nx << "-k set to the conjugate of k"
         << " before stage " << real.step_stage << "; real parts stored as reals\n";
  }
}

// The real transform's part of a kernel: where the step runs, how the rows meet global memory, and how the Nyquist
// column rides along.
void write_real(std::ostringstream& text, const KernelSpec& spec) {
  const RealKernel& real = spec.real;
  if (real.kind == TransformKind::c2c) return;
  if (real.odd) return write_odd_real(text, spec);
  const bool r2c = real.kind == TransformKind::r2c;
  const std::int64_t nx = 2 * real.half;
  text << "real transform " << (r2c ? "R2C" : "C2R") << ": rows of " << nx << " reals = " << real.half
       << " complex values; half spectrum rows of " << real.half + 1 << " (pitch " << (real.half + 1) * spec.complex_bytes()
       << " B: rows start " << spec.real_bytes() * 2 << "-byte aligned, so an X run of 128 bytes spans two segments unless the row does)\n";
  if (real.has_step()) {
    text << "real step before stage " << real.step_stage << ": "
         << (r2c ? "the row's frequencies 0.." + std::to_string(real.half) + " from its " + std::to_string(real.half) +
                       " packed ones (pairs k, " + std::to_string(real.half) + "-k)"
                 : std::to_string(real.half) + " packed values from frequencies 0.." + std::to_string(real.half) +
                       " (pairs k, " + std::to_string(real.half) + "-k; imaginary parts of 0 and " +
                       std::to_string(real.half) + " ignored)")
         << "; column " << real.half << " in a side array of " << spec.side_elements()
         << " values that the Y and Z stages also transform\n";
  } else if (real.padded_columns) {
    text << "columns 0.." << real.half << " in tiles of " << spec.size.nx << " padded columns, those past "
         << real.half << " masked\n";
  } else {
    text << "column " << real.half << " (Nyquist) in " << real.nyquist_tiles << " more tiles at X origin "
         << real.half << ", columns past it masked, each walked beside its row's " << spec.axes[0].tiles()
         << " X tiles as one more\n";
  }
}

}  // namespace

std::int64_t AxisTile::extent() const {
  std::int64_t e = 1;
  for (const TileMode& m : tile) e *= m.extent;
  return e;
}

std::int64_t AxisTile::tiles() const {
  std::int64_t t = 1;
  for (const TileMode& m : grid) t *= m.extent;
  return t;
}

std::string to_string(const TileMode& mode) {
  return std::to_string(mode.extent) + ":" + std::to_string(mode.stride);
}

std::string to_string(const SharedLayout& layout) {
  std::string kind = "identity";
  if (layout.kind == SharedLayoutKind::pad) kind = "pad(e + (e >> " + std::to_string(layout.shift) + "))";
  if (layout.kind == SharedLayoutKind::pad_period)
    kind = "pad(e + e / " + std::to_string(layout.period) + " * " + std::to_string(layout.period_words) + ")";
  if (layout.kind == SharedLayoutKind::xor_rows) {
    const std::string mask = std::to_string(layout.banks - 1);
    kind = "xor(e ^ ((e >> " + std::to_string(layout.shift) + ") & " + mask + ")";
    if (layout.second_shift > 0) kind += " ^ ((e >> " + std::to_string(layout.second_shift) + ") & " + mask + ")";
    kind += ")";
  }
  return kind + ", " + std::to_string(layout.words) + " words per part, " + std::to_string(layout.banks) + " banks";
}

std::string to_string(const KernelSpec& spec) {
  std::ostringstream text;
  text << "kernel " << spec.kernel_index << " (" << role_text(spec.role) << ")";
  if (!spec.kernel.subs.empty()) text << ": {" << to_string(spec.kernel) << "}";
  // The plan's name (a file path) stays out: the same kernel of the same plan loaded from anywhere shares its text,
  // entry name and cache entry.
  text << "\nplan hash " << hash_text(spec.plan_hash) << ", size " << to_string(spec.size) << ", profile "
       << spec.profile << "\n";
  // fp32 specs keep their text (and so their hashes and entry names); fp64 ones say so.
  if (spec.precision == Precision::fp64) text << "precision fp64: complex double values\n";
  if (spec.role == KernelRole::tile) {
    write_axes(text, spec);
    text << "tile " << spec.tile_elements << " elements, shared " << to_string(spec.shared) << " = "
         << spec.shared_bytes << " B\n";
    if (spec.x_run_elements != 16)
      text << "X runs of " << spec.x_run_elements * spec.complex_bytes() << " bytes: "
           << narrowing_text(spec.x_run_narrowing) << " (narrow_x_runs)\n";
    write_real(text, spec);
    if (spec.masks_x())
      text << "rows of " << spec.volume_nx << " values padded to " << spec.size.nx << ": global accesses take row pitch "
           << spec.volume_nx << ", positions x >= " << spec.volume_nx << " masked (padded_rows)\n";
    if (spec.load_in_first_pass || spec.store_in_last_pass)
      text << "global memory from the passes:"
           << (spec.load_in_first_pass ? " the first pass loads the tile (no load sweep of shared memory)" : "")
           << (spec.load_in_first_pass && spec.store_in_last_pass ? "," : "")
           << (spec.store_in_last_pass ? " the last pass stores it (no store sweep)" : "") << "\n";
    if (tile::writer_exchange(spec))
      text << "last pass across parts in writer order: each warp's outputs land as one run of words, the store sweep "
              "reads them back by writer (writer_exchange)\n";
  } else if (spec.role == KernelRole::real_pass) {
    const bool r2c = spec.real.kind == TransformKind::r2c;
    text << (r2c ? "R2C" : "C2R") << " step along X of " << 2 * spec.real.half << " reals, apart from the X stages: "
         << "each thread pairs frequencies k and " << spec.real.half << " - k of the packed row in natural order, "
         << (r2c ? "after the complex transform of its " : "before the inverse transform of its ") << spec.real.half
         << " values\n";
  } else {
    for (Axis axis : all_axes)
      if (!spec.reorder_radices[axis_index(axis)].empty())
        text << "reverse " << axis_letter(axis) << " radices " << radices_text(spec.reorder_radices[axis_index(axis)])
             << "\n";
    if (spec.reorder_tile.transposes())
      text << "transpose through shared memory: tiles of " << spec.reorder_tile.frequency_run
           << " consecutive frequencies x " << spec.reorder_tile.position_run
           << " consecutive positions of X (loads and stores in runs of "
           << spec.reorder_tile.position_run * spec.complex_bytes() << " and "
           << spec.reorder_tile.frequency_run * spec.complex_bytes() << " bytes)\n";
  }
  text << "launch " << spec.launch_blocks() << " blocks x " << spec.threads << " threads";
  if (spec.tile_blocks > 1)
    text << " (" << spec.tiles << " tiles, each spread over " << spec.tile_blocks << " blocks of "
         << spec.part_elements() << " elements: part = " << part_field_text(spec) << ")";
  if (spec.cluster_blocks > 1) text << " in clusters of " << spec.cluster_blocks;
  if (spec.blocks_per_multiprocessor > 1) text << ", " << spec.blocks_per_multiprocessor << " blocks a multiprocessor";
  if (spec.sorted_store_cluster > 1)
    text << " (in place with the sorted layout: in clusters of " << spec.sorted_store_cluster
         << ", every block loading" << (tile::sorts_late_in_place(spec) ? " natural positions" : "")
         << " before any stores)";
  if (spec.grid_order != std::array{Axis::x, Axis::y, Axis::z})
    text << " (tiles walked " << axis_letter(spec.grid_order[0]) << axis_letter(spec.grid_order[1])
         << axis_letter(spec.grid_order[2]) << ")";
  text << " (conflict group " << spec.conflict_group_threads << "), nominal flops " << std::setprecision(6)
       << spec.nominal_flops << "\n";
  if (spec.batch > 1)
    text << "batch of " << spec.batch << " volumes: blockIdx.y is the volume, launches of at most "
         << max_volumes_per_launch << " volumes, in and out moved by the volume strides\n";
  return text.str();
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::uint64_t stable_hash(const KernelSpec& spec) { return fnv1a(to_string(spec)); }

// A tile kernel's entry is fft3d_k<index>_<hash>; its copy twin's (the same tile with no stages: its loads and
// stores alone) fft3d_twin<index>_<hash>, so that a profiler selects either by name (tools/gpu_profile.sh).
std::string KernelSpec::entry_name() const {
  const bool copy_twin = role == KernelRole::tile && stages.empty();
  std::ostringstream name;
  name << (copy_twin ? "fft3d_twin" : "fft3d_k") << kernel_index << "_" << hash_text(stable_hash(*this));
  return name.str();
}

}  // namespace fft3d
