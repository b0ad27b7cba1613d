#include "tile_interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "lowering/tile_maps.hpp"

namespace fft3d::testing {
namespace {

using Complex = std::complex<double>;

void run_stage(const KernelSpec& spec, const TileStage& stage, std::int64_t block, std::vector<Complex>& tile) {
  const std::int64_t r = stage.sub.radix;
  for (std::int64_t b = 0; b < spec.tile_elements / r; ++b) {
    const std::int64_t base = tile::butterfly_base(stage, b);
    std::vector<Complex> v(r);
    for (std::int64_t k = 0; k < r; ++k) v[k] = tile[base + k * stage.element_step];
    small_dft(v);
    if (stage.sub.twiddle) {
      const std::int64_t j = tile::axis_position(spec, block, stage.sub.axis, base) % stage.sub.stride;
      for (std::int64_t m = 1; m < r; ++m) v[m] *= twiddle_factor(j * m, stage.sub.span);
    }
    for (std::int64_t k = 0; k < r; ++k) tile[base + k * stage.element_step] = v[k];
  }
}

// Cluster by cluster, as the GPU orders it: every block of a cluster loads its tile, then computes, then (after the
// cluster barrier) stores; a lowering whose natural-order stores left the cluster would show up as a wrong result.
// Reads `in` and writes `data` (the same vector in place).
// sorted_loads, sorted: whether the loads and the stores address the sorted layout (kernel_flag_sorted_layout, and
// kernel_flag_natural_loads for the late form's kernel in place).
void run_tile_kernel(const KernelSpec& spec, const std::vector<Complex>& in, std::vector<Complex>& data,
                     bool conj_load, bool conj_store, double scale, bool natural, bool sorted_loads, bool sorted,
                     bool ordered_stores) {
  const std::int64_t per_cluster = ordered_stores ? spec.sorted_store_cluster : spec.tiles_per_cluster();
  for (std::int64_t first = 0; first < spec.tiles; first += per_cluster) {
    std::vector<std::vector<Complex>> tiles(per_cluster, std::vector<Complex>(spec.tile_elements));
    for (std::int64_t block = first; block < first + per_cluster; ++block) {
      std::vector<Complex>& tile = tiles[block - first];
      for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
        const std::int64_t offset = tile::volume_offset(spec, tile::load_offset(spec, block, e, sorted_loads));
        const Complex v = offset < 0 ? Complex(0, 0) : in[offset];  // a masked position of padded rows reads zero
        tile[e] = conj_load ? std::conj(v) : v;
      }
      for (const TileStage& stage : spec.stages) run_stage(spec, stage, block, tile);
    }
    const bool exchange = natural && tile::exchanges_across_cluster(spec);
    for (std::int64_t block = first; block < first + per_cluster; ++block)
      for (std::int64_t e = 0; e < spec.tile_elements; ++e) {
        if (spec.store_in_last_pass) {  // the last pass writes each value of the tile where it belongs
          const Complex v = tiles[block - first][e] * scale;
          const std::int64_t offset = tile::volume_offset(spec, tile::last_pass_store_offset(spec, block, e, natural, sorted));
          if (offset >= 0) data[offset] = conj_store ? std::conj(v) : v;
          continue;
        }
        const auto [source_block, source] = exchange ? tile::exchange_source(spec, block, e) : std::pair(block, e);
        Complex v = tiles[source_block - first][natural ? tile::natural_source(spec, source) : source] * scale;
        const std::int64_t offset = tile::volume_offset(spec, tile::store_offset(spec, block, e, natural, sorted));
        if (offset >= 0) data[offset] = conj_store ? std::conj(v) : v;
      }
  }
}

void run_reorder(const KernelSpec& spec, std::vector<Complex>& data) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Complex> out(data.size(), Complex(nan, nan));  // poisoned: an element no block writes shows
  if (spec.reorder_tile.transposes()) {  // the blocks' moves, as the kernel makes them
    for (std::int64_t block = 0; block < spec.tiles; ++block)
      for (std::int64_t e = 0; e < spec.reorder_tile.elements(); ++e) {
        const tile::ReorderMove move = tile::reorder_move(spec, block, e);
        out[move.to] = data[move.from];
      }
    data = out;
    return;
  }
  for (std::int64_t to = 0; to < spec.size.elements(); ++to) out[to] = data[tile::reorder_source(spec, to)];
  data = out;
}

}  // namespace

