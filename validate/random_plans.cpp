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

// What a drawn size must allow: c2c volumes have at least one stage; a real volume has NX >= 2 and at least one
// stage besides its real step (X stages chain over NX/2).
struct SizeFloor {
  int min_x_log2 = 0;
  int min_total_log2 = 1;
};
constexpr SizeFloor complex_floor{0, 1};
constexpr SizeFloor real_floor{1, 2};

// Axis lengths 2^a, 2^b, 2^c with every exponent <= max_axis_log2, a + b + c <= max_log2, a >= floor.min_x_log2
// and a + b + c >= floor.min_total_log2: drawn uniformly among the allowed triples by rejection.
std::array<int, 3> random_log2_lengths(std::mt19937_64& random, int max_axis_log2, int max_log2, SizeFloor floor) {
  for (;;) {
    std::array<int, 3> exponents{};
    for (int& e : exponents) e = static_cast<int>(uniform(random, 0, max_axis_log2));
    const int total = exponents[0] + exponents[1] + exponents[2];
    if (exponents[0] >= floor.min_x_log2 && total >= floor.min_total_log2 && total <= max_log2) return exponents;
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

void require_valid(const RandomPlanLimits& limits, std::int64_t min_elements) {
  if (!limits_are_valid(limits) || limits.max_elements < min_elements)
    throw UsageError("random_legal_plan: the length, element count and radix limits must be powers of two, at least "
                     "2 (a real plan's element count at least 4)");
  if (!limits.arch.empty() && !find_arch_profile(limits.arch))
    throw UsageError("random_legal_plan: unknown arch '" + limits.arch + "' (known: " + arch_profile_names() + ")");
}

std::string random_arch(std::mt19937_64& random, const RandomPlanLimits& limits) {
  if (!limits.arch.empty()) return limits.arch;
  const std::vector<ArchProfile>& profiles = arch_profiles();
  const std::int64_t arch_choice = uniform(random, 0, static_cast<std::int64_t>(profiles.size()) - 1);
  return profiles[static_cast<std::size_t>(arch_choice)].name;
}

int max_radix_log2_of(const RandomPlanLimits& limits) {
  return limits.max_radix == 0 ? log2_of(limits.max_axis_length) : log2_of(limits.max_radix);
}

// Puts `step` before sub `position` of the kernels' whole sequence: inside the kernel that holds that gap, or, where
// the gap is a boundary between kernels, at the end of the first or the start of the second (drawn at random).
void place_real_step(std::mt19937_64& random, std::vector<Kernel>& kernels, const RealStep& step,
                     std::size_t position) {
  std::vector<std::pair<std::size_t, std::size_t>> places;  // (kernel, position in it)
  std::size_t start = 0;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const std::size_t length = kernels[k].subs.size();
    if (start <= position && position <= start + length) places.emplace_back(k, position - start);
    start += length;
  }
  const std::int64_t choice = uniform(random, 0, static_cast<std::int64_t>(places.size()) - 1);
  const auto [k, at] = places[static_cast<std::size_t>(choice)];
  kernels[k].real = step;
  kernels[k].real_position = at;
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
  require_valid(limits, 2);
  const int max_radix_log2 = max_radix_log2_of(limits);
  const std::array<int, 3> exponents = random_log2_lengths(random, log2_of(limits.max_axis_length),
                                                           log2_of(limits.max_elements), complex_floor);
  Plan plan;
  plan.size = {std::int64_t{1} << exponents[0], std::int64_t{1} << exponents[1], std::int64_t{1} << exponents[2]};
  plan.arch = random_arch(random, limits);
  std::array<std::vector<SubComputation>, 3> chains;
  for (Axis axis : all_axes) {
    const int a = axis_index(axis);
    chains[a] = dif_stages(axis, plan.size[axis], random_radices(random, exponents[a], max_radix_log2));
  }
  plan.kernels = random_kernels(random, random_interleaving(random, std::move(chains)));
  return plan;
}

Plan random_legal_real_plan(std::mt19937_64& random, TransformKind kind, const RandomPlanLimits& limits) {
  if (kind == TransformKind::c2c) throw UsageError("random_legal_real_plan: the kind must be r2c or c2r");
  require_valid(limits, 4);
  const int max_radix_log2 = max_radix_log2_of(limits);
  const std::array<int, 3> exponents = random_log2_lengths(random, log2_of(limits.max_axis_length),
                                                           log2_of(limits.max_elements), real_floor);
  Plan plan;
  plan.size = {std::int64_t{1} << exponents[0], std::int64_t{1} << exponents[1], std::int64_t{1} << exponents[2]};
  plan.arch = random_arch(random, limits);
  const std::vector<SubComputation> x_chain =
      dif_stages(Axis::x, plan.size.nx / 2, random_radices(random, exponents[0] - 1, max_radix_log2));
  std::array<std::vector<SubComputation>, 3> yz_chains;
  for (Axis axis : {Axis::y, Axis::z}) {
    const int a = axis_index(axis);
    yz_chains[a] = dif_stages(axis, plan.size[axis], random_radices(random, exponents[a], max_radix_log2));
  }
  std::vector<SubComputation> sequence = random_interleaving(random, std::move(yz_chains));
  // R2C: the X stages, the step, then Y and Z; C2R: Y and Z, the step, then the X stages.
  const bool r2c = kind == TransformKind::r2c;
  sequence.insert(r2c ? sequence.begin() : sequence.end(), x_chain.begin(), x_chain.end());
  const std::size_t step_position = r2c ? x_chain.size() : sequence.size() - x_chain.size();
  plan.kernels = random_kernels(random, sequence);
  place_real_step(random, plan.kernels, {kind, Axis::x, plan.size.nx}, step_position);
  return plan;
}

}  // namespace fft3d::validate
