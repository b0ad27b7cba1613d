// GPU tests of real transforms: every shipped real plan (plans/hopper/*-r2c.yaml, *-c2r.yaml and their -in-place
// variants, found at run time) and the real plans of a few descriptors, through the CUDA engine against cuFFT
// D2Z/Z2D (fp64): in each placement a plan runs in natural order (an -in-place file in place only); C2R with scaling
// none and full, from a Hermitian spectrum and from one whose redundant X planes are not Hermitian (their imaginary
// parts must be ignored as FFTW and numpy ignore them); outputs poisoned with NaN first; C2R out of place leaves its
// input byte-identical; the round trip R2C then C2R; a plan run in the direction of the other kind is a UsageError;
// the closed-form check of real plane waves in place. Skipped without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/plan_table.hpp"
#include "lowering/kernel_spec.hpp"
#include "validate/cuda/closed_form_check.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/cuda/real_check.hpp"
#include "fft3d/lengths.hpp"
#include "validate/oracle.hpp"
#include "validate/plane_waves.hpp"
#include "validate/random_plans.hpp"

namespace fft3d::testing {
namespace {

namespace fs = std::filesystem;
using validate::RealCheck;
using validate::SpectrumInput;

constexpr double error_bound = validate::fp32_error_bound;
constexpr const char* real_plan_suffixes[] = {"-r2c.yaml", "-c2r.yaml", "-r2c-in-place.yaml", "-c2r-in-place.yaml"};
constexpr const char* in_place_suffix = "-in-place.yaml";
// Bytes per element of the volume the fp64 oracle of a real check needs: on the host the fp64 reals, the fp64
// half spectrum and the fp32 input and output; on the device cuFFT's fp64 volumes and work area, and the check's
// fp32 buffers.
constexpr double oracle_host_bytes_per_element = 48, oracle_device_bytes_per_element = 40;
constexpr double usable_host_fraction = 0.8;

// Every GPU test: skipped, with the reason, where no CUDA device is visible.
class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (validate::gpu_count() == 0)
      GTEST_SKIP() << "no CUDA GPU visible: GPU tests of real plans skipped (run tools/gpu_check.sh on a GPU machine)";
  }
};

bool oracle_check_fits(const Extents& size) {
  const double n = static_cast<double>(size.elements());
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  return oracle_host_bytes_per_element * n <=
             usable_host_fraction * static_cast<double>(validate::host_memory_bytes()) &&
         oracle_device_bytes_per_element * n <= static_cast<double>(total_bytes);
}

