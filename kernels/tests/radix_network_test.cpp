// The in-register radix DFTs (emit_radix.hpp): the network that write_radix_function prints, executed in double,
// equals a naive DFT for every radix with factors 2, 3, 5 and 7 up to 64; the power-of-two radices print the text
// they always have (hashes of that text as main printed it); the mixed ones compile with NVRTC inside a trivial
// kernel, without spills (no GPU needed).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <set>

#include <nvrtc.h>

#include "cuda/cuda_compiler.hpp"
#include "emit/emit_parts.hpp"
#include "emit/emit_radix.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/lengths.hpp"
#include "lowering/kernel_spec.hpp"
#include "tile_interpreter.hpp"

namespace fft3d::testing {
namespace {

using Complex = std::complex<double>;

// The largest radix tested: twice Hopper's one-block pass radix (32), so every radix a profile can hold.
constexpr std::int64_t largest_tested_radix = 64;
constexpr double network_error_bound = 1e-15;  // relative L2 in double
// In fp32: a quarter of the GPU transform's bound against the fp64 oracle (2e-6), which the other passes share.
constexpr double fp32_error_bound = 5e-7;

std::string radix_text(std::int64_t radix) {
  emit::SourceWriter out;
  emit::write_radix_function(out, radix);
  return out.text();
}

// The FNV-1a offset basis the golden hashes below were taken with (one digit short of the standard
// 14695981039346656037, which fft3d::fnv1a defaults to; kept so that the hashes stay as checked in).
constexpr std::uint64_t golden_hash_seed = 1469598103934665603ull;

// The DFT of x by definition (the tile interpreter's small_dft).
std::vector<Complex> naive_dft(std::vector<Complex> x) {
  small_dft(x);
  return x;
}

double relative_l2(const std::vector<Complex>& got, const std::vector<Complex>& want) {
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) error += std::norm(got[i] - want[i]), norm += std::norm(want[i]);
  return std::sqrt(error / norm);
}

std::vector<std::int64_t> supported_radices() {
  std::vector<std::int64_t> radices;
  for (std::int64_t r = 2; r <= largest_tested_radix; ++r)
    if (is_supported_length(r)) radices.push_back(r);
  return radices;
}

// FNV-1a of write_radix_function's text for the powers of two, as main printed it before the network was data.
TEST(RadixNetwork, PowerOfTwoRadicesPrintTheirFormerText) {
  const std::vector<std::pair<std::int64_t, std::uint64_t>> golden = {
      {2, 0xee9800a64e58e35cull},  {4, 0xc000180edb58a224ull},  {8, 0x785d64411fdee8f3ull},
      {16, 0x7f3d823bef115063ull}, {32, 0x4743aa93103a16adull}, {64, 0xd37833b7e15628f5ull}};
  for (const auto& [radix, hash] : golden) EXPECT_EQ(fnv1a(radix_text(radix), golden_hash_seed), hash) << radix_text(radix);
}

TEST(RadixNetwork, EveryRadixComputesTheDftInDouble) {
  std::mt19937_64 generator(29);
  std::normal_distribution<double> normal;
  for (const std::int64_t radix : supported_radices()) {
    std::vector<Complex> x(radix);
    for (Complex& value : x) value = {normal(generator), normal(generator)};
    std::vector<Complex> v = x;
    emit::run_radix_network(emit::radix_network(radix), v);
    EXPECT_LT(relative_l2(v, naive_dft(x)), network_error_bound) << "radix " << radix;
  }
}

// In fp32 with the printed literals (relative L2 against the fp64 DFT of the same inputs).
TEST(RadixNetwork, EveryRadixMeetsTheFp32BoundWithItsPrintedLiterals) {
  std::mt19937_64 generator(7);
  std::normal_distribution<double> normal;
  double worst = 0;
  for (const std::int64_t radix : supported_radices()) {
    std::vector<Complex> x(radix);
    std::vector<std::complex<float>> v(radix);
    for (std::int64_t k = 0; k < radix; ++k) {
      v[k] = {static_cast<float>(normal(generator)), static_cast<float>(normal(generator))};
      x[k] = {v[k].real(), v[k].imag()};
    }
    emit::run_radix_network(emit::radix_network(radix), v);
    const std::vector<Complex> got(v.begin(), v.end());
    const double error = relative_l2(got, naive_dft(x));
    EXPECT_LT(error, fp32_error_bound) << "radix " << radix;
    worst = std::max(worst, error);
  }
  std::cout << "worst fp32 relative L2 error: " << worst << "\n";
}

// Every butterfly is a small prime on distinct registers, and the stages' primes multiply to the radix.
TEST(RadixNetwork, ButterfliesAreSmallPrimesOnDistinctRegisters) {
  for (const std::int64_t radix : supported_radices()) {
    std::int64_t butterfly_points = 0;
    for (const emit::RadixStep& step : emit::radix_network(radix).steps) {
      const auto* butterfly = std::get_if<emit::RadixButterfly>(&step);
      if (!butterfly) continue;
      const std::int64_t p = static_cast<std::int64_t>(butterfly->registers.size());
      EXPECT_TRUE(p == 2 || p == 3 || p == 5 || p == 7) << radix;
      std::set<std::int64_t> distinct(butterfly->registers.begin(), butterfly->registers.end());
      EXPECT_EQ(static_cast<std::int64_t>(distinct.size()), p) << radix;
      butterfly_points += p;
    }
    std::int64_t product = 1;
    for (const std::int64_t p : emit::radix_network_primes(radix)) product *= p;
    EXPECT_EQ(product, radix);
    EXPECT_EQ(butterfly_points, radix * static_cast<std::int64_t>(emit::radix_network_primes(radix).size()));
  }
}

std::size_t twiddle_multiplies(std::int64_t radix) {
  const std::string text = radix_text(radix);
  std::size_t multiplies = 0;
  for (std::size_t at = text.find("fft3d_mul("); at != std::string::npos; at = text.find("fft3d_mul(", at + 1))
    ++multiplies;
  return multiplies;
}

// A prime radix needs no twiddle, the quarter turns of a radix-4 block cost no multiplication, and coprime parts
// (the prime-factor algorithm) none between them.
TEST(RadixNetwork, TrivialTwiddlesAreFree) {
  for (const std::int64_t radix : {3, 4, 5, 7, 6, 10, 12, 14, 15, 20, 21, 28, 30, 35, 42, 60})
    EXPECT_EQ(twiddle_multiplies(radix), 0u) << radix_text(radix);
  // 9 = 3 x 3: w_9^(j*m) for j, m in {1, 2}. 48 = 3 x 16: three 16-point networks and nothing between the parts.
  EXPECT_EQ(twiddle_multiplies(9), 4u);
  EXPECT_EQ(twiddle_multiplies(48), 3 * twiddle_multiplies(16));
}

TEST(RadixNetwork, AnUnsupportedFactorIsAUsageError) {
  emit::SourceWriter out;
  EXPECT_THROW(emit::write_radix_function(out, 11), UsageError);
  EXPECT_THROW(emit::write_radix_function(out, 22), UsageError);
}

// The radix function inside a kernel that loads a thread's values, transforms them and stores them.
std::string trivial_kernel(std::int64_t radix) {
  emit::SourceWriter out;
  out.raw(emit::device_helpers_source());
  emit::write_radix_function(out, radix);
  const std::string r = std::to_string(radix);
  out.open("extern \"C\" __global__ void radix_kernel(float2* data)");
  out.line("float2 v[" + r + "];");
  out.line("float2* line = data + (long long)(blockIdx.x * blockDim.x + threadIdx.x) * " + r + ";");
  out.line("#pragma unroll");
  out.line("for (int k = 0; k < " + r + "; ++k) v[k] = line[k];");
  out.line(emit::radix_function_name(radix) + "(v);");
  out.line("#pragma unroll");
  out.line("for (int k = 0; k < " + r + "; ++k) line[k] = v[k];");
  out.close();
  return out.text();
}

// Compiles `source` for sm_90 and returns the ptxas log (a failure's log in the test's message).
std::string compile_for_sm90(const std::string& source, std::int64_t radix) {
  nvrtcProgram program = nullptr;
  EXPECT_EQ(nvrtcCreateProgram(&program, source.c_str(), "radix.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
  std::vector<std::string> options = nvrtc_options(90);
  std::vector<const char*> argv;
  for (const std::string& option : options) argv.push_back(option.c_str());
  const nvrtcResult result = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  std::size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  nvrtcDestroyProgram(&program);
  EXPECT_EQ(result, NVRTC_SUCCESS) << "radix " << radix << "\n" << log << "\n" << source;
  return log;
}

TEST(RadixNetwork, MixedRadicesCompileWithNvrtcWithoutSpills) {
  for (const std::int64_t radix : {3, 5, 6, 7, 9, 10, 12, 14, 15, 20, 21, 25, 27, 28, 30, 35, 49}) {
    const CompileReport report = parse_ptxas_log(compile_for_sm90(trivial_kernel(radix), radix));
    EXPECT_GT(report.registers, 0) << "radix " << radix;
    EXPECT_FALSE(report.spills()) << "radix " << radix;
    std::cout << "radix " << radix << ": " << report.registers << " registers\n";
  }
}

}  // namespace
}  // namespace fft3d::testing
