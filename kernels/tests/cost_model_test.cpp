// The default planner's cost model (passes_on_its_profile_in(false), lowering/cost_model.cpp) against whole-plan
// times measured out of place on the GPU (data/measured_plan_times.csv): the model is right where it ranks the faster
// of two measured candidates cheaper. Its coefficients are not restated here; only its ranking is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "lowering/kernel_spec.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"

namespace fft3d::testing {
namespace {

const std::string measured_file = std::string(FFT3D_SOURCE_DIR) + "/kernels/tests/data/measured_plan_times.csv";

// Two candidates count as differently fast when one took this much longer than the other (a plan timed in two calls
// on the H200 differs by 0.7% at the median, over 5% for 4 of 48).
constexpr double time_margin = 0.05;
// What the model achieves on the table, rounded down: it ranks 661 of the 934 pairs apart by more than the margin in
// their measured order (0.708; H100 379 of 490, H200 282 of 444), ties 100 and reverses 173, where counting kernels
// ranks 231 and ties 682.
constexpr double least_agreement = 0.70;
// Its choice (the slowest of the candidates it ties at its least passes) is 6.3% slower than the fastest measured
// candidate on average over the 32 calls, 34% at worst (128x128x64 on the H200).
constexpr double most_mean_slowdown = 0.08;

struct MeasuredPlan {
  std::string call;  // source file and size: the candidates of one measured call
  std::string device;
  double ms = 0;
  Plan plan;
};

// "a,b,c,d,e,rest with commas": the first `fields` fields, then the rest of the line as the last.
std::vector<std::string> split_fields(const std::string& line, int fields) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (int i = 0; i < fields; ++i) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string::npos) break;
    out.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
  out.push_back(line.substr(start));
  return out;
}

std::vector<MeasuredPlan> measured_plans() {
  std::ifstream in(measured_file);
  std::vector<MeasuredPlan> plans;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    if (header) {  // source,device,size,candidate,measured_ms,plan
      header = false;
      continue;
    }
    const std::vector<std::string> f = split_fields(line, 5);
    if (f.size() != 6) throw std::runtime_error(measured_file + ": not six fields: " + line);
    const Extents size = parse_extents(f[2]);
    const std::string yaml = "size: [" + std::to_string(size.nx) + ", " + std::to_string(size.ny) + ", " +
                             std::to_string(size.nz) + "]\narch: hopper\nplan: \"" + f[5] + "\"\n";
    plans.push_back({f[0] + " " + f[2], f[1], std::stod(f[4]), parse_plan(yaml, measured_file).plan});
  }
  return plans;
}

// The paper's count, one pass per kernel plus the digit-reversal pass natural order needs out of place (where the
// times were measured): the model without its charges, which it has to beat.
double passes_counted(const Plan& plan) {
  ArchProfile profile = *find_arch_profile(plan.arch);
  profile.cost = CostModel{};
  const LoweredPlan lowered = lower_plan(plan, profile);
  return static_cast<double>(lowered.kernels.size()) + (lowered.reorders(/*out_of_place=*/true) ? 1 : 0);
}

struct Agreement {
  int agree = 0, tie = 0, disagree = 0;
  int pairs() const { return agree + tie + disagree; }
  double rate() const { return pairs() == 0 ? 0.0 : static_cast<double>(agree) / pairs(); }
};

// Over every pair of candidates of one measured call whose times differ by more than the margin: how often
// `passes` ranks the faster one cheaper, by device, printed under `name`.
Agreement ranking_agreement(const std::vector<MeasuredPlan>& plans, const std::vector<double>& passes,
                            const std::string& name) {
  std::map<std::string, Agreement> by_device;
  Agreement all;
  for (std::size_t i = 0; i < plans.size(); ++i)
    for (std::size_t j = i + 1; j < plans.size(); ++j) {
      if (plans[i].call != plans[j].call) continue;
      const double faster = std::min(plans[i].ms, plans[j].ms), slower = std::max(plans[i].ms, plans[j].ms);
      if (slower <= faster * (1 + time_margin)) continue;
      const double cheaper_by = plans[i].ms < plans[j].ms ? passes[j] - passes[i] : passes[i] - passes[j];
      int Agreement::*outcome = cheaper_by > 0    ? &Agreement::agree
                                : cheaper_by == 0 ? &Agreement::tie
                                                  : &Agreement::disagree;
      ++(by_device[plans[i].device].*outcome);
      ++(all.*outcome);
    }
  by_device["all"] = all;
  for (const auto& [device, a] : by_device)
    std::printf("%s, %s: %d pairs apart by more than %.0f%%: %d ranked as measured, %d tied, %d reversed (%.3f)\n",
                name.c_str(), device.c_str(), a.pairs(), 100 * time_margin, a.agree, a.tie, a.disagree, a.rate());
  return all;
}

TEST(CostModel, RanksMeasuredCandidatesInTheirMeasuredOrder) {
  const std::vector<MeasuredPlan> plans = measured_plans();
  ASSERT_GT(plans.size(), 100u);
  std::vector<double> model, counted;
  for (const MeasuredPlan& m : plans) {
    const std::optional<double> passes = passes_on_its_profile_in(false)(m.plan);
    ASSERT_TRUE(passes) << m.call << ": a measured plan no longer lowers";
    model.push_back(*passes);
    counted.push_back(passes_counted(m.plan));
  }
  const Agreement by_model = ranking_agreement(plans, model, "model");
  const Agreement by_count = ranking_agreement(plans, counted, "kernels counted");
  EXPECT_GE(by_model.rate(), least_agreement);
  EXPECT_GT(by_model.rate(), by_count.rate());
}

// What the model's choice costs against the fastest candidate of each measured call: where several candidates tie
// at the model's least passes, the slowest of them is taken (the planner's tie order is not in the table).
TEST(CostModel, PicksCandidatesNearTheFastestMeasured) {
  const std::vector<MeasuredPlan> plans = measured_plans();
  std::map<std::string, std::vector<std::size_t>> calls;
  for (std::size_t i = 0; i < plans.size(); ++i) calls[plans[i].call].push_back(i);
  double total = 0, worst = 0;
  for (const auto& [call, rows] : calls) {
    const PlanPasses out_of_place = passes_on_its_profile_in(false);
    double fastest = plans[rows.front()].ms, cheapest = *out_of_place(plans[rows.front()].plan), picked = 0;
    for (std::size_t i : rows) {
      const double passes = *out_of_place(plans[i].plan);
      fastest = std::min(fastest, plans[i].ms);
      if (passes < cheapest) cheapest = passes, picked = 0;
      if (passes == cheapest) picked = std::max(picked, plans[i].ms);
    }
    const double slower = picked / fastest - 1;
    total += slower;
    worst = std::max(worst, slower);
    std::printf("%s: the model's choice %.1f%% slower than the fastest\n", call.c_str(), 100 * slower);
  }
  const double mean = total / static_cast<double>(calls.size());
  std::printf("%zu calls: the model's choice %.1f%% slower than the fastest on average, %.1f%% at worst\n",
              calls.size(), 100 * mean, 100 * worst);
  EXPECT_LE(mean, most_mean_slowdown);
}

}  // namespace
}  // namespace fft3d::testing
