#include "validate/random_plans.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/lengths.hpp"

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

bool powers_of_two_only(const RandomPlanLimits& limits) {
  return std::all_of(limits.factors.begin(), limits.factors.end(), [](std::int64_t p) { return p == 2; });
}

bool has_only_factors(std::int64_t n, std::span<const std::int64_t> factors) {
  for (std::int64_t p : factors)
    while (n % p == 0) n /= p;
  return n == 1;
}

// Axis lengths drawn as the power-of-two exponents are: an octave [2^k, 2^(k+1)) uniform among k <= log2
// max_axis_length, then a length uniform among those of the octave with only `factors` (an octave without one is
// drawn again); by rejection until the volume is within max_elements, NX is a multiple of 2^floor.min_x_log2 and
// the volume at least 2^floor.min_total_log2. Sizes so spread over the scales as the power-of-two ones do.
Extents random_mixed_extents(std::mt19937_64& random, const RandomPlanLimits& limits, SizeFloor floor) {
  std::vector<std::vector<std::int64_t>> octaves(static_cast<std::size_t>(log2_of(limits.max_axis_length)) + 1);
  for (std::int64_t n = 1; n <= limits.max_axis_length; ++n)
    if (has_only_factors(n, limits.factors)) octaves[static_cast<std::size_t>(std::bit_width(
        static_cast<std::uint64_t>(n))) - 1].push_back(n);
  const auto last_octave = static_cast<std::int64_t>(octaves.size()) - 1;
  const auto random_length = [&] {
    for (;;) {
      const std::vector<std::int64_t>& octave = octaves[static_cast<std::size_t>(uniform(random, 0, last_octave))];
      if (octave.empty()) continue;
      return octave[static_cast<std::size_t>(uniform(random, 0, static_cast<std::int64_t>(octave.size()) - 1))];
    }
  };
  for (;;) {
    std::array<std::int64_t, 3> drawn{};
    for (std::int64_t& n : drawn) n = random_length();
    const std::int64_t volume = drawn[0] * drawn[1] * drawn[2];
    if (drawn[0] % (std::int64_t{1} << floor.min_x_log2) == 0 && volume >= (std::int64_t{1} << floor.min_total_log2) &&
        volume <= limits.max_elements)
      return {drawn[0], drawn[1], drawn[2]};
  }
}

