// Every shipped plan (tesla, fermi, hopper, and the GPU tables plans/<arch>/gpus/<gpu>/) at its real size: the CPU
// backend against FFTW in fp64, then the scaled inverse back to the input. Memory: the input, the output and FFTW's
// reference only (6 GB at 128M points).
// Real plans (*-r2c.yaml, *-c2r.yaml) run for sampled_real_sizes only, plans of sizes with factors 3, 5 or 7 for
// sampled_mixed_sizes only. Real plans: R2C against FFTW's r2c; C2R of FFTW's r2c of random reals, scaled, back to
// those reals. Labelled `real-size` in CTest: minutes per plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <span>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/plan_text.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {
namespace {

namespace fs = std::filesystem;
using Values = std::vector<std::complex<double>>;

constexpr double bound = 1e-12;

// The real plans (-r2c, -c2r) run here for these sizes only: every real plan runs on the GPU
// suite, and a sample keeps CI's CPU time in bounds (each 2^27-point real plan takes minutes on two cores).
constexpr const char* sampled_real_sizes[] = {"256x128x128-", "512x256x256-", "128x512x1024-"};
// Plans of sizes with factors 3, 5 or 7 (every kind) run for these sizes only, for the same reason: one odd prime
// power and one product with a power of two.
constexpr const char* sampled_mixed_sizes[] = {"243x243x243", "384x384x256"};

bool starts_with_any(const std::string& name, std::span<const char* const> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const char* size) { return name.starts_with(size); });
}

// Whether every length of the size that opens a plan file's name ("384x384x256-r2c.yaml") is a power of two.
bool power_of_two_size(const std::string& name) {
  std::int64_t length = 0;
  for (char c : name) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      if ((length & (length - 1)) != 0) return false;
      if (c != 'x') return true;
      length = 0;
      continue;
    }
    length = 10 * length + (c - '0');
  }
  return (length & (length - 1)) == 0;
}

bool sampled(const fs::path& file) {
  const std::string name = file.filename().string();
  if (!power_of_two_size(name)) return starts_with_any(name, sampled_mixed_sizes);
  const bool real = name.find("-r2c") != std::string::npos || name.find("-c2r") != std::string::npos;
  return !real || starts_with_any(name, sampled_real_sizes);
}

// A GPU table's fp64 plans (2^25-2^27 points: 11 s for a 2^25-point plan here, more for the larger) run for
// sampled_fp64_sizes only; the GPU bench checks every one against cuFFT Z2Z before it times it.
constexpr const char* sampled_fp64_sizes[] = {"2048x128x128-"};

bool sampled_gpu_table(const fs::path& file) {
  const std::string name = file.filename().string();
  return !name.ends_with("-fp64.yaml") || starts_with_any(name, sampled_fp64_sizes);
}

std::vector<std::string> shipped_plan_files() {
  std::vector<std::string> files;
  for (const char* table : {"tesla", "fermi", "hopper"}) {
    const fs::path folder = fs::path(FFT3D_SOURCE_DIR) / "plans" / table;
    if (!fs::is_directory(folder)) continue;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".yaml" && sampled(entry.path())) files.push_back(entry.path().string());
    if (!fs::is_directory(folder / "gpus")) continue;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(folder / "gpus"))
      if (entry.path().extension() == ".yaml" && sampled_gpu_table(entry.path()))
        files.push_back(entry.path().string());  // GPU tables (seconds each, the fp64 ones sampled)
  }
  std::sort(files.begin(), files.end());
  return files;
}

