#include "bench/exchange_bench.hpp"

#include <stdexcept>

#include "bench/multi_gpu_devices.hpp"
#include "bench/multi_gpu_layout.hpp"
#include "bench/nccl_clique.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d::bench {
namespace {

constexpr int warmup_runs = 3;
constexpr std::int64_t chunk_elements = std::int64_t{1} << 26;     // host staging, 512 MiB of fp32 complex
constexpr std::int64_t exact_float_range = std::int64_t{1} << 24;  // integers below this are exact in fp32

// The value that names natural index i exactly in fp32 (for volumes below 2^48 values).
Complex32 index_value(std::int64_t i) {
  return {static_cast<float>(i % exact_float_range), static_cast<float>(i / exact_float_range)};
}

void fill_indices(PerDeviceBuffers& buffers, const Extents& size, int gpus) {
  std::vector<Complex32> chunk;
  for_each_chunk(size, gpus, SlabLayout::natural, chunk_elements,
                 [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                   chunk.resize(static_cast<std::size_t>(count));
                   for (std::int64_t i = 0; i < count; ++i)
                     chunk[static_cast<std::size_t>(i)] = index_value(natural + i);
                   buffers.upload(g, chunk.data(), local, count);
                 });
}

// Throws std::runtime_error naming the first value that is not where the y slabs put it.
void require_y_slabs(const PerDeviceBuffers& buffers, const Extents& size, int gpus) {
  std::vector<Complex32> chunk;
  for_each_chunk(size, gpus, SlabLayout::y_slabs, chunk_elements,
                 [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                   chunk.resize(static_cast<std::size_t>(count));
                   buffers.download(g, chunk.data(), local, count);
                   for (std::int64_t i = 0; i < count; ++i)
                     if (chunk[static_cast<std::size_t>(i)] != index_value(natural + i))
                       throw std::runtime_error("the slab exchange of " + to_string(size) + " over " +
                                                std::to_string(gpus) + " GPUs put a wrong value at element " +
                                                std::to_string(local + i) + " of GPU " + std::to_string(g) +
                                                "'s y slab (expected natural index " + std::to_string(natural + i) +
                                                ")");
                 });
}

// One contiguous block per peer, `share` values each, at the peer's share of the buffer on both sides.
NcclClique::Blocks all_to_all_blocks(int gpus, std::int64_t share) {
  NcclClique::Blocks blocks(static_cast<std::size_t>(gpus));
  for (auto& of_rank : blocks)
    for (int peer = 0; peer < gpus; ++peer) of_rank.push_back({peer, peer * share, share});
  return blocks;
}

// The transform's own exchange alone (MultiGpuTransform::transpose_to_y_slabs) with `exchange`, checked once to
// build the y slabs before it is timed.
Timing time_transpose(const Extents& size, const std::vector<int>& devices, SlabExchange exchange,
                      const ExchangeSettings& settings, const PerDeviceBuffers& source, PerDeviceBuffers& target) {
  MultiGpuTransform fft({.extents = size, .devices = devices, .exchange_timeout_s = settings.timeout_s,
                         .exchange = exchange});
  target.poison_nan();
  fft.transpose_to_y_slabs(source.const_pointers(), target.pointers());
  require_y_slabs(target, size, static_cast<int>(devices.size()));
  return time_on_devices(
      devices, [&] { fft.transpose_to_y_slabs(source.const_pointers(), target.pointers()); }, warmup_runs,
      settings.repeats);
}

}  // namespace

ExchangeTimes time_exchanges(const Extents& size, const std::vector<int>& devices, const ExchangeSettings& settings) {
  const int gpus = static_cast<int>(devices.size());
  const SlabDecomposition d = slab_decomposition(size, gpus, settings.arch);
  NcclClique clique(devices);
  PerDeviceBuffers source(devices, d.local_elements()), target(devices, d.local_elements());
  NcclClique::Blocks sends, receives;
  for (int rank = 0; rank < gpus; ++rank) {
    sends.push_back(exchange_sends(d, rank, /*to_y_slabs=*/true));
    receives.push_back(exchange_receives(d, rank, /*to_y_slabs=*/true));
  }
  const NcclClique::Blocks peers = all_to_all_blocks(gpus, d.local_elements() / gpus);

  // The checked runs, waited for with the timeout: the blocks must build the y slabs.
  fill_indices(source, size, gpus);
  target.poison_nan();
  clique.exchange(sends, receives, source.const_pointers(), target.pointers());
  clique.wait(settings.timeout_s, "the slab exchange (z slabs to y slabs)");
  require_y_slabs(target, size, gpus);
  clique.exchange(peers, peers, source.const_pointers(), target.pointers());
  clique.wait(settings.timeout_s, "NCCL's all-to-all");
  ExchangeTimes times;
  times.gpus = gpus;
  times.local_bytes = d.local_elements() * static_cast<std::int64_t>(sizeof(Complex32));
  times.blocks_per_gpu = static_cast<std::int64_t>(sends.front().size());
  times.blocks = time_on_devices(
      devices, [&] { clique.exchange(sends, receives, source.const_pointers(), target.pointers()); }, warmup_runs,
      settings.repeats);
  times.copy_engines = time_transpose(size, devices, SlabExchange::copy_engines, settings, source, target);
  times.peer_stores = time_transpose(size, devices, SlabExchange::peer_stores, settings, source, target);
  times.all_to_all = time_on_devices(
      devices, [&] { clique.exchange(peers, peers, source.const_pointers(), target.pointers()); }, warmup_runs,
      settings.repeats);
  return times;
}

}  // namespace fft3d::bench