// The hopper table's real plan files, sorted: its folder is the first table folder that holds plans (as
// fft3d::table_entries looks them up: $FFT3D_PLANS_DIR, else the one beside the build, else the installed one).
std::vector<std::string> shipped_real_plan_files() {
  const std::vector<TableEntry> table = table_entries("hopper");
  if (table.empty()) return {};
  // $FFT3D_TEST_PLAN_FILTER: only the files whose name the ECMAScript regex matches (a GPU session runs the table
  // in parts, e.g. "^(?!1024x1024x1024)").
  const char* filter = std::getenv("FFT3D_TEST_PLAN_FILTER");
  const std::regex pattern(filter ? filter : "");
  std::vector<std::string> files;
  for (const fs::directory_entry& file : fs::directory_iterator(fs::path(table.front().path).parent_path())) {
    const std::string name = file.path().filename().string();
    if (filter && !std::regex_search(name, pattern)) continue;
    for (const char* suffix : real_plan_suffixes)
      if (name.ends_with(suffix)) files.push_back(file.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void expect_within_bound(const validate::ErrorReport& error, const std::string& what) {
  EXPECT_EQ(error.non_finite, 0) << what << ": NaN or Inf left in the output, first at " << error.peak_index;
  EXPECT_LE(error.relative_l2, error_bound) << what << ": peak " << error.peak_error << " at " << error.peak_index;
  std::cout << what << ": relative L2 " << error.relative_l2 << ", peak " << error.peak_error << " at "
            << error.peak_index << "\n";
}

std::string placement_name(Placement placement) {
  return placement == Placement::in_place ? "in-place" : "out-of-place";
}

// An R2C plan in both placements, and the calls its kind refuses (on buffers of the right sizes, so that a call
// that wrongly runs stays inside them).
void check_r2c_plan(GpuTransform& engine, const std::string& name, std::uint64_t seed,
                    const std::vector<Placement>& placements) {
  const Extents& size = engine.plan().size;
  for (Placement placement : placements) {
    RealCheck check(size, TransformKind::r2c, placement, seed);
    const validate::RealRun run = check.run();
    expect_within_bound(check.check([&] { engine.execute(run.reals_in(), run.spectrum_out()); }),
                        name + " r2c " + placement_name(placement));
    if (placement != Placement::out_of_place) continue;
    // The C2R overload's spectrum is the R2C output, its reals the R2C input's NX*NY*NZ.
    EXPECT_THROW(engine.execute(run.spectrum_out(), static_cast<float*>(run.in), {.direction = Direction::inverse}),
                 UsageError)
        << name << ": an R2C plan run as C2R";
    EXPECT_THROW(engine.execute(run.reals_in(), run.spectrum_out(), {.direction = Direction::inverse}), UsageError)
        << name << ": an R2C plan run inverse";
    EXPECT_THROW(engine.execute(run.reals_in(), run.spectrum_out(), {.order = Order::digit_reversed}), UsageError)
        << name << ": a real transform in digit-reversed order";
  }
}

// A C2R plan in both placements, from both kinds of spectrum, with both scalings; out of place its input stays
// byte-identical.
void check_c2r_plan(GpuTransform& engine, const std::string& name, std::uint64_t seed,
                    const std::vector<Placement>& placements) {
  const Extents& size = engine.plan().size;
  for (Placement placement : placements)
    for (SpectrumInput input : {SpectrumInput::hermitian, SpectrumInput::non_hermitian_x_planes}) {
      RealCheck check(size, TransformKind::c2r, placement, seed, input);
      const validate::RealRun run = check.run();
      const std::string mode = name + " c2r " + placement_name(placement) +
                               (input == SpectrumInput::hermitian ? ", Hermitian input" : ", non-Hermitian X planes");
      for (Scaling scaling : {Scaling::none, Scaling::full}) {
        const std::string what = mode + ", scaling " + to_string(scaling);
        expect_within_bound(check.check([&] {
          engine.execute(run.spectrum_in(), run.reals_out(), {.direction = Direction::inverse, .scaling = scaling});
        }, scaling), what);
        if (placement == Placement::out_of_place) {
          EXPECT_TRUE(check.input_unchanged()) << what << ": the input was written";
        }
      }
      if (placement != Placement::out_of_place || input != SpectrumInput::hermitian) continue;
      // The R2C overload's reals are the C2R output's NX*NY*NZ reals, its spectrum the C2R input's.
      EXPECT_THROW(engine.execute(static_cast<const float*>(run.out), static_cast<DeviceComplex32*>(run.in)),
                   UsageError)
          << name << ": a C2R plan run as R2C";
      EXPECT_THROW(engine.execute(run.spectrum_in(), run.reals_out(), {.direction = Direction::forward}), UsageError)
          << name << ": a C2R plan run forward";
    }
}

// The placements a plan runs in natural order: those that need no digit-reversal pass (real transforms run none;
// the table holds an -in-place plan where its plan of both placements would need one in place).
std::vector<Placement> natural_placements(GpuTransform& engine) {
  std::vector<Placement> placements;
  GpuProfiler profiler(engine);
  for (Placement placement : {Placement::out_of_place, Placement::in_place})
    if (!profiler.runs_reorder_pass(Order::natural, placement)) placements.push_back(placement);
  return placements;
}

void check_real_plan(GpuTransform& engine, const std::string& name, std::uint64_t seed,
                     const std::vector<Placement>& placements) {
  const TransformKind kind = kind_of(engine.plan());
  ASSERT_NE(kind, TransformKind::c2c) << name << ": not a real plan";
  if (!oracle_check_fits(engine.plan().size)) {
    std::cout << name << ": the fp64 oracle does not fit this machine; not checked\n";
    return;
  }
  if (kind == TransformKind::r2c) check_r2c_plan(engine, name, seed, placements);
  else check_c2r_plan(engine, name, seed, placements);
}

// R2C then C2R (full scaling) returns the input, in both placements.
void check_round_trip(GpuTransform& r2c, GpuTransform& c2r, const std::string& name, std::uint64_t seed,
                      const std::vector<Placement>& placements) {
  if (!oracle_check_fits(r2c.plan().size)) return;
  for (Placement placement : placements) {
    RealCheck check(r2c.plan().size, TransformKind::r2c, placement, seed);
    const validate::RealRun run = check.run();
    expect_within_bound(check.check_round_trip([&](float* reals_back) {
      r2c.execute(run.reals_in(), run.spectrum_out());
      c2r.execute(run.spectrum_out(), reals_back, {.direction = Direction::inverse, .scaling = Scaling::full});
    }), name + " round trip " + placement_name(placement));
  }
}

// For each size and placement: the R2C and C2R plans a descriptor takes there (printed), `also` on them, each checked
// in that placement, and their round trip.
using PlanPairCheck = std::function<void(GpuTransform& r2c, GpuTransform& c2r, const std::string& name)>;
void check_descriptor_plans(const std::vector<Extents>& sizes, const std::string& label, std::uint64_t seed,
                            const PlanPairCheck& also = {}) {
  for (const Extents& size : sizes) {
    SCOPED_TRACE(to_string(size));
    for (Placement placement : {Placement::out_of_place, Placement::in_place}) {
      GpuTransform r2c(TransformDesc{.extents = size, .kind = TransformKind::r2c, .placement = placement});
      GpuTransform c2r(TransformDesc{.extents = size, .kind = TransformKind::c2r, .placement = placement});
      EXPECT_EQ(kind_of(r2c.plan()), TransformKind::r2c);
      EXPECT_EQ(kind_of(c2r.plan()), TransformKind::c2r);
      const std::string name = label + " " + to_string(size) + " " + placement_name(placement);
      std::cout << name << ": R2C " << to_brace_string(r2c.plan().kernels) << ", C2R "
                << to_brace_string(c2r.plan().kernels) << "\n";
      if (also) also(r2c, c2r, name);
      check_real_plan(r2c, name + " (" + r2c.plan_source() + ")", seed++, {placement});
      check_real_plan(c2r, name + " (" + c2r.plan_source() + ")", seed++, {placement});
      check_round_trip(r2c, c2r, name, seed++, {placement});
    }
  }
}

using ShippedRealPlans = GpuTest;

// Each shipped real plan in every mode; each R2C plan's round trip through the C2R plan of its size (the table's,
// else the descriptor's).
TEST_F(ShippedRealPlans, MatchCufftD2ZAndZ2DInEveryMode) {
  const std::vector<std::string> files = shipped_real_plan_files();
  ASSERT_FALSE(files.empty()) << "no *-r2c.yaml or *-c2r.yaml plan in the hopper table";
  std::map<std::string, std::string> c2r_file_by_size;
  std::uint64_t seed = 900;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    GpuTransform engine = GpuTransform::from_file(file);
    const std::string name = fs::path(file).filename().string();
    std::vector<Placement> placements{Placement::in_place};
    if (!name.ends_with(in_place_suffix)) {
      placements = natural_placements(engine);
      ASSERT_FALSE(placements.empty()) << name << ": runs in natural order in neither placement";
      if (placements.size() == 1) {  // the table must then hold a plan for the other placement
        const std::string sibling = file.substr(0, file.size() - std::string(".yaml").size()) + in_place_suffix;
        EXPECT_TRUE(placements.front() == Placement::out_of_place && fs::exists(sibling))
            << name << " runs " << placement_name(placements.front()) << " only, and " << sibling << " is missing";
      }
    }
    check_real_plan(engine, name, seed++, placements);
    if (kind_of(engine.plan()) == TransformKind::c2r && !name.ends_with(in_place_suffix))
      c2r_file_by_size.emplace(to_string(engine.plan().size), file);
  }
  for (const std::string& file : files) {
    if (file.ends_with(in_place_suffix)) continue;
    GpuTransform r2c = GpuTransform::from_file(file);
    if (kind_of(r2c.plan()) != TransformKind::r2c) continue;
    const Extents size = r2c.plan().size;
    const auto paired = c2r_file_by_size.find(to_string(size));
    GpuTransform c2r = paired != c2r_file_by_size.end()
                           ? GpuTransform::from_file(paired->second)
                           : GpuTransform(TransformDesc{.extents = size, .kind = TransformKind::c2r});
    check_round_trip(r2c, c2r, fs::path(file).filename().string() + " with " + c2r.plan_source(), seed++,
                     natural_placements(c2r));
  }
  std::cout << files.size() << " shipped real plans checked on the GPU\n";
}

using GpuTableRealPlans = GpuTest;

// The real plans of this GPU's own table (plans/hopper/gpus/<device>/), which runs on this GPU model take before the
// arch's table: each in every placement it runs in natural order (the arch's table serves the others), and each
// R2C plan's round trip through the C2R plan a descriptor of its size takes on this GPU.
TEST_F(GpuTableRealPlans, MatchCufftD2ZAndZ2DInEveryModeTheyRun) {
  const std::vector<TableEntry> table = table_entries("hopper");
  ASSERT_FALSE(table.empty());
  const fs::path folder =
      fs::path(table.front().path).parent_path() / "gpus" / gpu_table_folder(current_device_name());
  if (!fs::is_directory(folder)) GTEST_SKIP() << "no table of this GPU's own: " << folder;
  std::uint64_t seed = 1900;
  int checked = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with("-r2c.yaml") && !name.ends_with("-c2r.yaml")) continue;
    SCOPED_TRACE(entry.path().string());
    GpuTransform engine = GpuTransform::from_file(entry.path().string());
    const std::vector<Placement> placements = natural_placements(engine);
    ASSERT_FALSE(placements.empty()) << name << ": runs in natural order in neither placement";
    check_real_plan(engine, name, seed++, placements);
    ++checked;
    if (kind_of(engine.plan()) != TransformKind::r2c) continue;
    GpuTransform c2r(TransformDesc{.extents = engine.plan().size, .kind = TransformKind::c2r});
    check_round_trip(engine, c2r, name + " with " + c2r.plan_source(), seed++, natural_placements(c2r));
  }
  if (checked == 0) GTEST_SKIP() << "this GPU's own table holds no real plan: " << folder;
  std::cout << checked << " real plans of " << folder << " checked on the GPU\n";
}