std::complex<double> twiddle_factor(std::int64_t exponent, std::int64_t span) {
  const double angle = -2.0 * std::numbers::pi * static_cast<double>(exponent % span) / static_cast<double>(span);
  return {std::cos(angle), std::sin(angle)};
}

void small_dft(std::vector<std::complex<double>>& values) {
  const std::int64_t r = static_cast<std::int64_t>(values.size());
  std::vector<Complex> out(values.size());
  for (std::int64_t m = 0; m < r; ++m)
    for (std::int64_t k = 0; k < r; ++k) out[m] += values[k] * twiddle_factor(k * m, r);
  values = out;
}

void interpret(const LoweredPlan& lowered, std::vector<Complex>& data, const TransformOptions& options,
               bool out_of_place) {
  const bool inverse = options.direction == Direction::inverse;
  const bool natural = options.order == Order::natural;
  const std::vector<Complex> input = out_of_place ? data : std::vector<Complex>{};
  if (out_of_place)  // `out` starts as anything but the input
    std::fill(data.begin(), data.end(), Complex(std::nan(""), std::nan("")));
  for (std::size_t k = 0; k < lowered.kernels.size(); ++k) {
    const bool last = k + 1 == lowered.kernels.size();
    const double scale = last && options.scaling == Scaling::full
                             ? 1.0 / static_cast<double>(lowered.kernels[k].volume_elements()) : 1.0;
    // as GpuTransform sets the flags
    const bool sorted = natural && lowered.addresses_sorted(k, out_of_place);
    const bool sorted_loads = sorted && !lowered.loads_natural_in_sorted_run(k, out_of_place);
    const bool ordered_stores = natural && lowered.orders_stores_in_clusters(k, out_of_place);
    // A transposed store (the last kernel's, in natural order) loads the workspace and stores anywhere in `out`.
    const bool from_workspace = natural && last && lowered.stores_out_of_workspace();
    const std::vector<Complex> workspace = from_workspace ? data : std::vector<Complex>{};
    if (from_workspace) std::fill(data.begin(), data.end(), Complex(std::nan(""), std::nan("")));
    run_tile_kernel(lowered.kernels[k], k == 0 && out_of_place ? input : from_workspace ? workspace : data, data,
                    inverse && k == 0, inverse && last, scale, natural, sorted_loads, sorted, ordered_stores);
  }
  if (natural && lowered.reorders(out_of_place)) run_reorder(*lowered.reorder, data);
}

std::vector<Complex> naive_dft(const Extents& n, const std::vector<Complex>& input, Direction direction) {
  const double sign = direction == Direction::forward ? -1.0 : 1.0;
  std::vector<Complex> out(input.size());
  auto w = [&](std::int64_t a, std::int64_t len) {
    const double angle = sign * 2.0 * std::numbers::pi * static_cast<double>(a % len) / static_cast<double>(len);
    return Complex(std::cos(angle), std::sin(angle));
  };
  for (std::int64_t kz = 0; kz < n.nz; ++kz)
    for (std::int64_t ky = 0; ky < n.ny; ++ky)
      for (std::int64_t kx = 0; kx < n.nx; ++kx) {
        Complex sum = 0;
        for (std::int64_t z = 0; z < n.nz; ++z)
          for (std::int64_t y = 0; y < n.ny; ++y)
            for (std::int64_t x = 0; x < n.nx; ++x)
              sum += input[x + n.nx * (y + n.ny * z)] * w(kx * x, n.nx) * w(ky * y, n.ny) * w(kz * z, n.nz);
        out[kx + n.nx * (ky + n.ny * kz)] = sum;
      }
  return out;
}

}  // namespace fft3d::testing
