// Radices over the in-register limit (TileStage::split_radices): the passes of tile::split_passes, run on the CPU,
// equal the plan's own semantics (fft3d::CpuTransform) for every power-of-two radix 2..4096 and several
// factorisations; the Hopper two-pass plans lower, are conflict-free and coalesced, and compile without spills.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "fft3d/arch_profile.hpp"
#include "fft3d/cpu_transform.hpp"
#include "cuda/cuda_compiler.hpp"
#include "lowering/tile_maps.hpp"
#include "fft3d/plan_text.hpp"
#include "test_plans.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

using Complex = std::complex<double>;

Complex twiddle(std::int64_t exponent, std::int64_t span) {
  const double angle = -2.0 * std::numbers::pi * static_cast<double>(exponent % span) / static_cast<double>(span);
  return {std::cos(angle), std::sin(angle)};
}

void dft(std::vector<Complex>& v) {
  const std::int64_t r = static_cast<std::int64_t>(v.size());
  std::vector<Complex> out(v.size());
  for (std::int64_t m = 0; m < r; ++m)
    for (std::int64_t k = 0; k < r; ++k) out[m] += v[k] * twiddle(k * m, r);
  v = out;
}

// One butterfly-loop pass exactly as the emitter writes it: inner passes twiddle by group position and write in
// place; the last reads everything (into `held`) before it writes each output to its natural place in the group.
void run_split_stage(const KernelSpec& spec, const TileStage& stage, std::int64_t block,
                     std::vector<Complex>& tile) {
  for (const tile::SplitPass& pass : tile::split_passes(stage)) {
    std::vector<Complex> held = tile;
    for (std::int64_t b = 0; b < spec.tile_elements / pass.radix; ++b) {
      const std::int64_t base = tile::butterfly_base(pass.element_step, pass.radix, b);
      std::vector<Complex> v(pass.radix);
      for (std::int64_t k = 0; k < pass.radix; ++k) v[k] = tile[base + k * pass.element_step];
      dft(v);
      if (!pass.last) {
        const std::int64_t j = tile::group_index(stage, base) % pass.local_stride;
        for (std::int64_t m = 0; m < pass.radix; ++m)
          tile[base + m * pass.element_step] = v[m] * twiddle(j * m, pass.local_span);
        continue;
      }
      const std::int64_t j = tile::axis_position(spec, block, stage.sub.axis, base) % stage.sub.stride;
      for (std::int64_t m = 0; m < pass.radix; ++m) {
        const std::int64_t f = tile::split_output_frequency(stage, base, m);
        const Complex plan_twiddle = stage.sub.twiddle ? twiddle(j * f, stage.sub.span) : 1.0;
        held[tile::split_output_element(stage, base, m)] = v[m] * plan_twiddle;
      }
    }
    if (pass.last) tile = held;
  }
}

// An in-register stage (what tile_interpreter.cpp runs for every stage).
void run_register_stage(const KernelSpec& spec, const TileStage& stage, std::int64_t block,
                        std::vector<Complex>& tile) {
  for (std::int64_t b = 0; b < spec.tile_elements / stage.sub.radix; ++b) {
    const std::int64_t base = tile::butterfly_base(stage, b);
    std::vector<Complex> v(stage.sub.radix);
    for (std::int64_t k = 0; k < stage.sub.radix; ++k) v[k] = tile[base + k * stage.element_step];
    dft(v);
    const std::int64_t j = tile::axis_position(spec, block, stage.sub.axis, base) % stage.sub.stride;
    for (std::int64_t m = 0; m < stage.sub.radix; ++m)
      tile[base + m * stage.element_step] = v[m] * (stage.sub.twiddle ? twiddle(j * m, stage.sub.span) : 1.0);
  }
}

// Forward transform of one-kernel plans (every axis natural inside the tile, no reorder pass).
void run_kernel(const KernelSpec& spec, std::vector<Complex>& data, bool natural) {
  for (std::int64_t block = 0; block < spec.tiles; ++block) {
    std::vector<Complex> tile(spec.tile_elements);
    for (std::int64_t e = 0; e < spec.tile_elements; ++e) tile[e] = data[tile::global_offset(spec, block, e)];
    for (const TileStage& stage : spec.stages) {
      if (stage.is_split())
        run_split_stage(spec, stage, block, tile);
      else
        run_register_stage(spec, stage, block, tile);
    }
    for (std::int64_t e = 0; e < spec.tile_elements; ++e)
      data[tile::global_offset(spec, block, e)] = tile[natural ? tile::natural_source(spec, e) : e];
  }
}