using RealPlansForDescriptors = GpuTest;

// A size and a kind instead of a plan: the plans GpuTransform chooses, in every mode, and their round trip.
TEST_F(RealPlansForDescriptors, MatchCufftD2ZAndZ2DInEveryMode) {
  check_descriptor_plans({Extents{32, 16, 8}, Extents{64, 64, 64}, Extents{256, 128, 128}}, "descriptor", 950);
}

using MixedRealPlans = GpuTest;

// Sizes whose NX/2 has factors 3, 5 or 7 (6, 12, 48, 50, 60, 96, 120, 192, 243): the planner's real plans
// (mixed_real_plans_test lowers and compiles them on the CPU) in every mode, and their round trip.
TEST_F(MixedRealPlans, MatchCufftD2ZAndZ2DInEveryMode) {
  check_descriptor_plans({Extents{12, 10, 9}, Extents{192, 100, 1}, Extents{24, 18, 15}, Extents{96, 96, 96},
                          Extents{100, 100, 100}, Extents{120, 36, 20}, Extents{486, 36, 20}, Extents{240, 240, 240},
                          Extents{384, 384, 256}},
                         "mixed", 980);
}

using RealRowsOverOneBlock = GpuTest;

// 1D real transforms whose row no block holds (NX over 32768 in fp32): the planner keeps the packed row's X stages
// split across kernels and runs the step as a pass of its own (LoweredPlan::real_pass), after the kernels and the
// digit-reversal pass for R2C, before them for C2R; in every mode, and their round trip.
TEST_F(RealRowsOverOneBlock, MatchCufftD2ZAndZ2DInEveryMode) {
  const PlanPairCheck takes_the_pass = [](GpuTransform& r2c, GpuTransform& c2r, const std::string& name) {
    EXPECT_TRUE(lower_plan(r2c.plan(), *find_arch_profile("hopper")).real_pass) << name;
    EXPECT_TRUE(lower_plan(c2r.plan(), *find_arch_profile("hopper")).real_pass) << name;
  };
  check_descriptor_plans({Extents{1 << 16, 1, 1}, Extents{1 << 20, 1, 1}, Extents{1 << 22, 1, 1}}, "1D", 2100,
                         takes_the_pass);
}

