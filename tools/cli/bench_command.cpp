// `fft3d bench`: a sweep of sizes, fft3d and cuFFT in the same process on the same buffers, each result checked
// against the fp64 cuFFT oracle (Z2Z; D2Z and Z2D for `--transform r2c`, which measures R2C and C2R) before any
// figure is kept (bench/bench_sweep.hpp runs it); this command parses its options and writes a table, CSV and JSON
// (tools/plot_bench.py draws the plots from the CSV).
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "fft3d/limits.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/transform.hpp"
#include "options.hpp"
#ifdef FFT3D_HAVE_CUDA
#include "bench/bench_sweep.hpp"
#include "bench/multi_gpu_bench.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/file_writes.hpp"
#endif

namespace fft3d::cli {
namespace {

// The paper's sizes (Figures 3-8) and 1024^3.
constexpr const char* default_sizes =
    "128x128x128,256x128x128,256x256x256,512x256x256,1024x256x256,512x512x512,128x512x512,256x512x512,"
    "128x512x1024,256x512x1024,128x1024x1024,1024x1024x1024";

// The multi-GPU sizes: one that fits a single GPU, and the 2-GPU target.
constexpr const char* default_multi_gpu_sizes = "512x512x512,1024x1024x1024";

[[maybe_unused]] void show_progress(std::size_t done, std::size_t total, const std::string& what) {
  if (!isatty(STDERR_FILENO)) return;
  const int width = 30, filled = static_cast<int>(width * done / total);
  std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/" << total
            << " " << what << std::string(20, ' ') << (done == total ? "\n" : "") << std::flush;
}

#ifdef FFT3D_HAVE_CUDA
// bench.csv and bench.json in `folder`, the table on stdout.
void write_results(const bench::BenchRun& run, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  std::ostringstream csv, json;
  bench::write_csv(run, csv);
  bench::write_json(run, json);
  write_file_atomically((folder / "bench.csv").string(), csv.str());
  write_file_atomically((folder / "bench.json").string(), json.str());
  bench::print_table(run, std::cout);
  std::cout << "\nwrote " << (folder / "bench.csv").string() << " and " << (folder / "bench.json").string()
            << "; plots: python3 tools/plot_bench.py " << (folder / "bench.csv").string() << "\n";
}
#endif

// `bench --gpus G`: the options the multi-GPU benchmark takes, checked before any GPU is touched.
int bench_several_gpus(const po::variables_map& vm) {
  const int gpus = vm["gpus"].as<int>();
  if (gpus < 1 || gpus > max_slab_gpus)
    throw UsageError("--gpus " + std::to_string(gpus) + ": the slab decomposition runs on 1 to " +
                     std::to_string(max_slab_gpus) + " GPUs");
  if (vm["transform"].as<std::string>() != "c2c") throw UsageError("--gpus measures c2c transforms");
  if (vm["precision"].as<std::string>() != "fp32") throw UsageError("--gpus measures fp32 transforms");
  if (parse_order(vm["order"].as<std::string>()) != Order::natural)
    throw UsageError("--gpus: the multi-GPU transform runs in natural order (its layout is --layout)");
  if (!vm["buffer-pairs"].defaulted()) throw UsageError("--buffer-pairs: without --gpus only");
  if (vm["repeat"].as<int>() < 1) throw UsageError("--repeat must be at least 1");
  require_arch_profile(vm["arch"].as<std::string>());
  const std::string layout = vm["layout"].as<std::string>();
  const std::vector<SlabLayout> layouts =
      layout == "both" ? std::vector<SlabLayout>{SlabLayout::natural, SlabLayout::y_slabs}
                       : std::vector<SlabLayout>{parse_layout(layout)};
  const std::vector<Extents> sizes = parse_size_list(
      vm["sizes"].defaulted() ? std::string(default_multi_gpu_sizes) : vm["sizes"].as<std::string>());
  const std::uint64_t seed = parse_unsigned(vm["seed"].as<std::string>(), "--seed");
#ifndef FFT3D_HAVE_CUDA
  (void)layouts;
  (void)sizes;
  (void)seed;
  std::cerr << "fft3d bench: error: --gpus: this build has no CUDA backend, so it runs on no GPU (no CUDA toolkit "
               "was found at build time)\n";
  return exit_unavailable;
#else
  bench::MultiGpuSettings settings;
  settings.sizes = sizes;
  settings.gpus = gpus;
  settings.layouts = layouts;
  settings.placements = {vm["in-place"].as<bool>() ? Placement::in_place : Placement::out_of_place};
  settings.arch = vm["arch"].as<std::string>();
  settings.repeats = vm["repeat"].as<int>();
  settings.seed = seed;
  const bench::MultiGpuRun run = bench::run_multi_gpu_bench(settings, [](const std::string& what) {
    if (isatty(STDERR_FILENO)) std::cerr << "measuring " << what << "\n";
  });
  const std::filesystem::path folder = vm["out"].as<std::string>();
  std::filesystem::create_directories(folder);
  std::ostringstream csv;
  bench::write_multi_gpu_csv(run, csv);
  write_file_atomically((folder / "multi_gpu_bench.csv").string(), csv.str());
  bench::print_multi_gpu_table(run, std::cout);
  std::cout << "\nwrote " << (folder / "multi_gpu_bench.csv").string() << "\n";
  // A cufftXt failure is the competitor's, reported in its row; fft3d's and the exchanges' rows must pass.
  for (const bench::MultiGpuRow& row : run.rows)
    if (!row.checked && row.library != "cufftXt") return exit_failed;
  return exit_ok;
#endif
}

}  // namespace

int bench_command(const Args& args) {
  po::options_description options("bench options");
  options.add_options()
      ("sizes", po::value<std::string>()->default_value(default_sizes), "comma-separated NXxNYxNZ list")
      ("batch", po::value<std::int64_t>()->default_value(1), "volumes of each size one run transforms, packed, "
       "c2c or real (cuFFT: cufftPlanMany of the same batch and layouts)")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile (c2c): its table's plan for a size, else "
                                                                  "the default planner's")
      ("transform", po::value<std::string>()->default_value("c2c"), "c2c, or r2c: real transforms, R2C and its "
                                                                   "inverse C2R (unscaled, as cuFFT's), each against "
                                                                   "cuFFT's; the plans fft3d takes for the device")
      ("in-place", po::bool_switch(), "with --transform r2c: in place, real rows padded to 2*(NX/2+1) (default: out "
                                      "of place)")
      ("order", po::value<std::string>()->default_value("natural"), "natural or digit-reversed (fft3d's output; "
                                                                    "c2c only)")
      ("precision", po::value<std::string>()->default_value("fp32"), "fp32, or fp64: fft3d's plans in fp64 against "
                                                                    "cuFFT Z2Z (c2c) or D2Z and Z2D (r2c, in or out "
                                                                    "of place), bound 1e-13")
      ("repeat", po::value<int>()->default_value(20), "timed samples per library, size and buffer pair")
      ("buffer-pairs", po::value<int>()->default_value(3), "input/output buffer pairs each size is timed on, both "
                                                            "libraries on each (kernel times can depend on where "
                                                            "the buffers lie); fewer where memory runs short")
      ("seed", po::value<std::string>()->default_value("1"), "seed of the random inputs")
      ("out", po::value<std::string>()->default_value("bench-out"), "folder for bench.csv and bench.json")
      ("gpus", po::value<int>(), "the multi-GPU benchmark on GPUs 0..G-1 (1 to 8): fft3d's slab decomposition, "
                                 "cufftXt and NCCL's exchanges alone, each result checked in closed form; default "
                                 "sizes 512^3 and 1024^3; writes multi_gpu_bench.csv")
      ("layout", po::value<std::string>()->default_value("both"), "with --gpus: natural, y_slabs or both (the "
                                                                  "spectrum's layout)");
  po::variables_map vm;
  if (!parse_options("bench",
                     "[--sizes LIST] [--batch B] [--transform c2c|r2c] [--in-place] [--precision fp32|fp64] [--arch A] "
                     "[--order O] [--repeat N] [--buffer-pairs N] [--out DIR]  |  bench --gpus G [--sizes LIST] "
                     "[--layout natural|y_slabs] [--in-place] [--repeat N] [--out DIR]",
                     args, options, {}, vm))
    return exit_ok;
  if (vm.count("gpus") && !vm["batch"].defaulted()) throw UsageError("--batch: single-GPU sweeps only");
  if (vm.count("gpus")) return bench_several_gpus(vm);
  if (!vm["layout"].defaulted()) throw UsageError("--layout: with --gpus only (the layout of a multi-GPU spectrum)");
  const std::vector<Extents> sizes = parse_size_list(vm["sizes"].as<std::string>());
  const Order order = parse_order(vm["order"].as<std::string>());
  const TransformKind transform = parse_kind(vm["transform"].as<std::string>());
  const Placement placement = vm["in-place"].as<bool>() ? Placement::in_place : Placement::out_of_place;
  if (transform == TransformKind::c2r)
    throw UsageError("--transform c2r: --transform r2c measures both directions, R2C and C2R");
  if (transform == TransformKind::c2c && placement == Placement::in_place)
    throw UsageError("--in-place: with --transform r2c or --gpus only (the c2c sweep runs out of place)");
  if (transform == TransformKind::r2c && order != Order::natural)
    throw UsageError("--order " + to_string(order) + ": real transforms run in natural order only");
  if (transform == TransformKind::r2c && !vm["arch"].defaulted())
    throw UsageError("--arch: with --transform c2c only (real transforms take the plans fft3d chooses for the "
                     "device)");
  if (vm["repeat"].as<int>() < 1) throw UsageError("--repeat must be at least 1");
  if (vm["buffer-pairs"].as<int>() < 1) throw UsageError("--buffer-pairs must be at least 1");
#ifndef FFT3D_HAVE_CUDA
  (void)order;
  (void)transform;
  (void)placement;
  std::cerr << "fft3d bench: error: this build has no CUDA backend (no CUDA toolkit was found at build time)\n";
  return exit_unavailable;
#else
  const bench::SweepSettings sweep{sizes,
                                   vm["arch"].as<std::string>(),
                                   order,
                                   transform,
                                   placement,
                                   vm["repeat"].as<int>(),
                                   vm["buffer-pairs"].as<int>(),
                                   parse_unsigned(vm["seed"].as<std::string>(), "--seed"),
                                   parse_precision(vm["precision"].as<std::string>()),
                                   vm["batch"].as<std::int64_t>()};
  bench::BenchRun run;
  try {
    run = bench::run_sweep(sweep, show_progress);
  } catch (const GpuUnavailable& e) {
    std::cerr << "fft3d bench: error: " << e.what() << "\n";
    return exit_unavailable;
  }
  write_results(run, vm["out"].as<std::string>());
  for (const bench::BenchRow& row : run.rows)
    if (!row.checked) return exit_failed;
  return exit_ok;
#endif
}

}  // namespace fft3d::cli
