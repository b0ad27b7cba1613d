#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

#include "backends.hpp"
#include "closed_form_run.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/wisdom.hpp"
#include "multi_gpu_run.hpp"
#include "options.hpp"
#include "real_run.hpp"
#include "report_lines.hpp"
#include "validate/oracle.hpp"

namespace fft3d::cli {
namespace {

struct Timing {
  double median = 0, min = 0, max = 0;
};

Timing summarize(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front(), seconds.back()};
}

Direction opposite(Direction d) { return d == Direction::forward ? Direction::inverse : Direction::forward; }

void add_run_options(po::options_description& options) {
  options.add_options()
      ("backend", po::value<std::string>()->default_value("auto"), "cpu, cuda, or auto (CUDA when a GPU exists)")
      ("inverse", po::bool_switch(), "the inverse transform (conjugate sign); with --transform r2c: C2R")
      ("order", po::value<std::string>()->default_value("natural"), "output order: natural or digit-reversed")
      ("scaling", po::value<std::string>()->default_value("none"),
       "none, full (multiply by 1/N) or ortho (by 1/sqrt(N), both directions)")
      ("precision", po::value<std::string>(), "fp64 or fp32 (default: fp64 on the CPU, the plan's on CUDA: fp32 "
                                              "unless the plan file says fp64); sets the plan's precision")
      ("in-place", po::bool_switch(), "transform in place (default: out of place, input kept)")
      ("seed", po::value<std::string>()->default_value("1"), "seed of the random input")
      ("repeat", po::value<int>()->default_value(1), "timed runs; the report gives median, min and max")
      ("threads", po::value<int>()->default_value(0), "CPU backend threads (0: all cores)")
      ("per-kernel", po::bool_switch(), "CUDA: each kernel's time and bandwidth, and its copy twin's (C2C plans)")
      ("check", po::value<std::string>()->default_value("auto"),
       "oracle (fp64 FFTW or cuFFT Z2Z), plane-waves (CUDA, in place: an input whose transform is known in closed "
       "form, for volumes whose oracle fits nowhere), or auto (the oracle where its three fp64 volumes fit the "
       "host's memory)")
      ("gpus", po::value<int>(), "run the slab decomposition over GPUs 0..G-1 (1 to 8; c2c, r2c or c2r, fp32 or fp64, "
                                 "--size, natural order): checked against the fp64 oracle gathered from the GPUs, or "
                                 "in closed form (c2c)")
      ("layout", po::value<std::string>()->default_value("natural"),
       "with --gpus: the spectrum's layout, natural (z slabs, as the input) or y_slabs (one exchange fewer)")
      ("exchange", po::value<std::string>()->default_value("auto"),
       "with --gpus: how the exchanges move data, copy-engines, peer-stores (SM kernels), nccl, or auto (copy "
       "engines on 2 GPUs, peer stores on more)")
      ("no-cufftxt", po::bool_switch(), "with --gpus: skip cufftXt (cuFFT's own multi-GPU transform of the same size, "
                                        "kind and precision, timed after fft3d's run)");
}

// `run --gpus G`: the options a multi-GPU run takes, checked before any GPU is touched.
int run_on_several_gpus(const po::variables_map& vm) {
  MultiGpuRunSettings settings;
  settings.gpus = vm["gpus"].as<int>();
  if (settings.gpus < 1) throw UsageError("--gpus " + std::to_string(settings.gpus) + ": must be at least 1");
  if (vm["backend"].as<std::string>() == "cpu")
    throw UsageError("--gpus runs on the cuda backend; the cpu backend has no multi-GPU transform");
  if (vm.count("plan"))
    throw UsageError("--gpus takes --size: each GPU's plans come from the slab decomposition, not a plan file");
  if (!vm.count("size")) throw UsageError("--gpus needs --size NXxNYxNZ");
  if (vm["per-kernel"].as<bool>()) throw UsageError("--gpus does not take --per-kernel");
  settings.size = parse_extents(vm["size"].as<std::string>());
  settings.precision = parse_precision(optional_string(vm, "precision").value_or("fp32"));
  settings.bound = *cuda_error_bound(settings.precision);
  settings.layout = parse_layout(vm["layout"].as<std::string>());
  settings.exchange = parse_exchange(vm["exchange"].as<std::string>());
  settings.kind = requested_kind(vm);
  const bool inverse = vm["inverse"].as<bool>() || settings.kind == TransformKind::c2r;
  if (settings.kind == TransformKind::r2c && vm["inverse"].as<bool>())
    throw UsageError("--gpus: --transform r2c runs forward and c2r inverse (no --inverse with r2c)");
  settings.options = {inverse ? Direction::inverse : Direction::forward,
                      parse_order(vm["order"].as<std::string>()), parse_scaling(vm["scaling"].as<std::string>())};
  settings.in_place = vm["in-place"].as<bool>();
  settings.repeats = vm["repeat"].as<int>();
  if (settings.repeats < 1) throw UsageError("--repeat must be at least 1");
  settings.seed = parse_unsigned(vm["seed"].as<std::string>(), "--seed");
  settings.check = vm["check"].as<std::string>();
  settings.arch = vm["arch"].as<std::string>();
  settings.cufftxt = !vm["no-cufftxt"].as<bool>();
  require_arch_profile(settings.arch);
  check_multi_gpu_run_settings(settings);
  return run_multi_gpu(settings);
}

// The settings the options ask of `backend`, and the error bound they are judged by (`bound`).
RunSettings settings_from(const po::variables_map& vm, const Backend& backend, Precision plan_precision,
                          double& bound) {
  RunSettings settings;
  const bool inverse = vm["inverse"].as<bool>() || requested_kind(vm) == TransformKind::c2r;
  settings.options.direction = inverse ? Direction::inverse : Direction::forward;
  settings.options.order = parse_order(vm["order"].as<std::string>());
  settings.options.scaling = parse_scaling(vm["scaling"].as<std::string>());
  const std::string default_precision = backend.name == "cpu" ? "fp64" : to_string(plan_precision);
  settings.precision = parse_precision(optional_string(vm, "precision").value_or(default_precision));
  settings.in_place = vm["in-place"].as<bool>();
  settings.repeats = vm["repeat"].as<int>();
  settings.threads = vm["threads"].as<int>();
  settings.per_kernel = vm["per-kernel"].as<bool>();
  if (settings.repeats < 1) throw UsageError("--repeat must be at least 1");
  const std::optional<double> backend_bound = backend.error_bound(settings.precision);
  if (!backend_bound)
    throw UsageError("the " + backend.name + " backend has no " + to_string(settings.precision) + " mode");
  bound = *backend_bound;
  return settings;
}

// Whether the run is checked in closed form (plane waves) rather than against the oracle; throws UsageError when
// that check is asked for (or the only one left) but the settings do not allow it (fp32 only: its bound).
bool checks_in_closed_form(const std::string& check, const Backend& backend, const RunSettings& settings,
                           const Extents& size, bool oracle_fits) {
  if (check != "auto" && check != "oracle" && check != "plane-waves")
    throw UsageError("--check must be auto, oracle or plane-waves");
  if (!(check == "plane-waves" || (check == "auto" && !oracle_fits && backend.name == "cuda"))) return false;
  if (backend.name != "cuda") throw UsageError("--check plane-waves runs on the cuda backend");
  if (!settings.in_place || settings.options.direction != Direction::forward ||
      settings.options.order != Order::natural || settings.options.scaling != Scaling::none)
    throw UsageError("the closed-form check runs the forward transform in place in natural order, unscaled, "
                     "then the scaled inverse (pass --in-place; no --inverse, --order, --scaling)" +
                     std::string(oracle_fits ? "" : "; " + to_string(size) + " leaves no other check: its fp64 "
                                                        "oracle needs " + std::to_string(run_host_bytes(size)) +
                                                        " B of host memory"));
  if (settings.precision != Precision::fp32)
    throw UsageError("the closed-form check (plane waves) runs fp32 plans; an fp64 run takes the oracle");
  return true;
}

// One volume of a packed batch.
std::span<std::complex<double>> volume_of(Volume& batch, std::int64_t n, std::int64_t v) {
  return {batch.data() + v * n, static_cast<std::size_t>(n)};
}

void print_batch_error(const std::string& what, const BatchError& e, const Plan& plan, double bound) {
  print_error(plan.batch > 1 ? what + "worst of " + std::to_string(plan.batch) + " volumes (volume " +
                                   std::to_string(e.volume) + "): "
                             : what,
              e.report, plan.size, bound);
}

// The run checked against the backend's fp64 oracle (FFTW on the CPU, cuFFT Z2Z on the GPU) and by its round trip,
// every volume of a batch apart; the timing is reported only when all pass.
int run_against_oracle(const Plan& plan, const std::string& how, const Backend& backend, const RunSettings& settings,
                       double bound, std::uint64_t seed) {
  const Extents& size = plan.size;
  const std::int64_t n = size.elements();
  Volume input(static_cast<std::size_t>(n * plan.batch)), output(input.size()), reference(input.size());
  validate::fill_random(input, seed);
  validate::poison(output);

  std::cout << "plan      " << how << "\nsize      " << to_string(size) << " (" << n << " points)"
            << (plan.batch > 1 ? " x " + std::to_string(plan.batch) + " volumes" : "") << ", " << plan.arch
            << " plan, " << plan.kernels.size() << " kernels\nbackend   " << backend.name << ", "
            << to_string(settings.precision) << ", " << to_string(settings.options.direction) << ", "
            << to_string(settings.options.order) << " order, scaling " << to_string(settings.options.scaling) << ", "
            << (settings.in_place ? "in place" : "out of place") << "\n";
  const Timing time = summarize(backend.run(input, output, settings));

  // The check: the output against the backend's fp64 oracle, natural order, of the size asked for (the same memory
  // as a squeezed plan's, so that the check does not take the squeeze on trust); a plan of some axes only against
  // FFTW's DFT over those axes (on either backend: cuFFT's oracle here transforms all three).
  const Extents oracle_size = settings.asked_size.value_or(size);
  for (std::int64_t v = 0; v < plan.batch; ++v) {
    if (settings.options.order == Order::digit_reversed) validate::to_natural_order(plan, volume_of(output, n, v));
    if (transforms_all_axes(plan))
      backend.reference(oracle_size, volume_of(input, n, v), volume_of(reference, n, v), settings.options.direction,
                        settings.options.scaling);
    else
      validate::fftw_axes_reference(oracle_size, plan.axes, volume_of(input, n, v), volume_of(reference, n, v),
                                    settings.options.direction, settings.options.scaling);
  }
  const BatchError error = worst_volume(output, reference, plan.batch);
  print_batch_error("error     ", error, plan, bound);

  // The round trip: the opposite transform of the (natural-order) output returns the input.
  RunSettings back = settings;
  back.options = {opposite(settings.options.direction), Order::natural, round_trip_scaling(settings.options.scaling)};
  back.repeats = 1;
  Volume returned(input.size());
  validate::poison(returned);
  backend.run(output, returned, back);
  const BatchError round_trip = worst_volume(returned, input, plan.batch);
  print_batch_error("roundtrip ", round_trip, plan, bound);
  if (!error.report.passes(bound) || !round_trip.report.passes(bound)) {
    std::cerr << "fft3d run: error: the result is over the " << to_string(settings.precision) << " error bound "
              << bound << "; no timing is reported\n";
    return exit_failed;
  }

  print_timing(plan, settings.precision == Precision::fp64 ? 16 : 8,
               backend.volume_passes ? backend.volume_passes(settings) : 0, time.median, time.min, time.max,
               settings.repeats);
  if (backend.extra_report) backend.extra_report(settings, time.median, std::cout);
  return exit_ok;
}

// A real plan runs in one direction, natural order: R2C forward, C2R inverse (--inverse, or --transform c2r). The
// other direction is a UsageError naming the plan's kind.
void require_real_settings(const Plan& plan, const std::string& how, const RunSettings& settings,
                           const std::string& check) {
  const TransformKind kind = kind_of(plan);
  if (kind == TransformKind::r2c && settings.options.direction == Direction::inverse)
    throw UsageError(how + " is an r2c plan: it runs forward only (R2C); C2R takes a c2r plan (--transform c2r "
                     "with --size, or a -c2r.yaml plan file)");
  if (kind == TransformKind::c2r && settings.options.direction == Direction::forward)
    throw UsageError(how + " is a c2r plan: it runs inverse only (C2R); pass --inverse");
  if (settings.options.order != Order::natural)
    throw UsageError("real transforms run in natural order only (no --order digit-reversed)");
  if (check == "plane-waves" && kind == TransformKind::c2r)
    throw UsageError(how + " is a c2r plan: the closed-form check runs R2C, then C2R back (--transform r2c, no "
                     "--inverse, --in-place --check plane-waves)");
  if (check != "auto" && check != "oracle" && check != "plane-waves")
    throw UsageError("--check must be auto, oracle or plane-waves");
}

// The closed-form check of a real plan (R2C, fp32, one volume, in place): its C2R for the round trip is the plan
// the same size takes in place (plan_for_size), on this device's table where it has one.
int run_real_in_closed_form(const Plan& plan, const std::string& how, const ClosedFormSettings& settings) {
  const SizedPlan inverse = plan_for_size(plan.size, plan.arch, true, passes_on_its_profile, TransformKind::c2r,
                                          Precision::fp32, 1, gpu_device_name());
  return run_real_closed_form_on_cuda(plan, how, inverse.parsed.plan, inverse.source, settings);
}

}  // namespace

