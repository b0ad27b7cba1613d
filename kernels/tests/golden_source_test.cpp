// The generated CUDA source of every power-of-two kernel stays byte for byte what it was when the tile maps were
// generalized to mixed radices: a checked-in list of FNV-1a hashes of emit_cuda_source, one per kernel of every
// shipped plan (complex and real), of the distributed-tile test plans and of a frozen set of random plans, each
// tile kernel also as its copy twin (no stages: the tile's load and store phases alone), and the reorder pass.
// Regenerate (only when a change of the power-of-two source is intended) with
//   FFT3D_WRITE_GOLDEN=1 build/kernels_tests --gtest_filter='GoldenSource.*'
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/plan_text.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

const std::string golden_hashes_path = FFT3D_SOURCE_DIR "/kernels/tests/data/golden_source_hashes.txt";
// Random legal plans frozen as text (the random generator may change; these must not): YAML documents split by
// lines "---".
const std::string golden_plans_path = FFT3D_SOURCE_DIR "/kernels/tests/data/golden_random_plans.yaml";
const std::string document_separator = "---";

bool writing_golden() {
  const char* write = std::getenv("FFT3D_WRITE_GOLDEN");
  return write && *write;
}

std::vector<NamedPlan> frozen_random_plans() {
  std::vector<NamedPlan> plans;
  std::ifstream file(golden_plans_path);
  std::string line, document;
  const auto flush = [&] {
    if (document.find("size:") == std::string::npos) return;
    Plan plan = parse_plan(document).plan;
    plans.push_back({"frozen " + to_string(plan.size) + " " + plan.arch + " " + to_brace_string(plan.kernels), plan});
    document.clear();
  };
  while (std::getline(file, line)) {
    if (line == document_separator) flush();
    else document += line + "\n";
  }
  flush();
  return plans;
}

void write_frozen_random_plans() {
  std::ofstream file(golden_plans_path);
  for (const NamedPlan& named : gpu_random_plans()) file << to_yaml(named.plan) << document_separator << "\n";
}

// Every plan the golden list covers.
std::vector<NamedPlan> golden_plans() {
  std::vector<NamedPlan> plans = shipped_plans();
  for (std::vector<NamedPlan> more : {shipped_real_plans(), distributed_tile_plans(), frozen_random_plans()})
    for (NamedPlan& named : more) plans.push_back(std::move(named));
  return plans;
}

std::string hex(std::uint64_t value) {
  std::ostringstream out;
  out << std::hex << value;
  return out.str();
}

// "<plan> | kernel <i>[ copy twin]" (the reorder pass is kernel kernels.size()) -> hash of its source.
std::map<std::string, std::string> source_hashes() {
  std::map<std::string, std::string> hashes;
  for (const NamedPlan& named : golden_plans()) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (!lowered) continue;
    std::vector<KernelSpec> specs = lowered->kernels;
    if (lowered->reorder) specs.push_back(*lowered->reorder);
    for (const KernelSpec& spec : specs) {
      const std::string key = named.name + " | kernel " + std::to_string(spec.kernel_index);
      hashes[key] = hex(fnv1a(emit_cuda_source(spec)));
      if (spec.role != KernelRole::tile) continue;
      KernelSpec twin = spec;  // as GpuProfiler::run_copy_twin builds it
      twin.stages.clear();
      twin.load_in_first_pass = twin.store_in_last_pass = false;
      twin.nominal_flops = 0;
      twin.plan_name += " (copy twin)";
      hashes[key + " copy twin"] = hex(fnv1a(emit_cuda_source(twin)));
    }
  }
  return hashes;
}

TEST(GoldenSource, PowerOfTwoKernelsAreByteIdenticalToTheCheckedInHashes) {
  if (writing_golden()) {
    if (std::string(std::getenv("FFT3D_WRITE_GOLDEN")) == "plans") write_frozen_random_plans();
    std::ofstream file(golden_hashes_path);
    for (const auto& [key, hash] : source_hashes()) file << hash << " " << key << "\n";
    GTEST_SKIP() << "wrote " << golden_hashes_path;
  }
  std::map<std::string, std::string> expected;
  std::ifstream file(golden_hashes_path);
  for (std::string line; std::getline(file, line);) {
    const std::size_t space = line.find(' ');
    expected[line.substr(space + 1)] = line.substr(0, space);
  }
  ASSERT_GT(expected.size(), 100u) << "no golden list at " << golden_hashes_path;
  const std::map<std::string, std::string> actual = source_hashes();
  int differing = 0;
  for (const auto& [key, hash] : expected) {
    const auto found = actual.find(key);
    if (found == actual.end()) {
      ADD_FAILURE() << "no longer generated: " << key;
    } else if (found->second != hash && ++differing <= 20) {
      ADD_FAILURE() << "source changed: " << key;
    }
  }
  EXPECT_EQ(differing, 0);
  for (const auto& [key, hash] : actual) EXPECT_TRUE(expected.contains(key)) << "not in the golden list: " << key;
}

}  // namespace
}  // namespace fft3d::testing