// A random ordered split of `length` into radices >= 2, each <= max_radix (0: no limit): each next radix uniform
// among the divisors of what is left that fit. @pre every prime factor of length is <= max_radix (when set)
std::vector<std::int64_t> random_divisor_chain(std::mt19937_64& random, std::int64_t length, std::int64_t max_radix) {
  std::vector<std::int64_t> radices;
  for (std::int64_t left = length; left > 1;) {
    const std::int64_t limit = max_radix == 0 ? left : std::min(left, max_radix);
    std::vector<std::int64_t> divisors;
    for (std::int64_t d = 2; d <= limit; ++d)
      if (left % d == 0) divisors.push_back(d);
    const std::int64_t radix =
        divisors[static_cast<std::size_t>(uniform(random, 0, static_cast<std::int64_t>(divisors.size()) - 1))];
    radices.push_back(radix);
    left /= radix;
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

bool factors_are_valid(const RandomPlanLimits& limits) {
  const auto supported = [](std::int64_t p) {
    return std::find(supported_factors.begin(), supported_factors.end(), p) != supported_factors.end();
  };
  if (limits.factors.empty() || !std::all_of(limits.factors.begin(), limits.factors.end(), supported)) return false;
  const std::int64_t largest = *std::max_element(limits.factors.begin(), limits.factors.end());
  return limits.max_radix == 0 || limits.max_radix >= largest;
}

bool limits_are_valid(const RandomPlanLimits& limits) {
  const bool radix_ok = limits.max_radix == 0 || (is_power_of_two(limits.max_radix) && limits.max_radix >= 2);
  return is_power_of_two(limits.max_axis_length) && limits.max_axis_length >= 2 &&
         is_power_of_two(limits.max_elements) && limits.max_elements >= 2 && radix_ok && factors_are_valid(limits);
}

void require_valid(const RandomPlanLimits& limits, std::int64_t min_elements) {
  if (!limits_are_valid(limits) || limits.max_elements < min_elements)
    throw UsageError("random_legal_plan: the length, element count and radix limits must be powers of two, at least "
                     "2 (a real plan's element count at least 4; the radix limit at least the largest factor), and "
                     "the factors a non-empty set of 2, 3, 5 and 7");
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

// The volume's extents: power-of-two exponents drawn as random_log2_lengths draws them, or mixed lengths.
Extents random_extents(std::mt19937_64& random, const RandomPlanLimits& limits, SizeFloor floor) {
  if (!powers_of_two_only(limits)) return random_mixed_extents(random, limits, floor);
  const std::array<int, 3> exponents =
      random_log2_lengths(random, log2_of(limits.max_axis_length), log2_of(limits.max_elements), floor);
  return {std::int64_t{1} << exponents[0], std::int64_t{1} << exponents[1], std::int64_t{1} << exponents[2]};
}

// A random radix chain of `length` within the limits.
std::vector<std::int64_t> random_chain(std::mt19937_64& random, std::int64_t length, const RandomPlanLimits& limits) {
  if (powers_of_two_only(limits)) return random_radices(random, log2_of(length), max_radix_log2_of(limits));
  return random_divisor_chain(random, length, limits.max_radix);
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

Plan random_legal_odd_real_plan(std::mt19937_64& random, TransformKind kind, const RandomPlanLimits& limits) {
  if (kind == TransformKind::c2c) throw UsageError("random_legal_odd_real_plan: the kind must be r2c or c2r");
  require_valid(limits, 4);
  if (powers_of_two_only(limits))
    throw UsageError("random_legal_odd_real_plan: the factors must include an odd prime (NX is odd)");
  Plan plan;
  do {
    plan.size = random_mixed_extents(random, limits, complex_floor);
  } while (plan.size.nx % 2 == 0);
  plan.arch = random_arch(random, limits);
  const std::vector<SubComputation> x_chain =
      dif_stages(Axis::x, plan.size.nx, random_chain(random, plan.size.nx, limits));
  std::array<std::vector<SubComputation>, 3> yz_chains;
  for (Axis axis : {Axis::y, Axis::z})
    yz_chains[axis_index(axis)] = dif_stages(axis, plan.size[axis], random_chain(random, plan.size[axis], limits));
  plan.kernels = random_kernels(random, random_interleaving(random, std::move(yz_chains)));
  // R2C: the X stages, then the step, open the first kernel; C2R: the step, then the X stages, close the last.
  const bool r2c = kind == TransformKind::r2c;
  Kernel& holder = r2c ? plan.kernels.front() : plan.kernels.back();
  holder.subs.insert(r2c ? holder.subs.begin() : holder.subs.end(), x_chain.begin(), x_chain.end());
  holder.real = RealStep{kind, Axis::x, plan.size.nx};
  holder.real_position = r2c ? x_chain.size() : holder.subs.size() - x_chain.size();
  return plan;
}

std::vector<std::vector<std::int64_t>> all_radix_splits(std::int64_t length) {
  if (length == 1) return {{}};
  std::vector<std::vector<std::int64_t>> splits;
  for (std::int64_t first = 2; first <= length; ++first) {
    if (length % first != 0) continue;
    for (std::vector<std::int64_t> rest : all_radix_splits(length / first)) {
      rest.insert(rest.begin(), first);
      splits.push_back(std::move(rest));
    }
  }
  return splits;
}

Plan random_legal_plan(std::mt19937_64& random, const RandomPlanLimits& limits) {
  require_valid(limits, 2);
  Plan plan;
  plan.size = random_extents(random, limits, complex_floor);
  plan.arch = random_arch(random, limits);
  std::array<std::vector<SubComputation>, 3> chains;
  for (Axis axis : all_axes)
    chains[axis_index(axis)] = dif_stages(axis, plan.size[axis], random_chain(random, plan.size[axis], limits));
  plan.kernels = random_kernels(random, random_interleaving(random, std::move(chains)));
  return plan;
}

Plan random_legal_real_plan(std::mt19937_64& random, TransformKind kind, const RandomPlanLimits& limits) {
  if (kind == TransformKind::c2c) throw UsageError("random_legal_real_plan: the kind must be r2c or c2r");
  require_valid(limits, 4);
  if (std::find(limits.factors.begin(), limits.factors.end(), 2) == limits.factors.end())
    throw UsageError("random_legal_real_plan: the factors must include 2 (NX is even)");
  Plan plan;
  plan.size = random_extents(random, limits, real_floor);
  plan.arch = random_arch(random, limits);
  const std::vector<SubComputation> x_chain =
      dif_stages(Axis::x, plan.size.nx / 2, random_chain(random, plan.size.nx / 2, limits));
  std::array<std::vector<SubComputation>, 3> yz_chains;
  for (Axis axis : {Axis::y, Axis::z})
    yz_chains[axis_index(axis)] = dif_stages(axis, plan.size[axis], random_chain(random, plan.size[axis], limits));
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