int run_command(const Args& args) {
  po::options_description options("run options");
  po::positional_options_description positional;
  add_plan_source_options(options, positional);
  add_run_options(options);
  po::variables_map vm;
  if (!parse_options("run", "PLAN [options]  |  run --size NXxNYxNZ [--arch A] [options]  |  "
                     "run --gpus G --size NXxNYxNZ [--layout natural|y_slabs] [options]", args, options, positional,
                     vm))
    return exit_ok;
  if (vm.count("gpus")) return run_on_several_gpus(vm);
  if (!vm["layout"].defaulted()) throw UsageError("--layout: with --gpus only (the layout of a multi-GPU spectrum)");
  if (!vm["exchange"].defaulted()) throw UsageError("--exchange: with --gpus only (how a multi-GPU run exchanges)");
  if (vm["no-cufftxt"].as<bool>()) throw UsageError("--no-cufftxt: with --gpus only (a one-GPU run times cuFFT)");

  check_thread_count(vm["threads"].as<int>());
  const std::uint64_t seed = parse_unsigned(vm["seed"].as<std::string>(), "--seed");
  // Only the closed-form check (CUDA, in place) runs without the host's fp64 oracle: any other run whose host
  // memory cannot fit is refused before any planning work.
  const TransformKind kind = requested_kind(vm, vm["inverse"].as<bool>());
  const bool closed_form_possible = vm["backend"].as<std::string>() != "cpu" && vm["in-place"].as<bool>() &&
                                    vm["check"].as<std::string>() != "oracle";
  if (vm.count("size") && !closed_form_possible)
    check_run_host_memory(parse_extents(vm["size"].as<std::string>()), validate::host_memory_bytes());
  std::string how;
  const Plan plan = plan_from_options(vm, how, vm["in-place"].as<bool>(), kind).plan;
  const Backend backend = select_backend(vm["backend"].as<std::string>(), plan, how);
  if (!backend.available) {
    std::cerr << "fft3d run: error: the " << backend.name << " backend cannot run here: " << backend.why_not << "\n";
    return exit_unavailable;
  }
  double bound = 0;
  RunSettings settings = settings_from(vm, backend, plan.precision, bound);
  if (vm.count("size")) settings.asked_size = parse_extents(vm["size"].as<std::string>());
  // Refused, not ignored: only the CUDA backend has kernels to time one by one.
  if (settings.per_kernel && backend.name != "cuda")
    throw UsageError("--per-kernel times the CUDA backend's kernels; the " + backend.name + " backend has none");

  const Extents& size = plan.size;
  if (plan.batch > 1 && vm["check"].as<std::string>() == "plane-waves")
    throw UsageError("run --batch: checked against the oracle, every volume (no --check plane-waves)");
  if (!transforms_all_axes(plan) && vm["check"].as<std::string>() == "plane-waves")
    throw UsageError("a plan of axes " + axes_text(plan.axes) + " is checked against FFTW over those axes (no "
                     "--check plane-waves: the closed form transforms all three)");
  // The host holds the batch's fp64 input, output and references: as much as one volume batch times as long.
  const Extents batch_size = batch_rows_extents(plan);
  const bool oracle_fits = run_host_bytes(batch_size) <= static_cast<double>(validate::host_memory_bytes());
  const bool real = kind_of(plan) != TransformKind::c2c;
  if (real) require_real_settings(plan, how, settings, vm["check"].as<std::string>());
  if (plan.batch == 1 && transforms_all_axes(plan) &&
      checks_in_closed_form(vm["check"].as<std::string>(), backend, settings, size, oracle_fits)) {
    const ClosedFormSettings closed_form{seed, settings.repeats, bound, settings.per_kernel, settings.asked_size};
    return real ? run_real_in_closed_form(plan, how, closed_form) : run_closed_form_on_cuda(plan, how, closed_form);
  }
  check_run_host_memory(batch_size, validate::host_memory_bytes(), plan.axes);
  return real ? run_real_against_oracle(plan, how, backend, settings, bound, seed)
              : run_against_oracle(plan, how, backend, settings, bound, seed);
}

}  // namespace fft3d::cli
