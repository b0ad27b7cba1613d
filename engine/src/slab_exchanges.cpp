// The slab decomposition's local volumes and exchange blocks (slab_decomposition.hpp): pure layout arithmetic.
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d {

void require_slab_split(const Extents& size, int gpus) {
  const std::string what = "a " + to_string(size) + " transform over " + std::to_string(gpus) + " GPUs";
  if (gpus < 1 || gpus > max_slab_gpus)
    throw UsageError(what + ": the slab decomposition takes 1 to " + std::to_string(max_slab_gpus) + " GPUs");
  if (size.ny % gpus != 0 || size.nz % gpus != 0)
    throw UsageError(what + ": the GPU count must divide NY (" + std::to_string(size.ny) + ") and NZ (" +
                     std::to_string(size.nz) + ")");
}

Extents SlabDecomposition::spectrum() const {
  return kind == TransformKind::c2c ? size : Extents{size.nx / 2 + 1, size.ny, size.nz};
}
Extents SlabDecomposition::z_slab() const { return {spectrum().nx, size.ny, size.nz / gpus}; }
Extents SlabDecomposition::y_slab() const { return {spectrum().nx, size.ny / gpus, size.nz}; }
std::int64_t SlabDecomposition::local_elements() const { return z_slab().elements(); }
std::int64_t SlabDecomposition::local_reals(bool in_place) const {
  return in_place ? 2 * local_elements() : size.elements() / gpus;
}

namespace {

// One range of values that GPU `from` sends GPU `to`: `count` values at `source` of the sender's buffer, landing at
// `target` of the receiver's.
struct PairBlock {
  std::int64_t source = 0;
  std::int64_t target = 0;
  std::int64_t count = 0;
};

// Z slabs -> y slabs: plane z of the sender's slab holds, at z*plane + to*block, the block of rows that the
// receiver's y slab holds at plane from*planes + z. Y slabs -> z slabs: the mirror. One block per plane, in plane
// order; consecutive blocks contiguous on both sides merge (at G = 1 the whole volume is one block), so that the
// sender's and the receiver's lists are cut alike.
std::vector<PairBlock> pair_blocks(const SlabDecomposition& d, int from, int to, bool to_y_slabs) {
  const std::int64_t plane = d.spectrum().nx * d.size.ny;
  const std::int64_t block = plane / d.gpus;
  const std::int64_t planes = d.size.nz / d.gpus;
  std::vector<PairBlock> blocks;
  for (std::int64_t z = 0; z < planes; ++z) {
    const PairBlock next = to_y_slabs ? PairBlock{z * plane + to * block, (from * planes + z) * block, block}
                                      : PairBlock{(to * planes + z) * block, z * plane + from * block, block};
    PairBlock* last = blocks.empty() ? nullptr : &blocks.back();
    if (last && last->source + last->count == next.source && last->target + last->count == next.target)
      last->count += next.count;
    else
      blocks.push_back(next);
  }
  return blocks;
}

}  // namespace

std::vector<ExchangeBlock> exchange_sends(const SlabDecomposition& d, int rank, bool to_y_slabs) {
  std::vector<ExchangeBlock> sends;
  for (int peer = 0; peer < d.gpus; ++peer)
    for (const PairBlock& b : pair_blocks(d, rank, peer, to_y_slabs))
      sends.push_back({.peer = peer, .offset = b.source, .count = b.count});
  return sends;
}

std::vector<ExchangeBlock> exchange_receives(const SlabDecomposition& d, int rank, bool to_y_slabs) {
  std::vector<ExchangeBlock> receives;
  for (int peer = 0; peer < d.gpus; ++peer)
    for (const PairBlock& b : pair_blocks(d, peer, rank, to_y_slabs))
      receives.push_back({.peer = peer, .offset = b.target, .count = b.count});
  return receives;
}

std::int64_t volume_index(const SlabDecomposition& d, SlabLayout layout, int gpu, std::int64_t local) {
  if (layout == SlabLayout::natural) return gpu * d.local_elements() + local;
  const Extents y = d.y_slab();
  const std::int64_t x = local % y.nx, row = local / y.nx % y.ny, z = local / (y.nx * y.ny);
  return x + y.nx * (gpu * y.ny + row + d.size.ny * z);
}

}  // namespace fft3d
