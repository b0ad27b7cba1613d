// `fft3d bench`: a sweep of sizes, fft3d and cuFFT in the same process on the same buffers, each result checked
// against the fp64 cuFFT (Z2Z) oracle before any figure is kept, each size timed on several buffer pairs; a table,
// CSV and JSON (tools/plot_bench.py draws the plots from the CSV).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "fft3d/limits.hpp"
#include "options.hpp"
#ifdef FFT3D_HAVE_CUDA
#include "bench/bench_table.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/index_maps.hpp"
#include "validate/cuda/forward_check.hpp"
#endif

namespace fft3d::cli {
namespace {

// The paper's sizes (Figures 3-8) and 1024^3.
constexpr const char* default_sizes =
    "128x128x128,256x128x128,256x256x256,512x256x256,1024x256x256,512x512x512,128x512x512,256x512x512,"
    "128x512x1024,256x512x1024,128x1024x1024,1024x1024x1024";

std::vector<Extents> parse_size_list(const std::string& text) {
  std::vector<Extents> sizes;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) sizes.push_back(parse_extents(item));
  if (sizes.empty()) throw UsageError("--sizes: expected NXxNYxNZ[,NXxNYxNZ...]");
  return sizes;
}

void show_progress(std::size_t done, std::size_t total, const std::string& what) {
  if (!isatty(STDERR_FILENO)) return;
  const int width = 30, filled = static_cast<int>(width * done / total);
  std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/" << total
            << " " << what << std::string(20, ' ') << (done == total ? "\n" : "") << std::flush;
}

#ifdef FFT3D_HAVE_CUDA
constexpr double error_bound = validate::fp32_error_bound;

// One size: the checked runs of both libraries, then their timings on `buffer_pairs` input/output pairs (the
// checked pair and fresh ones, all kept allocated so that each lies elsewhere in physical memory; fft3d's output on
// each is checked again before it is timed; fewer where the device has no memory for more), the clocks the GPU
// ran at, and a memcpy.
bench::BenchRow measure(const Extents& size, const std::string& arch, Order order, int repeats, int buffer_pairs,
                        std::uint64_t seed, const bench::DriverProbe& driver) {
  bench::BenchRow row;
  row.size = size;
  std::string how;
  const Plan plan = plan_from(std::nullopt, to_string(size), arch, how).plan;
  row.plan = how;
  GpuTransform engine(plan, how);
  // Out of place, as the runs below.
  row.passes = static_cast<int>(GpuProfiler(engine).volume_passes(order, Placement::out_of_place));
  validate::ForwardCheck checked(size, seed);
  DeviceComplex32* const in = checked.input();
  DeviceComplex32* const out = checked.output();
  const TransformOptions options{Direction::forward, order, Scaling::none};
  bench::CufftC2C cufft(size);
  const validate::ErrorReport ours = checked.check([&] { engine.execute(in, out, options); },
                                                   order == Order::digit_reversed ? &plan : nullptr);
  const validate::ErrorReport theirs = checked.check([&] { cufft.execute(in, out, Direction::forward); });
  row.fft3d_l2 = ours.relative_l2;
  row.cufft_l2 = theirs.relative_l2;
  if (!ours.passes(error_bound) || !theirs.passes(error_bound)) {
    std::ostringstream why;
    why << "over the error bound " << error_bound << ": fft3d " << ours.relative_l2 << " (" << ours.non_finite
        << " not finite), cuFFT " << theirs.relative_l2;
    row.failure = why.str();
    return row;
  }
  std::vector<bench::Timing> ours_by_pair, theirs_by_pair;
  const auto time_pair = [&](const DeviceComplex32* pair_in, DeviceComplex32* pair_out) {
    ours_by_pair.push_back(bench::time_on_gpu([&](void* s) { engine.execute(pair_in, pair_out, options, static_cast<Stream>(s)); }, 3,
                                              repeats, nullptr, {}, bench::batched_sample_ms));
    theirs_by_pair.push_back(bench::time_on_gpu(
        [&](void* s) { cufft.execute(pair_in, pair_out, Direction::forward, s); }, 3, repeats, nullptr, {},
        bench::batched_sample_ms));
    row.fft3d_pair_ms.push_back(ours_by_pair.back().median_ms);
    row.cufft_pair_ms.push_back(theirs_by_pair.back().median_ms);
  };
  time_pair(in, out);
  std::vector<validate::DeviceBuffer> more_pairs;  // input, output, input, output, ...
  for (int pair = 1; pair < buffer_pairs; ++pair) {
    try {
      more_pairs.push_back(checked.input_copy());
      more_pairs.emplace_back(more_pairs.back().bytes());
    } catch (const OutOfMemory&) {
      if (more_pairs.size() % 2) more_pairs.pop_back();
      break;
    }
    validate::DeviceBuffer& pair_in = more_pairs[more_pairs.size() - 2];
    validate::DeviceBuffer& pair_out = more_pairs.back();
    const validate::ErrorReport again = checked.check(
        pair_out, [&] { engine.execute(pair_in.complex32(), pair_out.complex32(), options); },
        order == Order::digit_reversed ? &plan : nullptr);
    if (!again.passes(error_bound)) {
      std::ostringstream why;
      why << "over the error bound " << error_bound << " on buffer pair " << pair + 1 << ": fft3d "
          << again.relative_l2 << " (" << again.non_finite << " not finite)";
      row.failure = why.str();
      return row;
    }
    time_pair(pair_in.complex32(), pair_out.complex32());
  }
  row.clocks = driver.current_clocks();
  more_pairs.clear();  // before the memcpy's two buffers
  row.checked = true;
  row.fft3d = bench::pooled(ours_by_pair);
  row.cufft = bench::pooled(theirs_by_pair);
  const std::int64_t volume_bytes = size.elements() * static_cast<std::int64_t>(sizeof(std::complex<float>));
  row.memcpy_gbs = bench::memcpy_gbytes_per_second(volume_bytes);
  return row;
}
#endif

}  // namespace

