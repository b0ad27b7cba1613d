#include "test_plans.hpp"

#include <algorithm>
#include <array>
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

namespace fft3d::testing {

// The stages of an n-point axis with `radices` (DIF order), as plan text: span_1 = n, stride = span / radix.
std::vector<std::string> axis_stages(char axis, std::int64_t n, const std::vector<std::int64_t>& radices) {
  std::vector<std::string> stages;
  std::int64_t span = n;
  for (std::int64_t radix : radices) {
    const std::int64_t stride = span / radix;
    stages.push_back(std::string(1, axis) + "(" + std::to_string(n / radix) + ", " + std::to_string(radix) + ", " +
                     std::to_string(stride) + ", " + std::to_string(span) + ", " + (stride > 1 ? "tw" : "no-tw") +
                     ")");
    span = stride;
  }
  return stages;
}

namespace {

// One axis's stages [first, first + count) of a kernel.
struct Part {
  char axis;
  std::size_t first, count;
};

struct MixedCase {
  std::array<std::int64_t, 3> size;
  std::vector<std::int64_t> x, y, z;  // the radices of each axis
  std::vector<std::vector<Part>> kernels;
};

NamedPlan make_plan(const MixedCase& c, const std::string& arch = "hopper") {
  std::string text = "size: [" + std::to_string(c.size[0]) + ", " + std::to_string(c.size[1]) + ", " +
                     std::to_string(c.size[2]) + "]\narch: " + arch + "\nkernels:\n";
  for (const std::vector<Part>& kernel : c.kernels) {
    std::string subs;
    for (const Part& part : kernel) {
      const int a = part.axis - 'X';
      const std::vector<std::string> stages = axis_stages(part.axis, c.size[a], a == 0 ? c.x : a == 1 ? c.y : c.z);
      for (std::size_t s = part.first; s < part.first + part.count; ++s) subs += (subs.empty() ? "" : ", ") + stages[s];
    }
    text += "  - \"" + subs + "\"\n";
  }
  const Plan plan = parse_plan(text).plan;
  return {to_string(plan.size) + " " + to_brace_string(plan.kernels), plan};
}

}  // namespace

// Small plans of every structure the power-of-two plans use, with radices 3, 5, 7 and their products.
std::vector<NamedPlan> mixed_radix_plans() {
  const std::vector<Part> x_all{{'X', 0, 2}}, y_all{{'Y', 0, 2}}, z_all{{'Z', 0, 2}};
  std::vector<MixedCase> cases = {
      // {X, Y} {Z}: every axis in one kernel, natural order in the tile.
      {{12, 10, 9}, {4, 3}, {2, 5}, {3, 3}, {{x_all[0], y_all[0]}, {z_all[0]}}},
      // {X}{Y}{Z}, one stage a kernel: the whole radix in one stage.
      {{12, 10, 9}, {12}, {10}, {9}, {{{'X', 0, 1}}, {{'Y', 0, 1}}, {{'Z', 0, 1}}}},
      // {X first stage, Y} {X rest, Z}: X split between kernels (a cluster or the reorder pass).
      {{24, 18, 15}, {3, 8}, {6, 3}, {5, 3}, {{{'X', 0, 1}, y_all[0]}, {{'X', 1, 1}, z_all[0]}}},
      // {X, Y first stage} {Y rest, Z}: Y split between kernels (the hopper tables' sorted layout).
      {{24, 18, 15}, {8, 3}, {6, 3}, {15}, {{x_all[0], {'Y', 0, 1}}, {{'Y', 1, 1}, {'Z', 0, 1}}}},
      // A 100-point X row (not a multiple of 16: whole rows) and radix 25 (split on hopper: 5 x 5).
      {{100, 6, 7}, {4, 25}, {6}, {7}, {{{'X', 0, 1}, {'Y', 0, 1}}, {{'X', 1, 1}, {'Z', 0, 1}}}},
      // Three kernels with Z split, larger: 48 x 36 x 20.
      {{48, 36, 20}, {16, 3}, {36}, {4, 5},
       {{x_all[0], {'Y', 0, 1}}, {{'Z', 0, 1}}, {{'Z', 1, 1}}}},
      // Powers of two mixed with odd factors on one axis: 96 = 32 x 3 (radix 32 split), 7 x 5 rows.
      {{96, 7, 5}, {32, 3}, {7}, {5}, {{{'X', 0, 2}, {'Y', 0, 1}}, {{'Z', 0, 1}}}},
  };
  std::vector<NamedPlan> plans;
  for (const MixedCase& c : cases) {
    plans.push_back(make_plan(c));
    plans.push_back(make_plan(c, "fermi"));
  }
  return plans;
}

// The benchmark sizes in the hopper tables' structure: the first kernel takes whole X rows and the first stage(s)
// of Y, the next the rest of Y and Z (a third kernel where a 128 KB block cannot hold the second's tile), and the
// two-kernel forms of 243^3, 384^3, 480^3 and 768^3, whose tiles are spread over a cluster by a part digit.
std::vector<NamedPlan> mixed_bench_plans() {
  const std::vector<Part> x{{'X', 0, 1}}, y{{'Y', 0, 1}}, z{{'Z', 0, 1}};
  const auto cube = [](std::int64_t n) { return std::array<std::int64_t, 3>{n, n, n}; };
  const std::vector<std::vector<Part>> two{{x[0], y[0]}, {z[0]}};
  const std::vector<std::vector<Part>> y_split{{x[0], {'Y', 0, 1}}, {{'Y', 1, 1}, {'Z', 0, 1}}};
  const std::vector<std::vector<Part>> z_split{{x[0], {'Z', 0, 1}}, {{'Z', 1, 1}, {'Y', 0, 1}}};
  const std::vector<std::vector<Part>> three{{x[0], {'Y', 0, 1}}, {{'Y', 1, 1}, {'Z', 0, 1}}, {{'Z', 1, 1}}};
  const std::vector<MixedCase> cases = {
      {cube(96), {96}, {96}, {96}, two},
      {cube(100), {100}, {100}, {100}, two},
      {cube(100), {4, 25}, {100}, {100}, {{{'X', 0, 1}, y[0]}, {{'X', 1, 1}, z[0]}}},
      {cube(120), {120}, {120}, {120}, two},
      // Z split, so that the Z kernels' tiles hold whole X rows and the Y rows that end on a segment boundary.
      {cube(100), {100}, {100}, {10, 10}, {{x[0], y[0]}, {{'Z', 0, 1}}, {{'Z', 1, 1}}}},
      {cube(120), {120}, {120}, {12, 10}, {{x[0], y[0]}, {{'Z', 0, 1}}, {{'Z', 1, 1}}}},
      {cube(192), {192}, {24, 8}, {192}, y_split},
      {cube(240), {240}, {30, 8}, {240}, y_split},
      {cube(243), {243}, {27, 9}, {27, 9}, three},
      {cube(384), {384}, {24, 16}, {24, 16}, three},
      // (480^3 and 768^3 in this three-kernel form, Y and Z split 30 x 16 and 12 x 64, ran correctly on an H100 but
      // spill 12-24 B in the kernel with the whole X line: they are left out, as no shipped kernel spills.)
      // Two kernels in the 512^3 table's structure, {X, Z first stage} then {Z rest, Y}: the second tile (16 X x
      // 8 Z x Y, and 768's first, 768 X x 96 Z) spread over a cluster by a part digit. (Z radix 16 last: 384's
      // second kernel spills.)
      {cube(384), {384}, {384}, {48, 8}, z_split},
      {cube(768), {768}, {768}, {96, 8}, z_split},
      // {X, Y} then {Z} with whole 243-value X rows: both tiles of 3^10 values spread over clusters of 9 (opt-in).
      {cube(243), {243}, {243}, {243}, two},
      // {X, Y} then {Z} of 343: the plane of 7^6 values spread over 7 blocks of 134 KB, over the power-of-two part
      // limit (distribute_tile.cpp: no cluster divides it within 128 KB).
      {cube(343), {343}, {343}, {343}, two},
      // {X first stage, Y} then {X rest, Z}: 480's first tile (15 runs of 16 X values x Y 480) spread over 8.
      // (The Z split 30 x 16 or 60 x 8 spills.)
      {cube(480), {15, 32}, {480}, {480}, {{x[0], y[0]}, {{'X', 1, 1}, z[0]}}},
  };
  std::vector<NamedPlan> plans;
  for (const MixedCase& c : cases) plans.push_back(make_plan(c));
  return plans;
}

}  // namespace fft3d::testing
