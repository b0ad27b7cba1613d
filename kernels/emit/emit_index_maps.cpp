// Index-map level: the formulas of lowering/tile_maps.hpp printed as device functions, mode by mode, so the checked
// maps and the executed maps are the same maps.
#include <algorithm>
#include <array>

#include "emit_parts.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }
std::string radices_list(const std::vector<std::int64_t>& radices);

// tile_pos_<axis>(e): offset along the axis of tile element e (sum of the tile modes' digits times strides).
void write_tile_position(SourceWriter& out, const KernelSpec& spec, const AxisTile& axis) {
  out.open("__device__ __forceinline__ long long tile_pos_" + axis_suffix(axis.axis) + "(unsigned e)");
  std::int64_t below = tile::axis_linear_stride(spec, axis.axis);  // the tile-linear stride of the mode's digit
  std::string sum = "0";
  for (const TileMode& mode : axis.tile) {
    const std::string digit =
        is_power_of_two(below) && is_power_of_two(mode.extent)
            ? "((e >> " + str(tile::log2_exact(below)) + ") & " + str(mode.extent - 1) + "u)"
            : "(e / " + str(below) + "u % " + str(mode.extent) + "u)";
    sum += " + (long long)" + digit + " * " + str(mode.stride);
    below *= mode.extent;
  }
  out.line("return " + sum + ";");
  out.close();
}

// tile_offset(e): the global offset of tile element e from the tile's origin; tile_offset(a | b) = tile_offset(a) +
// tile_offset(b) for a and b without common bits.
void write_tile_offset(SourceWriter& out, const KernelSpec& spec) {
  if (spec.real.kind != TransformKind::c2c) {  // a real kernel's rows have the launch's pitch: X and row apart
    out.open("__device__ __forceinline__ long long tile_row_offset(unsigned e)");
    out.line("return tile_pos_y(e) + " + str(spec.size.ny) + "LL * tile_pos_z(e);");
    out.close();
    return;
  }
  out.open("__device__ __forceinline__ long long tile_offset(unsigned e)");
  if (tile::offsets_are_elements(spec))
    out.line("return (long long)e;  // the tile's elements lie in memory order");
  else
    out.line("return tile_pos_x(e) + " + str(spec.row_pitch()) + "LL * (tile_pos_y(e) + " + str(spec.size.ny) +
             "LL * tile_pos_z(e));");
  out.close();
}

// sorted_<axis>(p): where the sorted layout keeps position p (tile::sorted_position), for each axis that has one;
// with sorted loads in a first pass from global memory, tile_offset_sorted(e): tile_offset in that layout (the
// layout is a bit permutation of each axis, so it adds over disjoint fields like tile_offset).
void write_sorted_layout_maps(SourceWriter& out, const KernelSpec& spec) {
  for (const AxisTile& axis : spec.axes) {
    if (axis.sorted_radices.empty()) continue;
    const std::vector<std::int64_t> reversed(axis.sorted_radices.rbegin(), axis.sorted_radices.rend());
    out.line("// Sorted layout: where a run out of place in natural order keeps position p (the frequency the DIF");
    out.line("// stages of radices " + radices_list(axis.sorted_radices) + " leave at p).");
    write_digit_reversal_function(out, "sorted_" + axis_suffix(axis.axis), reversed);
  }
  if (!spec.load_in_first_pass || !tile::loads_sorted(spec)) return;
  std::array<std::string, 3> p;
  for (const AxisTile& axis : spec.axes) {
    const std::string a = axis_suffix(axis.axis);
    p[axis_index(axis.axis)] = axis.sorted_loads ? "sorted_" + a + "(tile_pos_" + a + "(e))" : "tile_pos_" + a + "(e)";
  }
  if (spec.real.kind != TransformKind::c2c) {
    out.open("__device__ __forceinline__ long long tile_row_offset_sorted(unsigned e)");
    out.line("return " + p[1] + " + " + str(spec.size.ny) + "LL * " + p[2] + ";");
    out.close();
    return;
  }
  out.open("__device__ __forceinline__ long long tile_offset_sorted(unsigned e)");
  out.line("return " + p[0] + " + " + str(spec.row_pitch()) + "LL * (" + p[1] + " + " + str(spec.size.ny) + "LL * " + p[2] +
           ");");
  out.close();
}

void write_shared_address(SourceWriter& out, const SharedLayout& layout) {
  out.line("// shared layout: " + to_string(layout));
  out.open("__device__ __forceinline__ unsigned smem(unsigned e)");
  switch (layout.kind) {
    case SharedLayoutKind::identity: out.line("return e;"); break;
    case SharedLayoutKind::pad: out.line("return e + (e >> " + str(layout.shift) + ");"); break;
    case SharedLayoutKind::pad_period:
      out.line("return e + e / " + str(layout.period) + "u * " + str(layout.period_words) + "u;");
      break;
    case SharedLayoutKind::xor_rows: {
      const std::string mask = str(layout.banks - 1) + "u";
      std::string second;
      if (layout.second_shift > 0) second = " ^ ((e >> " + str(layout.second_shift) + ") & " + mask + ")";
      out.line("return e ^ ((e >> " + str(layout.shift) + ") & " + mask + ")" + second + ";");
      break;
    }
  }
  out.close();
}

