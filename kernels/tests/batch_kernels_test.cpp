// Batch kernels (KernelSpec::batch > 1): the source is the one-volume kernel's, plus the two volume strides after
// the other arguments and the statements moving the pointers to volume blockIdx.y; nothing else moves, and batch 1
// prints nothing new (the golden hashes check that byte for byte). Every batch kernel compiles for sm_90 with NVRTC
// (no GPU needed).
#include <gtest/gtest.h>

#include <sstream>

#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "lowering/lowering_rules.hpp"
#include "lowering/tile_maps.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

constexpr std::int64_t test_batch = 7;
const std::string stride_parameters = ", long long in_volume_stride, long long out_volume_stride";

// Plans of every kind of kernel a batch runs: small planner plans (the batch shapes 16^3 and 32^3), table plans
// with the sorted layout, real plans (R2C and C2R, with the step and with Nyquist tiles), a plan with the reorder
// pass, a mixed-radix plan and a tile spread over a cluster.
std::vector<NamedPlan> batch_test_plans() {
  std::vector<NamedPlan> plans;
  for (std::int64_t n : {16, 32, 64})
    plans.push_back({"planner " + std::to_string(n) + "^3",
                     plan_for_size({n, n, n}, "hopper", false, passes_on_its_profile).parsed.plan});
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    plans.push_back({"planner 32^3 " + to_string(kind),
                     plan_for_size({32, 32, 32}, "hopper", false, passes_on_its_profile, kind).parsed.plan});
  const auto shipped = [&plans](const std::vector<NamedPlan>& from, const std::string& name) {
    for (const NamedPlan& named : from)
      if (named.name.find(name) != std::string::npos) return plans.push_back(named);
    ADD_FAILURE() << "no plan " << name;
  };
  shipped(shipped_plans(), "hopper/128x128x128.yaml");
  shipped(shipped_real_plans(), "hopper/128x128x128-r2c.yaml");
  shipped(shipped_real_plans(), "hopper/128x128x128-c2r.yaml");
  const std::size_t before_reorder = plans.size();
  for (const NamedPlan& named : gpu_random_plans()) {
    const std::optional<LoweredPlan> lowered = lower_if_it_fits(named);
    if (lowered && lowered->reorder && !lowered->sorted_layout && lowered->kernels.size() > 1) {
      plans.push_back(named);
      break;
    }
  }
  EXPECT_EQ(plans.size(), before_reorder + 1) << "no random plan takes the reorder pass";
  plans.push_back(mixed_radix_plans().front());
  plans.push_back(distributed_tile_plans().front());
  return plans;
}

LoweredPlan lower_batch(const NamedPlan& named, std::int64_t batch) {
  Plan plan = named.plan;
  plan.batch = batch;
  return lower_plan(plan, *find_arch_profile(plan.arch), named.name);
}

std::vector<KernelSpec> all_specs(const LoweredPlan& lowered) { return lowered.launched_specs(); }

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// The batch kernel's text with its batch statements and parameters taken out and its entry name generic.
std::string without_batch(const KernelSpec& spec) {
  std::istringstream lines(replace_all(emit_cuda_kernel_text(spec), spec.entry_name(), "ENTRY"));
  std::string text;
  for (std::string line; std::getline(lines, line);)
    if (line.find("blockIdx.y * in_volume_stride") == std::string::npos &&
        line.find("blockIdx.y * out_volume_stride") == std::string::npos &&
        line.find("_nyquist += (long long)blockIdx.y * rows.") == std::string::npos)
      text += line + "\n";
  return replace_all(text, stride_parameters + ")", ")");
}

TEST(BatchKernels, OneVolumePrintsNoBatch) {
  for (const NamedPlan& named : batch_test_plans())
    for (const KernelSpec& spec : all_specs(lower_batch(named, 1))) {
      EXPECT_EQ(spec.batch, 1);
      EXPECT_EQ(to_string(spec).find("batch"), std::string::npos) << named.name;
      EXPECT_EQ(emit_cuda_source(spec).find("volume_stride"), std::string::npos) << named.name;
    }
}