int bench_command(const Args& args) {
  po::options_description options("bench options");
  options.add_options()
      ("sizes", po::value<std::string>()->default_value(default_sizes), "comma-separated NXxNYxNZ list")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile: its table's plan for a size, else the "
                                                                  "default planner's")
      ("order", po::value<std::string>()->default_value("natural"), "natural or digit-reversed (fft3d's output)")
      ("repeat", po::value<int>()->default_value(20), "timed samples per library, size and buffer pair")
      ("buffer-pairs", po::value<int>()->default_value(3), "input/output buffer pairs each size is timed on, both "
                                                            "libraries on each (kernel times can depend on where "
                                                            "the buffers lie); fewer where memory runs short")
      ("seed", po::value<std::string>()->default_value("1"), "seed of the random inputs")
      ("out", po::value<std::string>()->default_value("bench-out"), "folder for bench.csv and bench.json");
  po::variables_map vm;
  if (!parse_options("bench", "[--sizes LIST] [--arch A] [--order O] [--repeat N] [--buffer-pairs N] [--out DIR]",
                     args, options, {}, vm))
    return exit_ok;
  const std::vector<Extents> sizes = parse_size_list(vm["sizes"].as<std::string>());
  const std::string order = vm["order"].as<std::string>();
  if (order != "natural" && order != "digit-reversed") throw UsageError("--order must be natural or digit-reversed");
  if (vm["repeat"].as<int>() < 1) throw UsageError("--repeat must be at least 1");
  if (vm["buffer-pairs"].as<int>() < 1) throw UsageError("--buffer-pairs must be at least 1");
#ifndef FFT3D_HAVE_CUDA
  std::cerr << "fft3d bench: error: this build has no CUDA backend (no CUDA toolkit was found at build time)\n";
  return exit_unavailable;
#else
  if (validate::gpu_count() == 0) {
    std::cerr << "fft3d bench: error: no CUDA device (or no driver) on this machine\n";
    return exit_unavailable;
  }
  bench::BenchRun run{bench::gpu_info(), order, vm["repeat"].as<int>(), vm["buffer-pairs"].as<int>(), {}};
  const bench::DriverProbe driver(run.gpu.pci_bus_id);
  run.gpu.driver_release = driver.available() ? driver.driver_release() : "unknown (" + driver.why_unavailable() + ")";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    show_progress(i, sizes.size(), to_string(sizes[i]));
    run.rows.push_back(measure(sizes[i], vm["arch"].as<std::string>(),
                               order == "natural" ? Order::natural : Order::digit_reversed, run.repeats,
                               run.buffer_pairs, parse_unsigned(vm["seed"].as<std::string>(), "--seed") + i, driver));
  }
  show_progress(sizes.size(), sizes.size(), "done");
  const std::filesystem::path folder = vm["out"].as<std::string>();
  std::filesystem::create_directories(folder);
  std::ostringstream csv, json;
  bench::write_csv(run, csv);
  bench::write_json(run, json);
  write_file_atomically((folder / "bench.csv").string(), csv.str());
  write_file_atomically((folder / "bench.json").string(), json.str());
  bench::print_table(run, std::cout);
  std::cout << "\nwrote " << (folder / "bench.csv").string() << " and " << (folder / "bench.json").string()
            << "; plots: python3 tools/plot_bench.py " << (folder / "bench.csv").string() << "\n";
  for (const bench::BenchRow& row : run.rows)
    if (!row.checked) return exit_failed;
  return exit_ok;
#endif
}

}  // namespace fft3d::cli
