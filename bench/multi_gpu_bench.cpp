#include "bench/multi_gpu_bench.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <memory>

#include "bench/cufftxt_run.hpp"
#include "bench/exchange_bench.hpp"
#include "bench/multi_gpu_check.hpp"
#include "bench/multi_gpu_devices.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::bench {
namespace {

constexpr int warmup_runs = 3;
constexpr int wave_count = 4;
constexpr std::int64_t max_memcpy_bytes = std::int64_t{2} << 30;  // the ceiling's buffers: at most 2 x 2 GiB

std::vector<int> first_devices(int gpus) {
  std::vector<int> devices(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) devices[static_cast<std::size_t>(g)] = g;
  return devices;
}

std::string variant_name(SlabLayout layout, Placement placement, SlabExchange exchange) {
  return std::string(layout == SlabLayout::natural ? "natural" : "y_slabs") + ", " +
         (placement == Placement::in_place ? "in place" : "out of place") + ", " +
         exchange_name(exchange);
}

// Every exchange of the one-process transform, measured side by side: the copy engines and the SM kernels (its
// automatic choices on 2 GPUs and on more) and NCCL (what one process per GPU uses).
constexpr std::array<SlabExchange, 3> measured_exchanges{SlabExchange::copy_engines, SlabExchange::peer_stores,
                                                         SlabExchange::nccl};

// What a size's rows share: where it runs and the time of one pass of the local volume at memcpy speed.
struct SizeContext {
  Extents size;
  std::vector<int> devices;
  std::uint64_t seed = 1;
  double one_pass_ms = 0;
  MultiGpuRow row(const std::string& library, const std::string& variant) const {
    MultiGpuRow r;
    r.library = library;
    r.variant = variant;
    r.size = size;
    r.gpus = static_cast<int>(devices.size());
    return r;
  }
  void finish(MultiGpuRow& r) const { r.pass_equivalents = r.time.median_ms / one_pass_ms; }
};

std::string check_failure(const validate::ErrorReport& spectrum, const validate::ErrorReport& round_trip) {
  return "over the fp32 bound " + std::to_string(validate::fp32_error_bound) + ": spectrum relative L2 " +
         std::to_string(spectrum.relative_l2) + ", round trip " + std::to_string(round_trip.relative_l2) +
         (spectrum.non_finite + round_trip.non_finite > 0 ? ", values not finite" : "");
}

void measure_fft3d(const SizeContext& c, SlabLayout layout, Placement placement, SlabExchange exchange,
                   const MultiGpuSettings& settings, MultiGpuRow& row) {
  MultiGpuTransform fft({c.size, c.devices, layout, settings.exchange_timeout_s, exchange});
  row.extra_bytes_per_gpu = fft.exchange_buffer_bytes();
  PerDeviceBuffers in(c.devices, fft.local_elements());
  std::unique_ptr<PerDeviceBuffers> separate_out;
  if (placement == Placement::out_of_place) {
    separate_out = std::make_unique<PerDeviceBuffers>(c.devices, fft.local_elements());
    separate_out->poison_nan();
  }
  PerDeviceBuffers& out = separate_out ? *separate_out : in;
  const auto forward = [&] { fft.forward(in.const_pointers(), out.pointers()); };
  const auto inverse = [&] { fft.inverse(out.const_pointers(), out.pointers(), Scaling::full); };
  const validate::ClosedFormResult checked = check_distributed_in_closed_form(
      validate::random_plane_waves(c.size, wave_count, c.seed), layout, in, forward, out, inverse, out);
  row.error = checked.spectrum.relative_l2;
  if (!checked.spectrum.passes(validate::fp32_error_bound) || !checked.round_trip.passes(validate::fp32_error_bound)) {
    row.failure = check_failure(checked.spectrum, checked.round_trip);
    return;
  }
  row.checked = true;
  // In place, each timed forward starts from its own scaled inverse, so the values stay bounded.
  row.time = time_on_devices(c.devices, forward, warmup_runs, settings.repeats,
                             placement == Placement::in_place ? std::function<void()>(inverse) : nullptr);
}

void add_exchange_rows(const SizeContext& c, const MultiGpuSettings& settings, std::vector<MultiGpuRow>& rows) {
  MultiGpuRow copies = c.row("copies", "slab exchange, copy engines (strided peer copies)");
  MultiGpuRow peer = c.row("copies", "slab exchange, peer stores (SM kernels)");
  MultiGpuRow blocks = c.row("NCCL", "slab blocks (grouped send/recv)");
  MultiGpuRow all = c.row("NCCL", "all-to-all (one block per peer)");
  try {
    const ExchangeTimes t = time_exchanges(c.size, c.devices, {settings.arch, settings.repeats,
                                                               settings.exchange_timeout_s});
    blocks.variant += ", " + std::to_string(t.blocks_per_gpu) + " sends per GPU";
    for (auto [row, time] :
         {std::pair{&copies, t.copy_engines}, std::pair{&peer, t.peer_stores}, std::pair{&blocks, t.blocks},
          std::pair{&all, t.all_to_all}}) {
      row->checked = true;
      row->time = time;
      row->gbs = ExchangeTimes::algorithm_gbs(t.local_bytes, time.median_ms);
      row->bus_gbs = t.bus_gbs(time.median_ms);
      c.finish(*row);
    }
  } catch (const std::exception& e) {
    copies.failure = peer.failure = blocks.failure = all.failure = e.what();
  }
  rows.push_back(copies);
  rows.push_back(peer);
  rows.push_back(blocks);
  rows.push_back(all);
}

void measure_cufftxt_row(const SizeContext& c, const MultiGpuSettings& settings, MultiGpuRow& row) {
  const CufftXtResult r = bench::measure_cufftxt({.size = c.size, .devices = c.devices,
                                                  .bound = validate::fp32_error_bound, .warmup = warmup_runs,
                                                  .repeats = settings.repeats, .seed = c.seed});
  row.extra_bytes_per_gpu = r.work_area_bytes;
  row.error = r.round_trip_error;
  row.checked = r.checked;
  row.failure = r.failure;
  row.time = r.time;
  if (r.checked && !r.input_saved) row.variant += "; " + restore_text(r);
}

// Runs `measure` into `row`, whose failure says what stopped it, and finishes its figures.
template <class Measure>
MultiGpuRow measured(const SizeContext& c, MultiGpuRow row, Measure measure) {
  try {
    measure(row);
  } catch (const std::exception& e) {
    row.failure = e.what();
    row.checked = false;
  }
  if (row.checked) c.finish(row);
  return row;
}

SizeContext size_context(const Extents& size, const std::vector<int>& devices, std::uint64_t seed) {
  validate::check_cuda(cudaSetDevice(devices.front()), "cudaSetDevice");
  const std::int64_t local_bytes = size.elements() / static_cast<std::int64_t>(devices.size()) *
                                   static_cast<std::int64_t>(sizeof(Complex32));
  const double gbs = memcpy_gbytes_per_second(std::min(local_bytes, max_memcpy_bytes));
  return {size, devices, seed, 2.0 * static_cast<double>(local_bytes) / (gbs * 1e6)};
}

}  // namespace