using OddRealPlans = GpuTest;

// An odd NX (RealStep): the planner's plans, every X stage in the step's kernel, in every mode, and their round
// trip; NX = 1, a plane, and issue 29's 243^3 and 343^3 among them.
TEST_F(OddRealPlans, MatchCufftD2ZAndZ2DInEveryMode) {
  check_descriptor_plans({Extents{1, 16, 8}, Extents{7, 16, 8}, Extents{3, 5, 7}, Extents{15, 12, 10},
                          Extents{125, 64, 1}, Extents{105, 24, 10}, Extents{243, 243, 243}, Extents{343, 343, 343}},
                         "odd", 1200);
}

// Random legal odd-NX plans (validate::random_legal_odd_real_plan, hopper, small volumes): every one that the
// lowering takes in natural order runs within the bound in the placements it takes; those it refuses are counted.
TEST_F(OddRealPlans, RandomLegalPlansMatchCufft) {
  const validate::RandomPlanLimits limits{.max_axis_length = 128, .max_elements = std::int64_t{1} << 15,
                                              .arch = "hopper", .factors = supported_factors};
  constexpr int plans = 40;
  int run = 0, refused = 0;
  for (int i = 0; i < plans; ++i) {
    const std::uint64_t seed = 1300 + static_cast<std::uint64_t>(i);
    std::mt19937_64 random(seed);
    const TransformKind kind = i % 2 == 0 ? TransformKind::r2c : TransformKind::c2r;
    const Plan plan = validate::random_legal_odd_real_plan(random, kind, limits);
    SCOPED_TRACE(to_yaml(plan));
    std::optional<GpuTransform> engine;
    try {
      engine.emplace(plan, "random odd plan " + std::to_string(seed));
    } catch (const LoweringError& e) {
      ++refused;
      std::cout << "seed " << seed << ": refused by the lowering: " << e.what() << "\n";
      continue;
    }
    const std::vector<Placement> placements = natural_placements(*engine);
    if (placements.empty()) {
      ++refused;
      continue;
    }
    check_real_plan(*engine, "random odd plan " + std::to_string(seed), seed, placements);
    ++run;
    if (HasFailure()) return;
  }
  std::cout << run << " random odd-NX plans checked on the GPU, " << refused << " refused by the lowering\n";
  EXPECT_GT(run, plans / 2);
}

