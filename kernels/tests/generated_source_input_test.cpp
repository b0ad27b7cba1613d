// Hostile names and logs at the edges of code generation: a plan's name never becomes code, the kernel cache's key
// covers every byte NVRTC compiles, and the ptxas log parser reads any log in linear time.
#include <gtest/gtest.h>

#include <string>

#include "fft3d/arch_profile.hpp"
#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "lowering/kernel_spec.hpp"
#include "test_plans.hpp"

namespace fft3d::testing {
namespace {

KernelSpec first_kernel(const std::string& plan_name) {
  const NamedPlan named = shipped_plans().front();
  return lower_plan(named.plan, *find_arch_profile(named.plan.arch), plan_name).kernels.front();
}

TEST(GeneratedSourceInput, APlanNameCannotBreakOutOfItsComment) {
  const std::string hostile = "evil\n#define float2 double2\r\n*/ \\";
  const std::string source = emit_cuda_source(first_kernel(hostile));
  const std::string header = source.substr(0, source.find('\n'));
  EXPECT_EQ(source.find("\n#define float2"), std::string::npos);
  EXPECT_EQ(header.find("*/"), std::string::npos) << header;
  EXPECT_NE(header.find("evil\\x0a#define float2 double2\\x0d\\x0a* / \\x5c"), std::string::npos) << header;
  EXPECT_EQ(comment_text("plans/tesla/128x128x128.yaml"), "plans/tesla/128x128x128.yaml");
}

TEST(GeneratedSourceInput, TheCompiledSourceHoldsNoPlanNameAndIsWhatTheKeyCovers) {
  const KernelSpec a = first_kernel("plans/a.yaml"), b = first_kernel("some other name");
  const std::string compiled = emit_compiled_source(a);
  EXPECT_EQ(compiled, emit_compiled_source(b));
  EXPECT_EQ(compiled.find("plans/a.yaml"), std::string::npos);
  const std::string full = emit_cuda_source(a);
  EXPECT_EQ(full.substr(full.size() - compiled.size()), compiled) << "the dumped source is the header and the rest";
  const std::vector<std::string> options = nvrtc_options(90);
  const std::uint64_t key = kernel_cache_key(compiled, options, "13.0");
  EXPECT_EQ(key, kernel_cache_key(emit_compiled_source(b), options, "13.0"));
  for (std::size_t at : {std::size_t{0}, compiled.size() / 2, compiled.size() - 1}) {
    std::string changed = compiled;
    changed[at] = changed[at] == ' ' ? '\t' : ' ';
    EXPECT_NE(kernel_cache_key(changed, options, "13.0"), key) << "byte " << at << " is compiled but not keyed";
  }
  EXPECT_NE(kernel_cache_key(compiled, nvrtc_options(80), "13.0"), key);
  EXPECT_NE(kernel_cache_key(compiled, options, "13.1"), key);
}

TEST(GeneratedSourceInput, APtxasLogWithLongDigitRunsParsesLinearly) {
  const std::string digits(30000, '9');
  const std::string log = "ptxas info : Used " + digits + " registers, " + digits + " bytes smem\n" +
                          "ptxas info : Used 40 registers, 12 bytes stack frame, 0 bytes spill stores, " +
                          "4 bytes spill loads, 2048 bytes smem\n";
  const CompileReport report = parse_ptxas_log(log);
  EXPECT_EQ(report.registers, 40);
  EXPECT_EQ(report.stack_frame_bytes, 12);
  EXPECT_EQ(report.spill_load_bytes, 4);
  EXPECT_EQ(report.static_shared_bytes, 2048) << "a run of 30000 digits is no figure of ptxas's";
  const CompileReport plain = parse_ptxas_log("ptxas info    : Used 32 registers, 1024 bytes smem, 400 bytes cmem[0]");
  EXPECT_EQ(plain.registers, 32);
  EXPECT_EQ(plain.static_shared_bytes, 1024);
  EXPECT_EQ(parse_ptxas_log(std::string(100000, '7')).registers, -1);
}

}  // namespace
}  // namespace fft3d::testing
