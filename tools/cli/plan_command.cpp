// `fft3d plan`: the default planner's plan for a size, or with --measure N the fastest of its N best candidates
// timed on this machine's GPU (each checked against the fp64 cuFFT Z2Z oracle before its time counts), out of place
// or with --in-place in place.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "fft3d/errors.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/wisdom.hpp"
#include "options.hpp"
#ifdef FFT3D_HAVE_CUDA
#include "bench/gpu_timing.hpp"
#include "fft3d/gpu_transform.hpp"
#include "validate/cuda/forward_check.hpp"
#endif

namespace fft3d::cli {
namespace {

#ifdef FFT3D_HAVE_CUDA
constexpr double error_bound = validate::fp32_error_bound;

struct Measured {
  RankedPlan candidate;
  double median_ms = 0;
};

// Each candidate compiled, run on random input and checked against the fp64 oracle, then timed on the same buffers
// (bench::time_on_gpu, median of 20: out of place, samples of back-to-back runs; in place, single runs on the output
// buffer with the input copied there before each, outside the timed region); the table goes to stderr, one line per
// candidate. Throws when a candidate misses the error bound: a plan that computes the wrong transform is a defect,
// not a slow candidate.
std::vector<Measured> measure_candidates(const Extents& size, const std::vector<RankedPlan>& candidates,
                                         bool in_place) {
  validate::ForwardCheck checked(size, 1);
  DeviceComplex32* const in = checked.input();
  DeviceComplex32* const out = checked.output();
  const TransformOptions options{Direction::forward, Order::natural, Scaling::none};
  std::function<void(void*)> restore_input;
  if (in_place) restore_input = [&](void* stream) { checked.copy_input_to_output(stream); };
  DeviceComplex32* const source = in_place ? out : in;
  std::vector<Measured> measured;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    GpuTransform engine(candidates[i].plan, "candidate " + std::to_string(i + 1));
    const validate::ErrorReport error = checked.check([&] {
      if (in_place) checked.copy_input_to_output();
      engine.execute(source, out, options);
    });
    if (!error.passes(error_bound)) {
      std::ostringstream why;
      why << "candidate " << i + 1 << " {" << to_brace_string(candidates[i].plan.kernels) << "} missed the error bound "
          << error_bound << ": relative L2 " << error.relative_l2 << " (" << error.non_finite << " not finite)";
      throw std::runtime_error(why.str());
    }
    const bench::Timing timing =
        bench::time_on_gpu([&](void* s) { engine.execute(source, out, options, static_cast<Stream>(s)); }, 3, 20, nullptr, restore_input,
                           in_place ? 0.0 : bench::batched_sample_ms);
    measured.push_back({candidates[i], timing.median_ms});
    std::cerr << "candidate " << i + 1 << "  " << std::fixed << std::setprecision(1) << candidates[i].passes
              << " pass-equivalents (model)  " << std::setprecision(4) << timing.median_ms << " ms  relative L2 "
              << std::scientific << std::setprecision(2) << error.relative_l2 << std::defaultfloat << "  "
              << to_brace_string(candidates[i].plan.kernels) << "\n";
  }
  return measured;
}
#endif

// The planner's first choice, or with `measure` > 0 the fastest of that many candidates on the GPU; `header`
// receives the comment line that says which.
Plan chosen_plan(const Extents& size, const std::string& arch, int measure, bool in_place, std::string& header) {
  if (measure == 0) {
    header = "# Written by `fft3d plan`: the default planner's plan.\n";
    return default_plan(size, arch);
  }
#ifndef FFT3D_HAVE_CUDA
  (void)size, (void)arch, (void)in_place;
  throw GpuUnavailable("--measure: this build has no CUDA backend (no CUDA toolkit was found at build time)");
#else
  if (validate::gpu_count() == 0) throw GpuUnavailable("--measure: no CUDA device (or no driver) on this machine");
  const std::vector<Measured> measured =
      measure_candidates(size, ranked_plans(size, arch, passes_on_its_profile, measure), in_place);
  const Measured* fastest = &measured.front();
  for (const Measured& m : measured)
    if (m.median_ms < fastest->median_ms) fastest = &m;
  std::ostringstream text;
  text << "# Written by `fft3d plan --measure " << measure << (in_place ? " --in-place" : "")
       << "`: the fastest of the default planner's "
       << measured.size() << " best candidates on " << bench::gpu_info().name << ", " << fastest->median_ms
       << " ms (median of 20 "
       << (in_place ? "single runs in place" : "samples of back-to-back runs out of place")
       << ", natural order; the planner's first choice " << measured.front().median_ms << " ms).\n";
  header = text.str();
  return fastest->candidate.plan;
#endif
}

}  // namespace

int plan_command(const Args& args) {
  po::options_description options("plan options");
  options.add_options()
      ("size", po::value<std::string>()->required(), "NXxNYxNZ, each a power of two")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile: tesla, fermi or hopper")
      ("measure", po::value<int>()->default_value(0),
       "N > 0: time the planner's N best candidates on this GPU (each checked against the fp64 oracle first) and "
       "write the fastest; needs a CUDA device")
      ("in-place", po::bool_switch(), "with --measure: time the candidates in place (the fastest plan for runs in "
       "place, which can differ from the one out of place)")
      ("remember", po::bool_switch(), "with --measure: also keep the fastest as wisdom, which `run --size` (with "
       "--in-place for a plan measured in place) and `bench` then take before the table and the default planner")
      ("output,o", po::value<std::string>(), "write the plan to this file instead of stdout");
  po::variables_map vm;
  if (!parse_options("plan", "--size NXxNYxNZ [--arch A] [--measure N [--in-place] [--remember]] [-o FILE]", args,
                     options, {}, vm))
    return exit_ok;
  const int measure = vm["measure"].as<int>();
  if (measure < 0 || measure > 16) throw UsageError("--measure must be between 0 (no measuring) and 16");

  const bool remember = vm["remember"].as<bool>(), in_place = vm["in-place"].as<bool>();
  if (in_place && measure == 0)
    throw UsageError("--in-place chooses by timing runs in place: give --measure N (the planner's model ranks plans "
                     "for runs out of place)");
  if (remember && measure == 0) throw UsageError("--remember keeps a measured plan: give --measure N");

  std::string header;
  const Extents size = parse_extents(vm["size"].as<std::string>());
  const std::string arch = vm["arch"].as<std::string>();
  const Plan plan = chosen_plan(size, arch, measure, in_place, header);
  const std::string text = header + to_yaml(plan);
  if (remember) std::cerr << "remembered as wisdom: " << remember_plan(arch, size, in_place, text) << "\n";
  if (vm.count("output")) {
    write_file_atomically(vm["output"].as<std::string>(), text);
  } else {
    std::cout << text;
  }
  return exit_ok;
}

}  // namespace fft3d::cli