// natural_source(e): the tile element whose value belongs at e in natural order (tile::natural_source); with the
// inverse maps, natural_destination(p): where the value at p belongs (tile::natural_destination).
void write_whole_axes_map(SourceWriter& out, const KernelSpec& spec, const std::string& name,
                          const std::string& axis_function) {
  out.open("__device__ __forceinline__ unsigned " + name + "(unsigned e)");
  out.line("unsigned moved = e;");
  for (const AxisTile& axis : spec.axes) {
    if (axis.reversal_radices.empty()) continue;
    const std::int64_t stride = tile::axis_linear_stride(spec, axis.axis);
    const std::string function = axis_function + axis_suffix(axis.axis);
    if (is_power_of_two(stride) && is_power_of_two(axis.length)) {
      const std::string shift = str(tile::log2_exact(stride));
      const std::string mask = str(axis.length - 1) + "u";
      out.line("moved = (moved & ~(" + mask + " << " + shift + ")) | ((unsigned)" + function + "((e >> " + shift +
               ") & " + mask + ") << " + shift + ");");
      continue;
    }
    // The position along the axis is the digit (e / stride) % length; moving it adds the difference times stride.
    const std::string within = "(e / " + str(stride) + "u % " + str(axis.length) + "u)";
    out.line("moved += ((unsigned)" + function + "(" + within + ") - " + within + ") * " + str(stride) + "u;");
  }
  out.line("return moved;");
  out.close();
}

// The digits of global position p in `modes`, packed fastest first (tile::tile_index_of, tile::local_index_of).
void write_digits_function(SourceWriter& out, const std::string& name, const std::vector<TileMode>& modes) {
  out.open("__device__ __forceinline__ unsigned " + name + "(long long p)");
  std::string sum = "0u";
  const bool bit_fields = std::all_of(modes.begin(), modes.end(), [](const TileMode& mode) {
    return is_power_of_two(mode.stride) && is_power_of_two(mode.extent);
  });
  int shift = 0;
  std::int64_t weight = 1;
  for (const TileMode& mode : modes) {
    if (bit_fields) {
      sum += " | ((unsigned)((p >> " + str(tile::log2_exact(mode.stride)) + ") & " + str(mode.extent - 1) + ") << " +
             str(shift) + ")";
      shift += tile::log2_exact(mode.extent);
    } else {
      sum += " + (unsigned)(p / " + str(mode.stride) + "LL % " + str(mode.extent) + ") * " + str(weight) + "u";
    }
    weight *= mode.extent;
  }
  out.line("return " + sum + ";");
  out.close();
}

// The maps of the exchange form (tile::exchange_source): where frequency f is held, and that position's X tile
// (the cluster rank) and local index.
void write_cluster_exchange_maps(SourceWriter& out, const AxisTile& x) {
  out.line("// Position where the DIF stages of radices " + radices_list(x.cluster_reversal_radices) +
           " leave frequency f; its X tile is the cluster rank holding it.");
  write_digit_reversal_function(out, "held_at_x", x.cluster_reversal_radices);
  write_digits_function(out, "tile_of_x", x.grid);
  write_digits_function(out, "local_of_x", x.tile);
}

std::string radices_list(const std::vector<std::int64_t>& radices) {
  std::string text;
  for (std::int64_t r : radices) text += (text.empty() ? "" : " x ") + str(r);
  return text;
}

}  // namespace

std::string axis_suffix(Axis axis) { return std::string(1, static_cast<char>(axis_letter(axis) - 'A' + 'a')); }

void write_reversal_function(SourceWriter& out, Axis axis, const std::vector<std::int64_t>& radices) {
  out.line("// Position of frequency f after the DIF stages of radices (execution order) on this axis.");
  write_digit_reversal_function(out, "reverse_" + axis_suffix(axis), radices);
}

void write_digit_reversal_function(SourceWriter& out, const std::string& name,
                                   const std::vector<std::int64_t>& radices) {
  std::int64_t length = 1;
  for (std::int64_t r : radices) length *= r;
  out.open("__device__ __forceinline__ long long " + name + "(long long f)");
  out.line("long long p = 0;");
  for (std::int64_t r : radices) {
    length /= r;
    if (is_power_of_two(r))
      out.line("p += (f & " + str(r - 1) + ") * " + str(length) + "; f >>= " + str(tile::log2_exact(r)) + ";");
    else
      out.line("p += (f % " + str(r) + ") * " + str(length) + "; f /= " + str(r) + ";");
  }
  out.line("return p;");
  out.close();
}

