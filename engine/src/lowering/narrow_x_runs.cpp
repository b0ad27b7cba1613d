// Rule: 64-byte X runs where they keep a tile in one block. A kernel with no X stage holds one 16-element (128-byte)
// X run behind its Y and Z lines; when that tile is over one block's shared memory (part_bytes_limit) and the same
// lines behind 8 X (64 bytes) fit, a profile with narrow_x_run_bytes takes the 8: a one-block tile, whose passes all
// stay in the block and reach global memory themselves, instead of a tile spread over 2 blocks whose first pass
// writes the other block's shared memory. The blocks holding the two halves of a 128-byte line are consecutive (X
// tiles are walked first), and every access still covers whole 64-byte runs (KernelSpec::x_run_elements, which the
// coalescing checker reads).
// Why (bench/NOTES.md, version 21): on an H100 a tile copy of 64-byte runs took 1.03 (along Y) to 1.08 (along Z)
// times the time of 128-byte runs, where kernels spread over 2 blocks take 1.24-1.39 times their copy twins; 32-byte
// runs cost 1.11 and 16-byte runs 2.5-4, so runs narrow only to 64 bytes, and only where one block then holds the
// tile (a 4- or 8-block spread would stay spread). Not for Z lines of 512 or more planes: 2048^3's Z kernel took
// 63.0 ms narrowed against 62.7 spread, and the 7 sizes off the table whose default plan took a narrowed kernel of
// 512-1024 Z planes took 1.017 of their time (geometric mean; 5 slower by 2-10%, 2 faster); with 256 planes 256^3
// took 0.91 and the 2 such sizes off the table 0.91-0.93. Version 22 measured 32-byte runs in kernels: they ran at
// 1.49-1.56 floors (their copy twins at 1.28), the time of the 4-block spreads they replaced (256x512x512 0.954-0.956
// ms against 0.955-0.958, 1024x256x256 0.924-0.934 against 0.918), so runs stop at 64 bytes
// (bench/experiments/narrow-32/narrow-32-byte-runs.patch).
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
  if (spec.tile_elements * 8 <= limit || spec.tile_elements / factor * 8 > limit) return;
  x.tile = {{narrow, 1}};
  x.grid = {{x.length / narrow, narrow}};
  spec.tile_elements /= factor;
  spec.tiles *= factor;
  spec.x_run_elements = narrow;
}

}  // namespace fft3d::lowering