// The spec of a batch kernel is the volume's, but for its batch and plan hash; its text says the batch; its source
// is the volume's plus the parameters and the offsets (two statements, four for a real kernel's Nyquist column).
TEST(BatchKernels, BatchKernelIsTheVolumeKernelPlusStridesAndOffsets) {
  for (const NamedPlan& named : batch_test_plans()) {
    const std::vector<KernelSpec> volume = all_specs(lower_batch(named, 1));
    const std::vector<KernelSpec> batch = all_specs(lower_batch(named, test_batch));
    ASSERT_EQ(volume.size(), batch.size()) << named.name;
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const KernelSpec& spec = batch[k];
      EXPECT_EQ(spec.batch, test_batch);
      KernelSpec as_volume = spec;
      as_volume.batch = 1;
      as_volume.plan_hash = volume[k].plan_hash;
      EXPECT_EQ(as_volume, volume[k]) << named.name << " kernel " << k;
      EXPECT_NE(to_string(spec).find("batch of " + std::to_string(test_batch) + " volumes"), std::string::npos);
      const std::string source = emit_cuda_kernel_text(spec);
      EXPECT_NE(source.find(stride_parameters + ")"), std::string::npos) << named.name << " kernel " << k;
      const bool real = spec.real.kind != TransformKind::c2c;
      EXPECT_EQ(source.find("rows.in_nyquist += (long long)blockIdx.y * rows.in_nyquist_per_volume") !=
                    std::string::npos,
                real)
          << named.name;
      EXPECT_EQ(without_batch(spec), replace_all(emit_cuda_kernel_text(volume[k]), volume[k].entry_name(), "ENTRY"))
          << named.name << " kernel " << k;
    }
  }
}

TEST(BatchKernels, BatchKernelsCompileForSm90WithoutSpills) {
  for (const NamedPlan& named : batch_test_plans())
    for (const KernelSpec& spec : all_specs(lower_batch(named, test_batch))) {
      CompiledKernel compiled;
      ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << named.name << " kernel " << spec.kernel_index;
      EXPECT_FALSE(compiled.report.spills()) << named.name << " " << spec.entry_name() << "\n" << compiled.report.log;
      EXPECT_LE(compiled.report.registers, find_arch_profile(spec.profile)->max_registers_per_thread)
          << named.name << " " << spec.entry_name();
    }
}

// L131: a batch of 32^3 volumes over L2 runs each volume whole in one pass, its tile spread over the portable cluster's
// 8 blocks in parts of a quarter of a block's, one pass crossing; a batch within L2 keeps two kernels.
TEST(BatchKernels, AWholeVolumeTileOfABatchOverL2RunsInOnePassOverTheWidestCluster) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  const auto batch_plan = [](std::int64_t batch) {
    return plan_for_size({32, 32, 32}, "hopper", false, passes_on_its_profile, TransformKind::c2c,
                         Precision::fp32, batch)
        .parsed.plan;
  };
  EXPECT_EQ(batch_plan(64).kernels.size(), 2u) << "a 16 MB batch: the intermediate stays in L2";
  EXPECT_EQ(batch_plan(128).kernels.size(), 2u) << "a 32 MB batch: within three quarters of L2";
  const Plan over_l2 = batch_plan(512);
  ASSERT_EQ(over_l2.kernels.size(), 1u);
  const LoweredPlan lowered = lower_batch({"32^3 x 512", over_l2}, 512);
  const KernelSpec& spec = lowered.kernels.front();
  EXPECT_EQ(spec.tile_blocks, hopper.max_cluster_size);
  EXPECT_EQ(spec.complex_bytes() * spec.part_elements() * 4, lowering::part_bytes_limit(hopper));
  int crossing = 0;
  for (const tile::ButterflyPass& pass : tile::butterfly_pass_list(spec)) crossing += pass.cross;
  EXPECT_EQ(crossing, 1);
}

// A 1D line held whole is not widened: its batch plan keeps the fewest blocks the spread rules give it.
TEST(BatchKernels, AWholeLineIsNotWidened) {
  const ArchProfile hopper = *find_arch_profile("hopper");
  Plan line = plan_for_size({32768, 1, 1}, "hopper", false, passes_on_its_profile, TransformKind::c2c,
                            Precision::fp32, 512)
                  .parsed.plan;
  ASSERT_EQ(line.kernels.size(), 1u);
  const KernelSpec spec = lower_batch({"32768 x 512", line}, 512).kernels.front();
  EXPECT_LT(spec.tile_blocks, hopper.max_cluster_size);
}

}  // namespace
}  // namespace fft3d::testing