void write_tile_index_maps(SourceWriter& out, const KernelSpec& spec) {
  for (const AxisTile& axis : spec.axes) write_tile_position(out, spec, axis);
  if (spec.load_in_first_pass) write_tile_offset(out, spec);
  write_sorted_layout_maps(out, spec);
  write_shared_address(out, spec.shared);
  for (const AxisTile& axis : spec.axes) {
    if (axis.reversal_radices.empty()) continue;
    write_reversal_function(out, axis.axis, axis.reversal_radices);
    if (!spec.store_in_last_pass) continue;
    const std::vector<std::int64_t> reversed(axis.reversal_radices.rbegin(), axis.reversal_radices.rend());
    out.line("// Frequency the DIF stages of radices " + radices_list(axis.reversal_radices) + " leave at position p.");
    write_digit_reversal_function(out, "natural_frequency_" + axis_suffix(axis.axis), reversed);
  }
  if (tile::exchanges_across_cluster(spec)) {
    write_cluster_exchange_maps(out, spec.axes[0]);
  } else {
    for (const AxisTile& axis : spec.axes) {
      const std::vector<std::int64_t>& radices =
          axis.cluster_reversal_radices.empty() ? axis.workspace_reversal_radices : axis.cluster_reversal_radices;
      if (radices.empty()) continue;
      // frequency_at_position is the digit reversal with the radices in the opposite order.
      const std::vector<std::int64_t> reversed(radices.rbegin(), radices.rend());
      out.line("// Frequency the DIF stages of radices " + radices_list(radices) +
               " leave at global position p: where the natural-order store writes it.");
      write_digit_reversal_function(out, "frequency_" + axis_suffix(axis.axis), reversed);
    }
  }
  write_whole_axes_map(out, spec, "natural_source", "reverse_");
  if (spec.store_in_last_pass) write_whole_axes_map(out, spec, "natural_destination", "natural_frequency_");
  if (spec.tile_blocks > 1 || tile::exchanges_across_cluster(spec)) write_cluster_memory_functions(out);
  write_cluster_word_function(out, spec);
  write_writer_exchange_functions(out, spec);
}

void write_block_origin(SourceWriter& out, const KernelSpec& spec) {
  std::string order;
  for (Axis axis : spec.grid_order) order += std::string(order.empty() ? "" : ", then ") + axis_letter(axis);
  out.line("// Tile origins: consecutive tiles walk the " + order + " tiles (KernelSpec::grid_order).");
  write_part_origin(out, spec);
  const bool nyquist_tiles = spec.real.nyquist_tiles > 0;
  std::int64_t below = 1;  // the product of the grid extents walked before this mode's digit
  for (Axis walked : spec.grid_order) {
    const AxisTile& axis = spec.axes[axis_index(walked)];
    // RealKernel::nyquist_tiles: X tile `x_tiles` carries column NX/2 (tile::block_origin); X has at most one grid
    // mode in such a kernel (real_step.cpp), so a tile's origin is its digit times that mode's stride.
    if (nyquist_tiles && walked == Axis::x) {
      const std::int64_t x_tiles = axis.tiles(), stride = axis.grid.empty() ? 0 : axis.grid.front().stride;
      out.line("// X tile " + str(x_tiles) + " of " + str(x_tiles + 1) + " carries column " + str(spec.real.half) +
               " (Nyquist), beside the X tiles of its row: columns past it masked.");
      out.line("const unsigned long long x_tile = block / " + str(below) + "ull % " + str(x_tiles + 1) + "ull;");
      out.line("const long long origin_x = x_tile == " + str(x_tiles) + "ull ? " + str(spec.real.half) +
               "LL : (long long)x_tile * " + str(stride) + ";");
      below *= x_tiles + 1;
      continue;
    }
    std::string sum = "0";
    for (const TileMode& mode : axis.grid) {
      if (is_power_of_two(below) && is_power_of_two(mode.extent))
        sum += " + (long long)((block >> " + str(tile::log2_exact(below)) + ") & " + str(mode.extent - 1) +
               "ull) * " + str(mode.stride);
      else
        sum += " + (long long)(block / " + str(below) + "ull % " + str(mode.extent) + "ull) * " + str(mode.stride);
      below *= mode.extent;
    }
    out.line("const long long origin_" + axis_suffix(axis.axis) + " = " + sum + ";");
  }
  if (tile::offsets_are_elements(spec) && !is_real(spec))  // a real kernel keeps its rows' own pitch
    out.line("const long long tile_base = origin_x + " + str(spec.size.nx) + "LL * (origin_y + " + str(spec.size.ny) +
             "LL * origin_z);  // tile element e lies at tile_base + e");
}

}  // namespace fft3d::emit
