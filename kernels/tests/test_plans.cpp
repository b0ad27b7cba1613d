#include "test_plans.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <random>

#include "fft3d/arch_profile.hpp"
#include "lowering/kernel_spec.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::testing {

void PrintTo(const NamedPlan& named, std::ostream* out) { *out << named.name; }

std::vector<NamedPlan> shipped_plans() {
  std::vector<NamedPlan> plans;
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (const TableEntry& entry : table_entries(arch))
      plans.push_back({entry.arch + "/" + std::filesystem::path(entry.path).filename().string(),
                       load_plan_file(entry.path).plan});
  return plans;
}

std::vector<NamedPlan> shipped_real_plans() {
  std::vector<NamedPlan> plans;
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (const TableEntry& entry : table_entries(arch, std::nullopt))
      if (entry.kind != TransformKind::c2c)
        plans.push_back({entry.arch + "/" + std::filesystem::path(entry.path).filename().string(),
                         load_plan_file(entry.path).plan});
  return plans;
}

std::vector<NamedPlan> random_plans(int count, std::uint64_t seed, std::int64_t max_length, const std::string& arch) {
  const validate::RandomPlanLimits limits{.max_axis_length = max_length,
                                          .max_elements = max_length * max_length * max_length,
                                          .max_radix = std::min<std::int64_t>(max_length, 64),
                                          .arch = arch};
  std::mt19937_64 random(seed);
  std::vector<NamedPlan> plans;
  for (int i = 0; i < count; ++i) {
    Plan plan = validate::random_legal_plan(random, limits);
    std::string name = "random " + std::to_string(i) + " " + to_string(plan.size) + " " + to_brace_string(plan.kernels);
    plans.push_back({std::move(name), std::move(plan)});
  }
  return plans;
}

std::vector<NamedPlan> gpu_random_plans(int count, std::int64_t max_length) {
  std::vector<NamedPlan> plans;
  std::uint64_t seed = 23;  // one per profile: the same seed would give each profile the same sizes and stages
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (NamedPlan& named : random_plans(count, seed++, max_length, arch)) {
      try {
        lower_plan(named.plan, *find_arch_profile(arch));
        plans.push_back(std::move(named));
      } catch (const LoweringError&) {
        // A tile over the profile's shared memory: not a plan this profile runs.
      }
    }
  return plans;
}

std::optional<LoweredPlan> lower_if_it_fits(const NamedPlan& named) {
  try {
    return lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name);
  } catch (const LoweringError&) {
    return std::nullopt;
  }
}

}  // namespace fft3d::testing

namespace fft3d::testing {

std::vector<NamedPlan> distributed_tile_plans() {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"64, 512, 4", {"X(1, 64, 1, 64, no-tw), Y(1, 512, 1, 512, no-tw)", "Z(1, 4, 1, 4, no-tw)"}},
      {"512, 512, 4",
       {"X(32, 16, 32, 512, tw), Y(1, 512, 1, 512, no-tw)", "X(16, 32, 1, 32, no-tw), Z(1, 4, 1, 4, no-tw)"}},
      {"16, 2048, 8", {"X(1, 16, 1, 16, no-tw), Y(1, 2048, 1, 2048, no-tw)", "Z(1, 8, 1, 8, no-tw)"}},
      {"256, 64, 512",
       {"X(64, 4, 64, 256, tw), Y(1, 64, 1, 64, no-tw)", "X(4, 64, 1, 64, no-tw), Z(1, 512, 1, 512, no-tw)"}},
  };
  std::vector<NamedPlan> plans;
  for (const auto& [size, kernels] : cases) {
    std::string text = "size: [" + size + "]\narch: hopper\nkernels:\n";
    for (const std::string& kernel : kernels) text += "  - \"" + kernel + "\"\n";
    plans.push_back({"distributed " + size, parse_plan(text).plan});
  }
  return plans;
}

}  // namespace fft3d::testing