Plan parse(const std::string& size, const std::string& kernel) {
  return parse_plan("size: [" + size + "]\narch: hopper\nkernels:\n  - \"" + kernel + "\"\n").plan;
}

std::string term(char axis, std::int64_t count, std::int64_t radix, std::int64_t stride, std::int64_t span) {
  return std::string(1, axis) + "(" + std::to_string(count) + ", " + std::to_string(radix) + ", " +
         std::to_string(stride) + ", " + std::to_string(span) + ", " + (stride > 1 ? "tw" : "no-tw") + ")";
}

// One-kernel plans holding a radix-r stage: alone, first with a stride (twiddled), last after another stage, and on
// Y behind an X stage (element step 16).
std::vector<Plan> plans_with_radix(std::int64_t r) {
  std::vector<Plan> plans{parse(std::to_string(r) + ", 1, 1", term('X', 1, r, 1, r)),
                          parse(std::to_string(4 * r) + ", 1, 1", term('X', 4, r, 4, 4 * r) + ", " +
                                                                       term('X', r, 4, 1, 4)),
                          parse(std::to_string(4 * r) + ", 1, 1", term('X', r, 4, r, 4 * r) + ", " +
                                                                       term('X', 4, r, 1, r))};
  if (r <= 512)
    plans.push_back(parse("16, " + std::to_string(2 * r) + ", 1",
                          term('X', 1, 16, 1, 16) + ", " + term('Y', 2, r, 2, 2 * r) + ", " + term('Y', r, 2, 1, 2)));
  return plans;
}

// Every factorisation of r into powers of two >= 2 that this test tries besides the lowering's own: all radix-2
// passes, {2, r/2}, {r/2, 2}.
std::vector<std::vector<std::int64_t>> factorisations(std::int64_t r) {
  std::vector<std::vector<std::int64_t>> all{{}};  // {}: the lowering's choice
  if (r < 4) return all;
  all.push_back(std::vector<std::int64_t>(static_cast<std::size_t>(tile::log2_exact(r)), 2));
  all.push_back({2, r / 2});
  all.push_back({r / 2, 2});
  return all;
}

double relative_l2(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += std::norm(a[i] - b[i]);
    norm += std::norm(b[i]);
  }
  return std::sqrt(diff / norm);
}

TEST(LargeRadix, TheHopperInRegisterLimitSplitsRadicesAbove16) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  EXPECT_EQ(register_radix_limit(hopper), 16);
  for (const ArchProfile& profile : arch_profiles())
    std::cout << profile.name << ": in-register radix limit " << register_radix_limit(profile) << "\n";
}

// A tile that holds a Hopper SM alone (128 KB: one block, the whole register file) takes radix-32 passes on 512
// threads (split_radix.cpp's pass_radix_limit); tiles that share an SM, tiles spread over
// a cluster and the paper's profiles keep the in-register limit.
TEST(LargeRadix, OneBlockHopperTilesTakeRadix32Passes) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  const Plan line = parse("16, 1024, 1", term('X', 1, 16, 1, 16) + ", " + term('Y', 1, 1024, 1, 1024));
  const KernelSpec spec = lower_plan(line, hopper).kernels.at(0);
  ASSERT_EQ(spec.tile_elements, 16384);
  EXPECT_EQ(spec.stages.at(1).split_radices, (std::vector<std::int64_t>{32, 32})) << to_string(spec);
  EXPECT_EQ(spec.threads, 512);
  std::mt19937_64 rng(47);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<Complex> input(line.size.elements());
  for (Complex& v : input) v = {uniform(rng), uniform(rng)};
  for (Order order : {Order::natural, Order::digit_reversed}) {
    std::vector<Complex> expected = input, data = input;
    CpuTransform(line, 1).execute(std::span<Complex>(expected), {.order = order});
    run_kernel(spec, data, order == Order::natural);
    EXPECT_LT(relative_l2(data, expected), 1e-12) << to_string(order);
  }
  // A 64 KB tile shares its SM; a 256 KB tile is spread over two blocks.
  for (std::int64_t x : {8, 32}) {
    const Plan plan =
        parse(std::to_string(x) + ", 1024, 1", term('X', 1, x, 1, x) + ", " + term('Y', 1, 1024, 1, 1024));
    const KernelSpec other = lower_plan(plan, hopper).kernels.at(0);
    EXPECT_EQ(other.stages.at(1).split_radices, (std::vector<std::int64_t>{8, 8, 16})) << to_string(other);
  }
  for (const NamedPlan& named : shipped_plans()) {
    if (named.plan.arch == "hopper") continue;
    const ArchProfile profile = *find_arch_profile(named.plan.arch);
    for (const KernelSpec& k : lower_plan(named.plan, profile).kernels)
      for (const TileStage& stage : k.stages)
        for (std::int64_t radix : stage.split_radices) EXPECT_LE(radix, register_radix_limit(profile)) << named.name;
  }
}

