#include "validate/random_plans.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/diagnostics.hpp"

namespace fft3d::validate {
namespace {

int log2_of(std::int64_t power_of_two) { return std::countr_zero(static_cast<std::uint64_t>(power_of_two)); }

std::int64_t uniform(std::mt19937_64& random, std::int64_t low, std::int64_t high) {
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

// Axis lengths 2^a, 2^b, 2^c with every exponent <= max_axis_log2, a + b + c <= max_log2 and a + b + c > 0:
// drawn uniformly among the allowed triples by rejection.
std::array<int, 3> random_log2_lengths(std::mt19937_64& random, int max_axis_log2, int max_log2) {
  for (;;) {
    std::array<int, 3> exponents{};
    for (int& e : exponents) e = static_cast<int>(uniform(random, 0, max_axis_log2));
    const int total = exponents[0] + exponents[1] + exponents[2];
    if (total > 0 && total <= max_log2) return exponents;
  }
}

// A random ordered split of 2^log2_length into power-of-two radices >= 2, each <= 2^max_radix_log2: each next
// radix's exponent is uniform among those that fit what is left (cutting at each gap with probability 1/2 instead
// would make radices of 32 and 64 rare).
std::vector<std::int64_t> random_radices(std::mt19937_64& random, int log2_length, int max_radix_log2) {
  std::vector<std::int64_t> radices;
  for (int left = log2_length; left > 0;) {
    const int exponent = static_cast<int>(uniform(random, 1, std::min(left, max_radix_log2)));
    radices.push_back(std::int64_t{1} << exponent);
    left -= exponent;
  }
  return radices;
}

// A uniformly random merge of the axes' stage lists that keeps each list's order: each next stage comes from an
// axis chosen with probability proportional to its remaining stages.
std::vector<SubComputation> random_interleaving(std::mt19937_64& random,
                                                std::array<std::vector<SubComputation>, 3> chains) {
  std::vector<SubComputation> merged;
  std::array<std::size_t, 3> next{0, 0, 0};
  std::int64_t remaining = 0;
  for (const auto& chain : chains) remaining += static_cast<std::int64_t>(chain.size());
  for (; remaining > 0; --remaining) {
    std::int64_t pick = uniform(random, 0, remaining - 1);
    for (std::size_t a = 0; a < chains.size(); ++a) {
      const auto left = static_cast<std::int64_t>(chains[a].size() - next[a]);
      if (pick < left) {
        merged.push_back(chains[a][next[a]++]);
        break;
      }
      pick -= left;
    }
  }
  return merged;
}

// Cuts the sequence into non-empty kernels, at each gap with a per-plan probability (from one kernel per stage to
// all stages in one kernel).
std::vector<Kernel> random_kernels(std::mt19937_64& random, const std::vector<SubComputation>& sequence) {
  const double cut_probability = std::uniform_real_distribution<double>(0.0, 1.0)(random);
  std::vector<Kernel> kernels(1);
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    if (i > 0 && std::uniform_real_distribution<double>(0.0, 1.0)(random) < cut_probability) kernels.emplace_back();
    kernels.back().subs.push_back(sequence[i]);
  }
  return kernels;
}

bool is_power_of_two(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

bool limits_are_valid(const RandomPlanLimits& limits) {
  const bool radix_ok = limits.max_radix == 0 || (is_power_of_two(limits.max_radix) && limits.max_radix >= 2);
  return is_power_of_two(limits.max_axis_length) && limits.max_axis_length >= 2 &&
         is_power_of_two(limits.max_elements) && limits.max_elements >= 2 && radix_ok;
}

}  // namespace

std::vector<std::vector<std::int64_t>> all_radix_splits(std::int64_t length) {
  if (length == 1) return {{}};
  std::vector<std::vector<std::int64_t>> splits;
  for (std::int64_t first = 2; first <= length; first *= 2)
    for (std::vector<std::int64_t> rest : all_radix_splits(length / first)) {
      rest.insert(rest.begin(), first);
      splits.push_back(std::move(rest));
    }
  return splits;
}

Plan random_legal_plan(std::mt19937_64& random, const RandomPlanLimits& limits) {
  if (!limits_are_valid(limits))
    throw UsageError(
        "random_legal_plan: the length, element count and radix limits must be powers of two, at least 2");
  if (!limits.arch.empty() && !find_arch_profile(limits.arch))
    throw UsageError("random_legal_plan: unknown arch '" + limits.arch + "' (known: " + arch_profile_names() + ")");
  const int max_axis_log2 = log2_of(limits.max_axis_length);
  const int max_radix_log2 = limits.max_radix == 0 ? max_axis_log2 : log2_of(limits.max_radix);
  const std::array<int, 3> exponents = random_log2_lengths(random, max_axis_log2, log2_of(limits.max_elements));

  Plan plan;
  plan.size = {std::int64_t{1} << exponents[0], std::int64_t{1} << exponents[1], std::int64_t{1} << exponents[2]};
  if (limits.arch.empty()) {
    const std::vector<ArchProfile>& profiles = arch_profiles();
    const std::int64_t arch_choice = uniform(random, 0, static_cast<std::int64_t>(profiles.size()) - 1);
    plan.arch = profiles[static_cast<std::size_t>(arch_choice)].name;
  } else {
    plan.arch = limits.arch;
  }
  std::array<std::vector<SubComputation>, 3> chains;
  for (Axis axis : all_axes) {
    const int a = axis_index(axis);
    chains[a] = dif_stages(axis, plan.size[axis], random_radices(random, exponents[a], max_radix_log2));
  }
  plan.kernels = random_kernels(random, random_interleaving(random, std::move(chains)));
  return plan;
}

}  // namespace fft3d::validate
