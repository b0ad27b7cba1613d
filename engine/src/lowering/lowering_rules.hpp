// The rules lowering applies, one per file. Each takes the plan kernel (and what earlier rules decided) and returns
// one part of a KernelSpec.
#pragma once

#include <optional>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/kernel_spec.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::lowering {

// axis_tiling.cpp: the tile and grid modes of one axis for this kernel (the Tile rule of kernel_spec.hpp).
AxisTile tile_axis(const Plan& plan, const Kernel& kernel, Axis axis);

// tile_stages.cpp: each sub-computation with the tile-linear step between its butterfly inputs.
std::vector<TileStage> tile_stages(const KernelSpec& spec, const Kernel& kernel);

// natural_order.cpp: the radices each axis needs reversed, and where: inside the tile of the kernel that holds
// every stage of the axis, otherwise in the digit-reversal pass.
void mark_in_tile_reversals(const Plan& plan, const Kernel& kernel, KernelSpec& spec);
std::optional<KernelSpec> digit_reversal_pass(const Plan& plan, const KernelSpec& model);

// split_radix.cpp: radices over the profile's in-register limit, split into balanced power-of-two passes
// (product = radix, each <= limit; one entry when radix <= limit) and recorded on the stages that need them.
std::vector<std::int64_t> split_radices(std::int64_t radix, std::int64_t limit);
void split_large_radices(std::vector<TileStage>& stages, std::int64_t limit);

// block_threads.cpp: the block size: the profile's, raised for kernels with split stages whose tiles would leave a
// thread too many elements.
int block_threads(const KernelSpec& spec, const ArchProfile& profile);

// shared_layout.cpp: the padding or swizzle with the fewest bank conflicts (ties: fewer words).
SharedLayout choose_shared_layout(const KernelSpec& spec, const ArchProfile& profile);

// flops.cpp: nominal flop count of the kernel over the whole volume.
double nominal_flops(const KernelSpec& spec);

}  // namespace fft3d::lowering
