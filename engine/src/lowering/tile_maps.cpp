// The index maps of a tile kernel (contracts in tile_maps.hpp).
#include <algorithm>
#include <bit>
#include <stdexcept>

#include "lowering/tile_maps.hpp"
#include "fft3d/index_maps.hpp"

namespace fft3d::tile {

void throw_not_a_power_of_two(std::int64_t v) {
  throw std::logic_error("log2_exact: " + std::to_string(v) + " is not a power of two");
}

namespace {
bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
bool all_powers_of_two(const std::vector<std::int64_t>& values) {
  return std::all_of(values.begin(), values.end(), power_of_two);
}
}  // namespace

bool staged_bit_fields(const KernelSpec& spec) {
  if (!power_of_two(spec.tile_elements)) return false;
  for (const TileStage& stage : spec.stages)
    if (!power_of_two(stage.sub.radix) || !all_powers_of_two(stage.split_radices) ||
        !power_of_two(spec.size[stage.sub.axis]))
      return false;
  for (const std::vector<std::int64_t>& radices : spec.reorder_radices)
    if (!all_powers_of_two(radices)) return false;
  return true;
}

bool bit_fields(const KernelSpec& spec) {
  return power_of_two(spec.size.nx) && power_of_two(spec.size.ny) && power_of_two(spec.size.nz) &&
         staged_bit_fields(spec);
}

std::int64_t axis_linear_stride(const KernelSpec& spec, Axis axis) {
  std::int64_t stride = 1;
  for (int a = 0; a < axis_index(axis); ++a) stride *= spec.axes[a].extent();
  return stride;
}

std::int64_t local_index(const KernelSpec& spec, Axis axis, std::int64_t e) {
  return (e / axis_linear_stride(spec, axis)) % spec.axes[axis_index(axis)].extent();
}

namespace {
// Sum of the mixed-radix digits of `index` over `modes` (fastest first) times their strides.
std::int64_t digits_times_strides(const std::vector<TileMode>& modes, std::int64_t index) {
  std::int64_t position = 0;
  for (const TileMode& mode : modes) {
    position += (index % mode.extent) * mode.stride;
    index /= mode.extent;
  }
  return position;
}
}  // namespace

std::int64_t local_position(const AxisTile& axis, std::int64_t l) { return digits_times_strides(axis.tile, l); }
std::int64_t origin_position(const AxisTile& axis, std::int64_t t) { return digits_times_strides(axis.grid, t); }

std::int64_t walked_tiles(const KernelSpec& spec, Axis axis) {
  return spec.axes[axis_index(axis)].tiles() + (spec.real.nyquist_tiles > 0 && axis == Axis::x ? 1 : 0);
}

std::int64_t last_grid_tile(const KernelSpec& spec) {
  std::int64_t block = 0, weight = 1;
  for (Axis axis : spec.grid_order) {
    block += (spec.axes[axis_index(axis)].tiles() - 1) * weight;
    weight *= walked_tiles(spec, axis);
  }
  return block;
}

std::array<std::int64_t, 3> block_origin(const KernelSpec& spec, std::int64_t block) {
  std::array<std::int64_t, 3> origin{};
  for (Axis axis : spec.grid_order) {
    const AxisTile& tile = spec.axes[axis_index(axis)];
    const std::int64_t t = block % walked_tiles(spec, axis);  // t == tile.tiles(): the Nyquist tile
    origin[axis_index(axis)] = t == tile.tiles() ? spec.real.half : origin_position(tile, t);
    block /= walked_tiles(spec, axis);
  }
  return origin;
}

std::int64_t axis_position(const KernelSpec& spec, std::int64_t block, Axis axis, std::int64_t e) {
  const int a = axis_index(axis);
  return block_origin(spec, block)[a] + local_position(spec.axes[a], local_index(spec, axis, e));
}

std::array<std::int64_t, 3> axis_positions(const KernelSpec& spec, std::int64_t block, std::int64_t e) {
  std::array<std::int64_t, 3> p{};  // block 0's origin, the one the static checks ask most
  if (block != 0) p = block_origin(spec, block);
  for (int a = 0; a < 3; ++a) {  // e = lx + EX*(ly + EY*lz)
    const std::int64_t extent = spec.axes[a].extent();
    p[a] += local_position(spec.axes[a], e % extent);
    e /= extent;
  }
  return p;
}

std::int64_t global_offset(const KernelSpec& spec, std::int64_t block, std::int64_t e) {
  const std::array<std::int64_t, 3> p = axis_positions(spec, block, e);
  return p[0] + spec.size.nx * (p[1] + spec.size.ny * p[2]);
}

std::int64_t volume_offset(const KernelSpec& spec, std::int64_t offset) {
  if (!spec.masks_x()) return offset;
  const std::int64_t x = offset % spec.size.nx, row = offset / spec.size.nx;
  return x >= spec.volume_nx ? -1 : x + spec.volume_nx * row;
}

namespace {
// The digits of position p in `modes` (each mode's digit: (p / stride) % extent), packed fastest first (mixed
// radix, the extents as the radices): the index digits_times_strides maps back to p's part in these modes.
std::int64_t digits_of(const std::vector<TileMode>& modes, std::int64_t p) {
  std::int64_t index = 0, weight = 1;
  for (const TileMode& mode : modes) {
    index += (p / mode.stride) % mode.extent * weight;
    weight *= mode.extent;
  }
  return index;
}
}  // namespace

namespace {
// v with a digit of value `digit` and extent `extent` inserted at stride `stride` (v's digits from `stride` up move
// up by the factor `extent`): v % stride + digit * stride + (v / stride) * stride * extent.
std::int64_t insert_digit(std::int64_t v, std::int64_t digit, std::int64_t stride, std::int64_t extent) {
  return v % stride + digit * stride + v / stride * stride * extent;
}
}  // namespace

std::int64_t element_part(const KernelSpec& spec, std::int64_t e) {
  return e / spec.part_stride % spec.tile_blocks;
}

std::int64_t part_local_element(const KernelSpec& spec, std::int64_t e) {
  return e % spec.part_stride + e / (spec.part_stride * spec.tile_blocks) * spec.part_stride;
}

std::int64_t part_element(const KernelSpec& spec, std::int64_t part, std::int64_t local) {
  return insert_digit(local, part, spec.part_stride, spec.tile_blocks);
}

bool crosses_parts(const KernelSpec& spec, std::int64_t element_step, std::int64_t group) {
  if (spec.tile_blocks == 1) return false;
  // The group's digit (element_step, group) lies wholly below the part digit or wholly above it; otherwise the
  // group's elements read several part numbers (for bit fields: the two bit ranges overlap).
  const bool group_below = spec.part_stride % (element_step * group) == 0;
  const bool group_above = element_step % (spec.part_stride * spec.tile_blocks) == 0;
  return !group_below && !group_above;
}

bool stage_crosses_parts(const KernelSpec& spec, const TileStage& stage) {
  return crosses_parts(spec, stage.element_step, stage.sub.radix);
}

bool pass_crosses_parts(const KernelSpec& spec, const TileStage& stage, const SplitPass& pass) {
  const bool writes_global = pass.last && spec.store_in_last_pass && stage == spec.stages.back();
  return crosses_parts(spec, pass.element_step, pass.radix) ||
         (pass.last && !writes_global && stage_crosses_parts(spec, stage));
}

std::int64_t part_butterfly_stride(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix) {
  // Butterfly digits below element_step are element digits; the ones above sit a factor radix higher in the element.
  return spec.part_stride < element_step ? spec.part_stride : spec.part_stride / radix;
}

std::int64_t part_butterfly(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix, bool cross,
                            std::int64_t part, std::int64_t local) {
  if (spec.tile_blocks == 1) return local;
  const std::int64_t per_part = spec.part_elements() / radix;
  if (cross) return part * per_part + local;
  return insert_digit(local, part, part_butterfly_stride(spec, element_step, radix), spec.tile_blocks);
}

std::int64_t tile_index_of(const AxisTile& axis, std::int64_t p) { return digits_of(axis.grid, p); }
std::int64_t local_index_of(const AxisTile& axis, std::int64_t p) { return digits_of(axis.tile, p); }

bool exchanges_across_cluster(const KernelSpec& spec) {
  return spec.tiles_per_cluster() > 1 && !spec.axes[0].cluster_reversal_radices.empty() &&
         spec.axes[1].cluster_reversal_radices.empty() && spec.axes[2].cluster_reversal_radices.empty() &&
         spec.tiles_per_cluster() == spec.axes[0].tiles();
}

std::pair<std::int64_t, std::int64_t> exchange_source(const KernelSpec& spec, std::int64_t block, std::int64_t e) {
  const AxisTile& x = spec.axes[0];
  // The value of frequency f (this element's position) sits where the DIF stages left it.
  const std::int64_t f = axis_position(spec, block, Axis::x, e);
  const std::int64_t held_at = fft3d::digit_reversed_position(f, x.cluster_reversal_radices);
  const std::int64_t first_in_cluster = block - block % spec.tiles_per_cluster();
  const std::int64_t row = e - e % x.extent();  // X is the fastest digit of the tile-linear index
  return {first_in_cluster + tile_index_of(x, held_at), row + local_index_of(x, held_at)};
}

std::int64_t sorted_position(const AxisTile& axis, std::int64_t p) {
  return axis.sorted_radices.empty() ? p : fft3d::frequency_at_position(p, axis.sorted_radices);
}

bool loads_sorted(const KernelSpec& spec) {
  for (const AxisTile& axis : spec.axes)
    if (axis.sorted_loads) return true;
  return false;
}

bool sorts_late_in_place(const KernelSpec& spec) { return spec.sorted_store_cluster > 1 && loads_sorted(spec); }

std::int64_t reorder_source(const KernelSpec& spec, std::int64_t to) {
  const Extents& n = spec.size;
  const std::array<std::int64_t, 3> f = {to % n.nx, to / n.nx % n.ny, to / (n.nx * n.ny)};
  std::array<std::int64_t, 3> p{};
  for (Axis axis : all_axes) {
    const std::vector<std::int64_t>& radices = spec.reorder_radices[axis_index(axis)];
    p[axis_index(axis)] = radices.empty() ? f[axis_index(axis)] : digit_reversed_position(f[axis_index(axis)], radices);
  }
  return p[0] + n.nx * (p[1] + n.ny * p[2]);
}

ReorderMove reorder_move(const KernelSpec& spec, std::int64_t block, std::int64_t e) {
  const std::vector<std::int64_t>& x = spec.reorder_radices[axis_index(Axis::x)];
  const ReorderTile& tile = spec.reorder_tile;
  const std::int64_t nx = spec.size.nx, ny = spec.size.ny;
  const std::int64_t frequency_tiles = x.front() / tile.frequency_run, position_tiles = x.back() / tile.position_run;
  const std::int64_t middle = nx / (x.front() * x.back());
  std::int64_t rest = block;
  const std::int64_t frequency_tile = rest % frequency_tiles;
  rest /= frequency_tiles;
  const std::int64_t position_tile = rest % position_tiles;
  rest /= position_tiles;
  const std::int64_t middle_digits = rest % middle;
  rest /= middle;
  const std::int64_t fy = rest % ny, fz = rest / ny;
  // Frequency fx0 + a + (nx / r_last) * c lies at position reverse(fx0) + a * (nx / r_first) + c: the digit
  // reversal adds over digits, and a and c stay within the first and the last digit.
  const std::int64_t fx0 = frequency_tile * tile.frequency_run + x.front() * middle_digits +
                           nx / x.back() * position_tile * tile.position_run;
  const std::int64_t to0 = fx0 + nx * (fy + ny * fz);
  const std::int64_t a = e / tile.position_run, c = e % tile.position_run;
  return {.from = reorder_source(spec, to0) + a * (nx / x.front()) + c, .to = to0 + a + nx / x.back() * c};
}

namespace {
bool store_reverses_across_cluster(const KernelSpec& spec, const AxisTile& tile, bool natural) {
  return natural && !tile.cluster_reversal_radices.empty() && !exchanges_across_cluster(spec);
}

bool store_reverses_out_of_workspace(const AxisTile& tile, bool natural) {
  return natural && !tile.workspace_reversal_radices.empty();
}
}  // namespace

bool store_maps_positions(const KernelSpec& spec, Axis axis, bool natural, bool sorted) {
  const AxisTile& tile = spec.axes[axis_index(axis)];
  return store_reverses_across_cluster(spec, tile, natural) || store_reverses_out_of_workspace(tile, natural) ||
         (sorted && !tile.sorted_radices.empty());
}

bool load_maps_positions(const KernelSpec& spec, Axis axis, bool sorted) {
  const AxisTile& tile = spec.axes[axis_index(axis)];
  return sorted && tile.sorted_loads && !tile.sorted_radices.empty();
}

bool offsets_are_elements(const KernelSpec& spec) {
  if (spec.role != KernelRole::tile || spec.masks_x()) return false;
  bool whole_below = true;  // every axis before this one held whole
  for (const AxisTile& axis : spec.axes) {
    if (!axis.cluster_reversal_radices.empty() || !axis.workspace_reversal_radices.empty() ||
        !axis.sorted_radices.empty() || axis.sorted_loads)
      return false;
    if (axis.extent() == 1) {
      whole_below = whole_below && axis.length == 1;
      continue;
    }
    if (!whole_below) return false;
    std::int64_t run = 1;  // the modes, fastest first, must walk positions 0, 1, 2, ... (local_position(l) == l)
    for (const TileMode& mode : axis.tile) {
      if (mode.stride != run) return false;
      run *= mode.extent;
    }
    whole_below = axis.extent() == axis.length;
  }
  return true;
}

std::int64_t store_offset(const KernelSpec& spec, std::int64_t block, std::int64_t e, bool natural, bool sorted) {
  std::array<std::int64_t, 3> p = axis_positions(spec, block, e);
  for (Axis axis : all_axes) {
    const AxisTile& tile = spec.axes[axis_index(axis)];
    std::int64_t& position = p[axis_index(axis)];
    if (store_reverses_across_cluster(spec, tile, natural))
      position = fft3d::frequency_at_position(position, tile.cluster_reversal_radices);
    if (store_reverses_out_of_workspace(tile, natural))
      position = fft3d::frequency_at_position(position, tile.workspace_reversal_radices);
    if (sorted) position = sorted_position(tile, position);
  }
  return p[0] + spec.size.nx * (p[1] + spec.size.ny * p[2]);
}

std::int64_t load_offset(const KernelSpec& spec, std::int64_t block, std::int64_t e, bool sorted) {
  std::array<std::int64_t, 3> p = axis_positions(spec, block, e);
  for (const AxisTile& tile : spec.axes)
    if (sorted && tile.sorted_loads) p[axis_index(tile.axis)] = sorted_position(tile, p[axis_index(tile.axis)]);
  return p[0] + spec.size.nx * (p[1] + spec.size.ny * p[2]);
}

std::int64_t butterfly_base(std::int64_t element_step, std::int64_t radix, std::int64_t b) {
  return b % element_step + b / element_step * element_step * radix;
}

std::int64_t butterfly_base(const TileStage& stage, std::int64_t b) {
  return butterfly_base(stage.element_step, stage.sub.radix, b);
}

namespace {

// e with the position along every axis the tile holds whole (the axes with reversal radices) moved by `move`.
template <class Move>
std::int64_t move_whole_axes(const KernelSpec& spec, std::int64_t e, Move move) {
  std::int64_t moved_e = e;
  for (const AxisTile& axis : spec.axes) {
    if (axis.reversal_radices.empty()) continue;
    // The axis's tile mode holding the whole axis has stride 1 (T = 1) and comes first (C = 1): the local index
    // modulo N is the position along the axis.
    const std::int64_t stride = axis_linear_stride(spec, axis.axis);
    const std::int64_t within = local_index(spec, axis.axis, e) % axis.length;
    moved_e += (move(within, axis.reversal_radices) - within) * stride;
  }
  return moved_e;
}

}  // namespace

std::int64_t natural_source(const KernelSpec& spec, std::int64_t e) {
  return move_whole_axes(spec, e, [](std::int64_t f, const std::vector<std::int64_t>& radices) {
    return fft3d::digit_reversed_position(f, radices);
  });
}

std::int64_t natural_destination(const KernelSpec& spec, std::int64_t p) {
  return move_whole_axes(spec, p, [](std::int64_t position, const std::vector<std::int64_t>& radices) {
    return fft3d::frequency_at_position(position, radices);
  });
}

std::int64_t transposed_store_element(const KernelSpec& spec, std::int64_t slot) {
  const std::int64_t run = spec.transposed_store_run;
  if (run == 0) return slot;
  return slot % run * (spec.tile_elements / run) + slot / run;
}

}  // namespace fft3d::tile
