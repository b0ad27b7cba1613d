// Rule: natural order. The DIF stages leave each axis digit-reversed. When one kernel holds every stage of an axis
// its tile holds the whole axis, so the store permutes inside the tile; otherwise a digit-reversal pass runs after
// the last kernel (through a workspace) and explain says so.
#include "fft3d/index_maps.hpp"
#include "lowering_rules.hpp"

namespace fft3d::lowering {
namespace {

bool kernel_holds_every_stage(const Plan& plan, const Kernel& kernel, Axis axis) {
  std::size_t here = 0;
  for (const SubComputation& sub : kernel.subs) here += sub.axis == axis;
  return here > 0 && here == stages_of(plan, axis).size();
}

bool kernel_holds_any_stage(const Kernel& kernel, Axis axis) {
  for (const SubComputation& sub : kernel.subs)
    if (sub.axis == axis) return true;
  return false;
}

}  // namespace

void mark_in_tile_reversals(const Plan& plan, const Kernel& kernel, KernelSpec& spec) {
  for (Axis axis : all_axes) {
    std::vector<std::int64_t> radices = radices_of(plan, axis);
    if (radices.size() > 1 && kernel_holds_every_stage(plan, kernel, axis))
      spec.axes[axis_index(axis)].reversal_radices = std::move(radices);
  }
}

std::optional<KernelSpec> digit_reversal_pass(const Plan& plan, const KernelSpec& model) {
  KernelSpec pass = model;
  pass.role = KernelRole::digit_reversal;
  pass.kernel_index = static_cast<int>(plan.kernels.size());
  pass.kernel = {};
  pass.axes = {};
  pass.stages = {};
  pass.shared = {};
  pass.shared_bytes = 0;
  pass.tile_elements = 0;
  pass.nominal_flops = 0;
  bool needed = false;
  for (Axis axis : all_axes) {
    std::vector<std::int64_t> radices = radices_of(plan, axis);
    bool in_one_kernel = false;
    for (const Kernel& kernel : plan.kernels) in_one_kernel |= kernel_holds_every_stage(plan, kernel, axis);
    bool any = false;
    for (const Kernel& kernel : plan.kernels) any |= kernel_holds_any_stage(kernel, axis);
    if (radices.size() > 1 && any && !in_one_kernel) {
      pass.reorder_radices[axis_index(axis)] = std::move(radices);
      needed = true;
    }
  }
  if (!needed) return std::nullopt;
  pass.threads = 256;  // a gather, one thread per element: no tile, so the profile's block size does not apply
  pass.blocks = (plan.size.elements() + pass.threads - 1) / pass.threads;
  return pass;
}

}  // namespace fft3d::lowering
