// Rule: 64-byte X runs where they keep a tile in one block, or halve a tile that fills 8 blocks and crosses them in a
// radix-8 or radix-16 pass. A kernel with no X stage holds one 16-element (128-byte) X run behind its Y and Z
// lines; when that tile is over one block's shared memory (part_bytes_limit) and the same lines behind 8 X (64 bytes)
// fit, a profile with narrow_x_run_bytes takes the 8: a one-block tile, whose passes all stay in the block and reach
// global memory themselves, instead of a tile spread over 2 blocks whose first pass writes the other block's shared
// memory. The blocks holding the two halves of a 128-byte line are consecutive (X tiles are walked first), and every
// access still covers whole 64-byte runs (KernelSpec::x_run_elements, which the coalescing checker reads).
// Why (bench/NOTES.md, version 21): on an H100 a tile copy of 64-byte runs took 1.03 (along Y) to 1.08 (along Z)
// times the time of 128-byte runs, where kernels spread over 2 blocks take 1.24-1.39 times their copy twins; 32-byte
// runs cost 1.11 and 16-byte runs 2.5-4, so runs narrow only to 64 bytes, and only where one block then holds the
// tile (but for version 27's tiles, below). Not for Z lines of 512 or more planes: 2048^3's Z kernel took
// 63.0 ms narrowed against 62.7 spread, and the 7 sizes off the table whose default plan took a narrowed kernel of
// 512-1024 Z planes took 1.017 of their time (geometric mean; 5 slower by 2-10%, 2 faster); with 256 planes 256^3
// took 0.91 and the 2 such sizes off the table 0.91-0.93. Version 22 measured 32-byte runs in kernels: they ran at
// 1.49-1.56 floors (their copy twins at 1.28), the time of the 4-block spreads they replaced (256x512x512 0.954-0.956
// ms against 0.955-0.958, 1024x256x256 0.924-0.934 against 0.918), so runs stop at 64 bytes
// (bench/experiments/narrow-32/narrow-32-byte-runs.patch).
// Version 27: a tile that fills a cluster of the portable maximum (8 blocks of 128 KB) and whose first sub-computation
// is radix 8 narrows too, and spreads over 4 blocks. Those are the {Z 8, Y 1024} second tiles of Z splits: on an H100
// their kernels took 2-7% less time on 8 of the 9 sizes that have them (64x1024x1024 +-1%), measured in three calls
// (128x1024x1024's transform 2.04 -> 1.96 ms, in place 2.28 -> 2.20). Nsight Compute: fewer membar and global-memory
// stalls and DRAM 52 -> 57% of peak; 3/4 of the crossing pass's stores leave the block instead of 7/8, and each
// cluster barrier waits for 4 blocks, not 8 (the multiprocessors in use do not change: 30 clusters of 4 or 15 of 8,
// 120 of 132). The {Z 16, Y 512} tiles over 8 blocks did not gain then (512^3 and 1024x512x256 +-0.7%, 256x512x1024
// 2-4% slower), nor did 4-block tiles going to 2 (-1%, +3%).
// Version 28: spread tiles take parts of 64 KB, two blocks a multiprocessor (distribute_tile.cpp), so a narrowed
// 1 MB tile goes over 8 blocks again. In that form the {Z 16, Y 512} tiles narrow too: their kernels took 3-5.5% less
// time than at 128-byte runs over 8 blocks of 128 KB (512^3 1.08 -> 1.02 ms), where 1 MB over 16 blocks of 64 KB
// (the non-portable cluster) gained nothing. 512 KB tiles keep 128-byte runs (8 blocks of 64 KB already), and tiles
// crossed first in other radices (the {Z 4, Y 2048} of sizes with a 2048-point axis) were not measured.
#include "lowering_rules.hpp"

namespace fft3d::lowering {

void narrow_x_runs(KernelSpec& spec, const Kernel& kernel, const ArchProfile& profile) {
  const std::int64_t narrow = profile.narrow_x_run_bytes / 8;  // complex fp32 values
  AxisTile& x = spec.axes[axis_index(Axis::x)];
  const bool one_run = x.tile == std::vector<TileMode>{{spec.x_run_elements, 1}};
  if (narrow <= 0 || narrow >= spec.x_run_elements || !one_run || x.length < spec.x_run_elements) return;
  for (const SubComputation& sub : kernel.subs)
    if (sub.axis == Axis::x) return;
  if (spec.axes[axis_index(Axis::z)].extent() >= 512) return;
  const std::int64_t limit = part_bytes_limit(profile);
  const std::int64_t factor = spec.x_run_elements / narrow;  // tiles per old tile, each holding 1/factor of it
  if (spec.tile_elements * 8 <= limit) return;
  const bool fits_one_block = spec.tile_elements / factor * 8 <= limit;
  const std::int64_t first_radix = kernel.subs.front().radix;
  const bool fills_a_cluster = spec.tile_elements * 8 == limit * profile.max_cluster_size &&
                               (first_radix == 8 || first_radix == 16);
  if (!fits_one_block && !fills_a_cluster) return;
  x.tile = {{narrow, 1}};
  x.grid = {{x.length / narrow, narrow}};
  spec.tile_elements /= factor;
  spec.tiles *= factor;
  spec.x_run_elements = narrow;
}

}  // namespace fft3d::lowering