using RealClosedForm = GpuTest;

// The closed-form check of real transforms (validate/cuda/closed_form_check.hpp), in place: the planner's R2C of
// real plane waves matches the half spectrum's spikes and its C2R brings the reals back, for an even and an odd NX;
// a run that skips the R2C fails it.
TEST_F(RealClosedForm, PlaneWavesCheckTheHalfSpectrumAndTheRoundTrip) {
  for (const Extents& size : {Extents{64, 48, 32}, Extents{45, 32, 16}, Extents{128, 128, 128}}) {
    SCOPED_TRACE(to_string(size));
    GpuTransform r2c(TransformDesc{.extents = size, .kind = TransformKind::r2c, .placement = Placement::in_place});
    GpuTransform c2r(TransformDesc{.extents = size, .kind = TransformKind::c2r, .placement = Placement::in_place});
    validate::DeviceBuffer data(static_cast<std::size_t>((size.nx / 2 + 1) * size.ny * size.nz) *
                                sizeof(std::complex<float>));
    float* const reals = static_cast<float*>(data.get());
    const validate::PlaneWaves waves = validate::random_real_plane_waves(size, 3, 7);
    const auto forward = [&] { r2c.execute(reals, data.complex32(), {}); };
    const auto inverse = [&] {
      c2r.execute(data.complex32(), reals, {.direction = Direction::inverse, .scaling = Scaling::full});
    };
    const validate::ClosedFormResult result = validate::check_real_in_closed_form(waves, data, forward, inverse);
    for (const auto& [what, error] : {std::pair{"closed form", result.spectrum}, {"round trip", result.round_trip}}) {
      EXPECT_EQ(error.non_finite, 0) << what;
      EXPECT_LE(error.relative_l2, error_bound) << what << ": peak " << error.peak_error;
      std::cout << to_string(size) << " " << what << " (R2C in place, real plane waves): relative L2 "
                << error.relative_l2 << "\n";
    }
    const validate::ClosedFormResult skipped = validate::check_real_in_closed_form(waves, data, [] {}, inverse);
    EXPECT_GT(skipped.spectrum.relative_l2, 0.1);
  }
}

}  // namespace
}  // namespace fft3d::testing
