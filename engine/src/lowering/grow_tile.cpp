// Rule: grow small tiles. A kernel whose butterfly groups make a small tile (an X-only kernel: one 32-value X
// segment per block; the paper's tesla last kernels: 2 KB) launches millions of tiny blocks, and even a copy with
// those tiles runs at 23-74% of memcpy on an H100 (docs/performance.md, ledger "small-volume grids"). Such a tile is
// doubled along an axis that has no stage in the kernel (Y first, then Z, then X by whole 128-byte chunks) until it
// reaches target_elements (16 KB of fp32 complex), half the profile's shared memory (room for the layout's padding),
// or the axis's length. Along an axis whose length is not a power of two, each step multiplies the extent by the
// smallest prime factor left in length / extent, so the grid stays exact, and in a complex kernel a step from at
// most half the target may pass it (up to the cap: half the shared memory, or the split stages' elements per
// thread). The block size does not grow: each thread takes more butterflies and elements (the emitter's loops are
// thread-strided); a kernel with a split stage keeps at most block_threads.cpp's 16 elements per thread of the
// profile's block size, since its last pass holds them all in registers.
#include <algorithm>
#include <numeric>

#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

constexpr std::int64_t target_elements = 2048;         // 16 KB of fp32 complex
constexpr std::int64_t split_elements_per_thread = 16;  // block_threads.cpp's max_elements_per_thread

// The smallest prime factor of n > 1 (2 for every power of two).
std::int64_t smallest_factor(std::int64_t n) {
  for (std::int64_t f = 2; f * f <= n; ++f)
    if (n % f == 0) return f;
  return n;
}

// A stage-less axis's tile is one contiguous run {extent:1} with the grid {length/extent:extent} (axis_tiling.cpp).
// @post extent() times the smallest factor of tiles() (`grown`), extent() * tiles() == length.
bool grow_stageless_axis(AxisTile& tile, std::int64_t& grown) {
  if (tile.extent() >= tile.length) return false;
  grown = smallest_factor(tile.length / tile.extent());
  const std::int64_t extent = grown * tile.extent();
  tile.tile = {{extent, 1}};
  tile.grid.clear();
  if (tile.length > extent) tile.grid = {{tile.length / extent, extent}};
  return true;
}

constexpr std::int64_t segment_values = 16;  // complex fp32 values per 128-byte segment

// Rule: whole X rows that fill whole segments. A kernel without X stages on an X length that is not a multiple of a
// 128-byte segment (100, 120, 243) holds short X runs (axis_tiling.cpp), which share their segments with the
// neighbouring tiles. Where Y has no stage either and its length allows, the tile takes whole X rows and the
// k = 16 / gcd(NX, 16) consecutive Y rows that together end on a segment boundary, so every access covers whole
// 128-byte segments (the coalescing checker proves it), provided the tile stays within half a block's part
// (room for the layout's padding).
void take_whole_rows(KernelSpec& spec, const Kernel& kernel, const ArchProfile& profile) {
  AxisTile& x = spec.axes[axis_index(Axis::x)];
  AxisTile& y = spec.axes[axis_index(Axis::y)];
  const std::int64_t nx = x.length;
  if (nx % segment_values == 0 || has_stages(kernel, Axis::x) || has_stages(kernel, Axis::y))
    return;
  const std::int64_t rows = segment_values / std::gcd(nx, segment_values);
  if (y.length % rows != 0 || y.extent() != 1) return;
  const std::int64_t elements = spec.tile_elements / x.extent() * nx * rows;
  if (spec.complex_bytes() * elements > part_bytes_limit(profile) / 2) return;
  spec.tiles = spec.tiles / x.tiles() / rows;
  spec.tile_elements = elements;
  x.tile = {{nx, 1}};
  x.grid.clear();
  y.tile = {{rows, 1}};
  y.grid.clear();
  if (y.length > rows) y.grid = {{y.length / rows, rows}};
}

}  // namespace

bool has_stages(const Kernel& kernel, Axis axis) {
  return std::any_of(kernel.subs.begin(), kernel.subs.end(),
                     [axis](const SubComputation& sub) { return sub.axis == axis; });
}

std::int64_t grown_tile_cap(const Kernel& kernel, const ArchProfile& profile, Precision precision) {
  std::int64_t cap = profile.shared_memory_per_block / 2 / static_cast<std::int64_t>(complex_value_bytes(precision));
  const std::int64_t radix_limit = register_radix_limit(profile, precision);
  const bool split = std::any_of(kernel.subs.begin(), kernel.subs.end(),
                                 [radix_limit](const SubComputation& sub) { return sub.radix > radix_limit; });
  if (split) cap = std::min<std::int64_t>(cap, split_elements_per_thread * profile.threads_per_block);
  return cap;
}

std::int64_t grown_tile_limit(const Kernel& kernel, const ArchProfile& profile, Precision precision) {
  return std::min(target_elements, grown_tile_cap(kernel, profile, precision));
}

void grow_small_tile(KernelSpec& spec, const Kernel& kernel, const ArchProfile& profile, bool real) {
  take_whole_rows(spec, kernel, profile);
  const std::int64_t limit = grown_tile_limit(kernel, profile, spec.precision);
  const std::int64_t cap = grown_tile_cap(kernel, profile, spec.precision);
  for (Axis axis : {Axis::y, Axis::z, Axis::x}) {
    if (has_stages(kernel, axis)) continue;
    AxisTile& tile = spec.axes[axis_index(axis)];
    for (std::int64_t grown = 1;;) {
      AxisTile larger = tile;
      if (!grow_stageless_axis(larger, grown)) break;
      // Past the limit only from at most half of it, within the cap: an odd factor would otherwise leave the tile
      // far below it (a 343-point X line: 343 elements, where 7 lines make 2401). Not for an even NX's real kernels:
      // theirs (Nyquist tiles, side arrays) were measured and checked on the GPU with the limit alone.
      const std::int64_t elements = grown * spec.tile_elements;
      const bool past_limit = !real && 2 * spec.tile_elements <= limit && elements <= cap;
      if (elements > limit && !past_limit) break;
      tile = larger;
      spec.tile_elements *= grown;
      spec.tiles /= grown;
    }
  }
}

}  // namespace fft3d::lowering