MultiGpuRun run_multi_gpu_bench(const MultiGpuSettings& settings, const MultiGpuProgress& progress) {
  if (settings.gpus < 1 || settings.gpus > max_slab_gpus)
    throw UsageError("--gpus " + std::to_string(settings.gpus) + ": the slab decomposition runs on 1 to " +
                     std::to_string(max_slab_gpus) + " GPUs");
  const int available = validate::gpu_count();
  if (available < settings.gpus)
    throw GpuUnavailable("--gpus " + std::to_string(settings.gpus) + " asks for " + std::to_string(settings.gpus) +
                         " GPUs; this machine has " + std::to_string(available));
  const std::vector<int> devices = first_devices(settings.gpus);
  validate::check_cuda(cudaSetDevice(devices.front()), "cudaSetDevice");
  MultiGpuRun run;
  run.gpu = gpu_info();
  run.gpus = settings.gpus;
  const auto report = [&](const std::string& what) { if (progress) progress(what); };
  std::vector<SizeContext> contexts;
  for (std::size_t i = 0; i < settings.sizes.size(); ++i) {
    const SizeContext& c = contexts.emplace_back(size_context(settings.sizes[i], devices, settings.seed + i));
    for (SlabLayout layout : settings.layouts)
      for (Placement placement : settings.placements)
        for (SlabExchange exchange : measured_exchanges) {
          const std::string variant = variant_name(layout, placement, exchange);
          report("fft3d " + to_string(c.size) + " " + variant);
          run.rows.push_back(measured(c, c.row("fft3d", variant), [&](MultiGpuRow& row) {
            measure_fft3d(c, layout, placement, exchange, settings, row);
          }));
        }
    report("NCCL exchanges " + to_string(c.size));
    add_exchange_rows(c, settings, run.rows);
  }
  for (const SizeContext& c : contexts) {
    report("cufftXt " + to_string(c.size));
    run.rows.push_back(measured(c, c.row("cufftXt", "in place, its own format"),
                                [&](MultiGpuRow& row) { measure_cufftxt_row(c, settings, row); }));
  }
  return run;
}

}  // namespace fft3d::bench
