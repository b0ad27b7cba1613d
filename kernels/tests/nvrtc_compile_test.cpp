// Every kernel of every shipped plan compiles with NVRTC for sm_90 without spills and within its profile's
// registers per thread (no GPU needed), and the source starts with its header.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "fft3d/arch_profile.hpp"
#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

// The engine launches kernels programmatically on sm_90 (they may start before the previous kernel ends), so a
// kernel must wait for it before its first access to `in` or `out`: the wait is the body's first statement after
// the shared-memory declarations, and no global access precedes it.
void expect_waits_before_global_memory(const std::string& source, const std::string& name) {
  const std::size_t entry = source.find("extern \"C\" __global__");
  ASSERT_NE(entry, std::string::npos) << name;
  const std::size_t body = source.find('{', entry);
  const std::size_t wait = source.find("fft3d_wait_for_previous_kernel();", body);
  ASSERT_NE(wait, std::string::npos) << name << ": no wait for the previous kernel";
  const std::string before = source.substr(body, wait - body);
  static const std::regex global_access(R"(\b(in|out)\s*[\[+])");
  EXPECT_FALSE(std::regex_search(before, global_access)) << name << ": global memory touched before the wait";
  std::istringstream lines(before.substr(1));
  for (std::string line; std::getline(lines, line);) {
    if (line.find("fft3d_shared") == std::string::npos) {
      EXPECT_EQ(line.find_first_not_of(' '), std::string::npos) << name << ": a statement before the wait: " << line;
    }
  }
}

void compile_all(const NamedPlan& named) {
  const LoweredPlan lowered = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name);
  std::vector<KernelSpec> specs = lowered.launched_specs();
  const char* dump = std::getenv("FFT3D_DUMP_CUDA_DIR");  // write each source for `nvcc -arch=sm_90 -cubin`
  for (const KernelSpec& spec : specs) {
    const std::string source = emit_cuda_source(spec);
    if (dump && *dump) std::ofstream(std::string(dump) + "/" + spec.entry_name() + ".cu") << source;
    expect_waits_before_global_memory(source, named.name + " " + spec.entry_name());
    CompiledKernel compiled;
    ASSERT_NO_THROW(compiled = compile_kernel(spec, 90)) << named.name << " kernel " << spec.kernel_index;
    EXPECT_FALSE(compiled.report.spills()) << named.name << " " << spec.entry_name() << "\n" << compiled.report.log;
    EXPECT_GT(compiled.report.registers, 0) << compiled.report.log;
    // sm_90 allocates registers per thread in units of 8, so ptxas meets Fermi's 63 with 64.
    const int limit = find_arch_profile(spec.profile)->max_registers_per_thread;
    EXPECT_LE(compiled.report.registers, (limit + 7) / 8 * 8) << named.name << " " << spec.entry_name();
    std::cout << named.name << " kernel " << spec.kernel_index << ": " << compiled.report.registers
              << " registers, " << compiled.report.spill_store_bytes << "/" << compiled.report.spill_load_bytes
              << " B spilled, " << spec.shared_bytes << " B shared, "
              << (compiled.report.from_cache ? "cached" : std::to_string(compiled.report.compile_ms) + " ms") << "\n";
  }
}

TEST(NvrtcCompile, EveryShippedKernelCompilesForSm90WithoutSpills) {
  for (const NamedPlan& named : shipped_plans()) compile_all(named);
}

TEST(NvrtcCompile, EveryShippedRealKernelCompilesForSm90WithoutSpills) {
  const std::vector<NamedPlan> plans = shipped_real_plans();
  EXPECT_FALSE(plans.empty()) << "no real plan in the tables";
  for (const NamedPlan& named : plans) compile_all(named);
}

TEST(NvrtcCompile, TheGpuTestsRandomPlansCompile) {
  for (const NamedPlan& named : gpu_random_plans()) compile_all(named);
}

// Mixed-radix plans (lengths with factors 3, 5, 7): every kernel compiles without spills, as the shipped ones do.
TEST(NvrtcCompile, MixedRadixKernelsCompileForSm90WithoutSpills) {
  for (const NamedPlan& named : mixed_radix_plans()) compile_all(named);
  for (const NamedPlan& named : mixed_bench_plans()) compile_all(named);
}

// A profile's register limit under the hardware's reaches ptxas (Fermi's 63); Hopper's 255 adds no option.
TEST(NvrtcCompile, OptionsCarryTheProfilesRegisterLimit) {
  const std::vector<std::string> fermi = nvrtc_options(90, find_arch_profile("fermi")->max_registers_per_thread);
  EXPECT_NE(std::find(fermi.begin(), fermi.end(), "--maxrregcount=63"), fermi.end());
  const std::vector<std::string> hopper = nvrtc_options(90, find_arch_profile("hopper")->max_registers_per_thread);
  for (const std::string& option : hopper) EXPECT_EQ(option.find("maxrregcount"), std::string::npos) << option;
}

TEST(NvrtcCompile, SourceStartsWithItsHeader) {
  const NamedPlan named = shipped_plans().front();
  const KernelSpec spec = lower_plan(named.plan, *find_arch_profile(named.plan.arch), named.name).kernels[0];
  const std::string source = emit_cuda_source(spec);
  EXPECT_EQ(source.rfind("// Generated by fft3d from plan " + named.name, 0), 0u);
  EXPECT_NE(source.find("Nominal flops"), std::string::npos);
  EXPECT_NE(source.find("extern \"C\" __global__"), std::string::npos);
}

// The multi-GPU exchange's copy kernel: both entries compile for sm_90 without spills, a fixed text with every
// placeholder filled.
TEST(NvrtcCompile, ThePeerCopyKernelCompilesForSm90WithoutSpills) {
  const std::string source = peer_copy_source();
  for (const char* placeholder : {"MAX_COPIES", "THREADS", "DEPTH", "ENTRY"})
    EXPECT_EQ(source.find(placeholder), std::string::npos) << placeholder;
  EXPECT_NE(source.find(peer_copy_entry_16), std::string::npos);
  EXPECT_NE(source.find(peer_copy_entry_8), std::string::npos);
  const CompiledKernel compiled = compile_source(source, peer_copy_entry_16, 90);
  EXPECT_FALSE(compiled.cubin.empty());
  EXPECT_FALSE(compiled.report.spills()) << compiled.report.log;
}

}  // namespace
}  // namespace fft3d::testing
