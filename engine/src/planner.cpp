#include "fft3d/planner.hpp"

#include <bit>
#include <regex>

#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"

namespace fft3d {
namespace {

int log2_of(std::int64_t n) { return std::countr_zero(static_cast<std::uint64_t>(n)); }

int stages_needed(std::int64_t n, std::int64_t max_radix) {
  if (n == 1) return 0;
  const int bits = log2_of(n), per_stage = log2_of(max_radix);
  return (bits + per_stage - 1) / per_stage;
}

}  // namespace

PlannerLimits planner_limits(const ArchProfile& profile) {
  // Tesla and Fermi: the paper's register radices (16/32 along Y and Z, 2-8 along X). Hopper: a whole 256-point Y
  // or Z line inside one block (DESIGN.md: two passes for 256^3), and larger X radices through shared memory.
  if (profile.name == "tesla") return {16, 8};
  if (profile.name == "fermi") return {32, 8};
  return {256, 64};
}

std::vector<std::int64_t> balanced_radices(std::int64_t n, int stages) {
  const int bits = log2_of(n);
  std::vector<std::int64_t> radices;
  for (int s = 0; s < stages; ++s) {
    const int stage_bits = bits / stages + (s < bits % stages ? 1 : 0);
    radices.push_back(std::int64_t{1} << stage_bits);
  }
  return radices;
}

std::vector<SubComputation> dif_stages(Axis axis, std::int64_t n, const std::vector<std::int64_t>& radices) {
  std::vector<SubComputation> stages;
  std::int64_t span = n;
  for (std::int64_t radix : radices) {
    const std::int64_t stride = span / radix;
    stages.push_back({axis, n / radix, radix, stride, span, stride > 1});
    span = stride;
  }
  return stages;
}

Plan default_plan(const Extents& size, const std::string& arch) {
  const std::optional<ArchProfile> profile = find_arch_profile(arch);
  if (!profile) throw UsageError("unknown arch '" + arch + "': expected one of " + arch_profile_names());
  for (Axis axis : all_axes)
    if (size[axis] <= 0 || (size[axis] & (size[axis] - 1)) != 0)
      throw UsageError("size " + to_string(size) + ": the " + std::string(1, axis_letter(axis)) +
                       " length is not a power of two");
  const PlannerLimits limits = planner_limits(*profile);

  Plan plan{size, arch, {}};
  for (Axis axis : {Axis::y, Axis::z}) {
    const std::int64_t n = size[axis];
    for (const SubComputation& stage : dif_stages(axis, n, balanced_radices(n, stages_needed(n, limits.max_yz_radix))))
      plan.kernels.push_back({{stage}});
  }
  // X: at least as many stages as its radix limit needs; more (smaller) ones so that each Y/Z kernel carries one.
  const std::int64_t nx = size.nx;
  const int x_stages = std::min(std::max(stages_needed(nx, limits.max_x_radix), static_cast<int>(plan.kernels.size())),
                                nx == 1 ? 0 : log2_of(nx));
  const std::vector<SubComputation> x = dif_stages(Axis::x, nx, balanced_radices(nx, x_stages));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i < plan.kernels.size()) {
      plan.kernels[i].subs.insert(plan.kernels[i].subs.begin(), x[i]);
    } else {
      plan.kernels.push_back({{x[i]}});
    }
  }
  if (plan.kernels.empty()) {
    // A 1x1x1 volume: nothing to transform, but a plan needs a kernel; no legal plan exists.
    throw UsageError("size 1x1x1 has no stage to plan: every axis has length 1");
  }
  require_legal(plan);
  return plan;
}

Extents parse_extents(const std::string& text) {
  static const std::regex pattern(R"(^\s*(\d{1,18})\s*[xX]\s*(\d{1,18})\s*[xX]\s*(\d{1,18})\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, pattern))
    throw UsageError("size '" + text + "': expected NXxNYxNZ, e.g. 256x256x256");
  return {std::stoll(m[1]), std::stoll(m[2]), std::stoll(m[3])};
}

}  // namespace fft3d