// "plans/tesla/256x256x256.yaml" -> "tesla_256x256x256", "plans/hopper/gpus/nvidia-h200/64x512x512.yaml" ->
// "hopper_gpus_nvidia_h200_64x512x512": a GoogleTest name (letters, digits, underscores).
std::string test_name(const testing::TestParamInfo<std::string>& info) {
  const fs::path path = fs::relative(fs::path(info.param), fs::path(FFT3D_SOURCE_DIR) / "plans");
  std::string name = (path.parent_path() / path.stem()).string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Skips (with the reason) where the buffers of the check would not fit in this machine's memory.
bool fits_in_memory(const Plan& plan, double bytes_per_element) {
  const double needed = bytes_per_element * static_cast<double>(plan.size.elements());
  return needed <= 0.8 * static_cast<double>(host_memory_bytes());
}

// R2C against FFTW's r2c, or C2R (full scaling) of FFTW's r2c of random reals back to those reals.
void check_real_plan(const Plan& plan) {
  const CpuTransform backend(plan);
  std::vector<double> reals(static_cast<std::size_t>(plan.size.elements()));
  Values spectrum(static_cast<std::size_t>(spectrum_extents(plan).elements()));
  fill_random(reals, stable_hash(plan));
  fftw_r2c_reference(plan.size, reals, spectrum);
  ErrorReport report;
  const auto start = std::chrono::steady_clock::now();
  if (kind_of(plan) == TransformKind::r2c) {
    Values out(spectrum.size());
    poison(out);
    backend.execute(reals.data(), out.data());
    report = compare(out, spectrum);
  } else {
    std::vector<double> out(reals.size());
    poison(std::span(out));
    backend.execute(spectrum.data(), out.data(), {.direction = Direction::inverse, .scaling = Scaling::full});
    report = compare(std::span<const double>(out), reals);
  }
  std::printf("[ measured ] %s %s %s: cpu backend %.2f s, relative L2 %.3g, peak %.3g at %lld\n", plan.arch.c_str(),
              to_string(plan.size).c_str(), to_string(kind_of(plan)).c_str(), seconds_since(start),
              report.relative_l2, report.peak_error, static_cast<long long>(report.peak_index));
  EXPECT_TRUE(report.passes(bound)) << report.relative_l2 << " non-finite " << report.non_finite;
}

class ShippedPlan : public testing::TestWithParam<std::string> {};

TEST_P(ShippedPlan, MatchesFftwAtItsRealSizeAndRoundTrips) {
  const Plan plan = load_plan_file(GetParam()).plan;
  const bool real = kind_of(plan) != TransformKind::c2c;
  // Complex: input, output and reference of 16 B. Real: reals, half spectrum and output, about 8 B each.
  const double bytes_per_element = real ? 3.0 * 8.0 : 3.0 * 16.0;
  const double needed = bytes_per_element * static_cast<double>(plan.size.elements());
  if (!fits_in_memory(plan, bytes_per_element))
    GTEST_SKIP() << to_string(plan.size) << " needs " << needed / 1e9 << " GB for the input, the output and FFTW's "
                 << "reference; this machine has " << static_cast<double>(host_memory_bytes()) / 1e9
                 << " GB: not checked on the CPU here (the GPU tests check it: against cuFFT Z2Z, or in closed form "
                 << "where no oracle fits)";
  if (real) return check_real_plan(plan);
  const CpuTransform backend(plan);
  Values in(static_cast<std::size_t>(plan.size.elements())), out(in.size()), ref(in.size());
  fill_random(in, stable_hash(plan));
  poison(out);

  auto start = std::chrono::steady_clock::now();
  backend.execute(in, out, {});
  const double cpu_seconds = seconds_since(start);
  start = std::chrono::steady_clock::now();
  fftw_reference(plan.size, in, ref, Direction::forward);
  const double fftw_seconds = seconds_since(start);
  const ErrorReport forward = compare(out, ref);
  std::printf("[ measured ] %s %s: cpu backend %.2f s, fftw %.2f s, relative L2 %.3g, peak %.3g at %lld\n",
              plan.arch.c_str(), to_string(plan.size).c_str(), cpu_seconds, fftw_seconds, forward.relative_l2,
              forward.peak_error, static_cast<long long>(forward.peak_index));
  EXPECT_TRUE(forward.passes(bound)) << forward.relative_l2 << " non-finite " << forward.non_finite;

  ref.clear();
  ref.shrink_to_fit();
  backend.execute(std::span(out), {.direction = Direction::inverse, .scaling = Scaling::full});
  const ErrorReport round_trip = compare(out, in);
  EXPECT_TRUE(round_trip.passes(bound)) << "round trip: " << round_trip.relative_l2;
}

INSTANTIATE_TEST_SUITE_P(Plans, ShippedPlan, testing::ValuesIn(shipped_plan_files()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ShippedPlan);

TEST(ShippedPlans, AreThereToCheck) {
  if (shipped_plan_files().empty())
    GTEST_SKIP() << "no plan files under " << FFT3D_SOURCE_DIR << "/plans/{tesla,fermi} yet: nothing checked";
  SUCCEED();
}

}  // namespace
}  // namespace fft3d::validate