TEST(LargeRadix, SplitPassesEqualThePlanSemanticsForEveryRadixUpTo4096) {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const ArchProfile hopper = *find_arch_profile("hopper");
  for (std::int64_t r = 2; r <= 4096; r *= 2)
    for (const Plan& plan : plans_with_radix(r)) {
      SCOPED_TRACE(to_string(plan.kernels[0]));
      const KernelSpec lowered = lower_plan(plan, hopper).kernels.at(0);
      std::vector<Complex> input(plan.size.elements());
      for (Complex& v : input) v = {uniform(rng), uniform(rng)};
      const CpuTransform cpu(plan, 1);
      for (const std::vector<std::int64_t>& radices : factorisations(r)) {
        KernelSpec spec = lowered;
        for (TileStage& stage : spec.stages)
          if (stage.sub.radix == r && !radices.empty()) stage.split_radices = radices;
        for (Order order : {Order::natural, Order::digit_reversed}) {
          std::vector<Complex> expected = input, data = input;
          cpu.execute(std::span<Complex>(expected), {.order = order});
          run_kernel(spec, data, order == Order::natural);
          EXPECT_LT(relative_l2(data, expected), 1e-12) << to_string(spec) << to_string(order);
        }
      }
    }
}

// Radices with factors 3, 5 and 7 over the in-register limit: their passes (the lowering's split, its reverse and
// one pass per prime factor), run as the emitter writes them, equal the DFT (FFTW) in both orders.
TEST(LargeRadix, SplitPassesOfMixedRadicesEqualTheDft) {
  std::mt19937_64 rng(47);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const ArchProfile hopper = *find_arch_profile("hopper");
  int checked = 0;
  for (std::int64_t r : {18, 20, 24, 27, 36, 45, 48, 60, 96, 100, 120, 125, 243, 384, 1000})
    for (const Plan& plan : plans_with_radix(r)) {
      SCOPED_TRACE(to_string(plan.kernels[0]));
      const KernelSpec lowered = lower_plan(plan, hopper).kernels.at(0);
      std::vector<Complex> input(plan.size.elements()), expected(input.size());
      for (Complex& v : input) v = {uniform(rng), uniform(rng)};
      validate::fftw_reference(plan.size, input, expected, Direction::forward);
      std::vector<std::vector<std::int64_t>> splits{{}};
      for (const TileStage& stage : lowered.stages)
        if (stage.sub.radix == r && stage.is_split())
          splits.emplace_back(stage.split_radices.rbegin(), stage.split_radices.rend());
      std::vector<std::int64_t> primes;
      for (std::int64_t f = 2, rest = r; rest > 1; ++f)
        for (; rest % f == 0; rest /= f) primes.push_back(f);
      splits.push_back(primes);
      for (const std::vector<std::int64_t>& radices : splits) {
        KernelSpec spec = lowered;
        for (TileStage& stage : spec.stages)
          if (stage.sub.radix == r && !radices.empty()) stage.split_radices = radices;
        for (Order order : {Order::natural, Order::digit_reversed}) {
          std::vector<Complex> data = input;
          run_kernel(spec, data, order == Order::natural);
          if (order == Order::digit_reversed) validate::to_natural_order(plan, data);
          EXPECT_LT(relative_l2(data, expected), 1e-12) << to_string(spec) << to_string(order);
          ++checked;
        }
      }
    }
  EXPECT_GT(checked, 100);
}

// Random legal plans with radices up to 64 on every profile (tesla and hopper split radices over 16, fermi over 8):
// the kernels run in sequence with split passes, digit-reversed, equal the CPU backend.
TEST(LargeRadix, RandomPlansWithSplitStagesEqualTheCpuBackend) {
  std::mt19937_64 rng(43);
  std::uniform_real_distribution<double> uniform(-1, 1);
  int split_stages = 0;
  for (const char* arch : {"tesla", "fermi", "hopper"})
    for (const NamedPlan& named : random_plans(40, 17, 64, arch)) {
      SCOPED_TRACE(named.name);
      LoweredPlan lowered;
      try {
        lowered = lower_plan(named.plan, *find_arch_profile(arch));
      } catch (const LoweringError&) {
        continue;  // a tile over the profile's shared memory (lowering_test checks the message)
      }
      for (const KernelSpec& spec : lowered.kernels)
        for (const TileStage& stage : spec.stages) split_stages += stage.is_split();
      std::vector<Complex> input(named.plan.size.elements());
      for (Complex& v : input) v = {uniform(rng), uniform(rng)};
      std::vector<Complex> expected = input, data = input;
      CpuTransform(named.plan, 1).execute(std::span<Complex>(expected), {.order = Order::digit_reversed});
      for (const KernelSpec& spec : lowered.kernels) run_kernel(spec, data, false);
      EXPECT_LT(relative_l2(data, expected), 1e-12);
    }
  EXPECT_GT(split_stages, 10);
  std::cout << split_stages << " split stages checked\n";
}

struct HopperCase {
  std::string size;
  std::vector<std::string> kernels;
};

// The 256^3 two-pass plan with an X split, its 128^3 analogue, and the largest radices with the tiles that
// fit one SM: 512x256x256 (X 4 x 128 over two kernels, Z separately) and a 1024-point Z axis.
std::vector<HopperCase> hopper_cases() {
  return {{"256, 256, 256", {"X(64, 4, 64, 256, tw), Y(1, 256, 1, 256, no-tw)",
                             "X(4, 64, 1, 64, no-tw), Z(1, 256, 1, 256, no-tw)"}},
          {"128, 128, 128", {"X(32, 4, 32, 128, tw), Y(1, 128, 1, 128, no-tw)",
                             "X(4, 32, 1, 32, no-tw), Z(1, 128, 1, 128, no-tw)"}},
          {"512, 256, 256", {"X(128, 4, 128, 512, tw), Y(1, 256, 1, 256, no-tw)", "X(4, 128, 1, 128, no-tw)",
                             "Z(1, 256, 1, 256, no-tw)"}},
          {"256, 256, 1024", {"X(64, 4, 64, 256, tw), Y(1, 256, 1, 256, no-tw)", "X(4, 64, 1, 64, no-tw)",
                              "Z(1, 1024, 1, 1024, no-tw)"}}};
}

Plan parse_case(const HopperCase& c) {
  std::string text = "size: [" + c.size + "]\narch: hopper\nkernels:\n";
  for (const std::string& k : c.kernels) text += "  - \"" + k + "\"\n";
  return parse_plan(text).plan;
}

TEST(LargeRadix, HopperPlansLowerConflictFreeCoalescedAndCompileWithoutSpills) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  for (const HopperCase& c : hopper_cases()) {
    const LoweredPlan lowered = lower_plan(parse_case(c), hopper, "hopper " + c.size);
    for (const KernelSpec& spec : lowered.kernels) {
      SCOPED_TRACE(c.size + " kernel " + std::to_string(spec.kernel_index));
      const tile::BankReport banks = tile::check_bank_conflicts(spec);
      EXPECT_EQ(banks.worst_excluding_natural_store(), 1) << tile::explain(lowered);
      EXPECT_TRUE(tile::check_coalescing(spec).coalesced()) << tile::check_coalescing(spec).first_problem;
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90));
      EXPECT_FALSE(compiled.report.spills()) << compiled.report.log;
      std::string phases;
      for (const tile::PhaseConflict& p : banks.phases)
        phases += " [" + p.phase + ": " + std::to_string(p.degree) + "]";
      std::cout << c.size << " kernel " << spec.kernel_index << " {" << to_string(spec.kernel) << "}: tile "
                << spec.tile_elements << " elements, " << spec.shared_bytes << " B shared, " << spec.threads
                << " threads, " << compiled.report.registers << " registers, " << compiled.report.spill_store_bytes
                << "/" << compiled.report.spill_load_bytes << " B spilled\n  banks:" << phases << "\n";
    }
  }
}

TEST(LargeRadix, ExplainShowsTheSplit) {
  const LoweredPlan lowered = lower_plan(parse_case(hopper_cases().front()), *find_arch_profile("hopper"));
  const std::string text = tile::explain(lowered);
  EXPECT_NE(text.find("Y(1, 256, 1, 256, no-tw), element step 64, split [16,16]"), std::string::npos) << text;
  EXPECT_NE(text.find("x 1024 threads"), std::string::npos) << text;
}

}  // namespace
}  // namespace fft3d::testing
