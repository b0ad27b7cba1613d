// The slab exchange alone, timed on the GPUs of one process: fft3d's own one-process exchanges through
// MultiGpuTransform::transpose_to_y_slabs (the copy engines' strided peer copies, its choice on 2 GPUs, and the
// peer-store kernels, its choice on more), NCCL's grouped send/receive of the blocks it runs with a communicator per
// process (exchange_sends / exchange_receives, z slabs to y slabs), and NCCL's all-to-all of the same bytes (one
// contiguous block per peer). Every exchange's result is checked (the y slabs of a volume whose values name their
// own index) before anything is timed.
#pragma once

#include <string>
#include <vector>

#include "bench/gpu_timing.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::bench {

struct ExchangeSettings {
  std::string arch = "hopper";  // the decomposition's plans (unused by the exchange, needed to build it)
  int repeats = 20;
  double timeout_s = 60;        // the checked run's wait before the communicators are aborted
};

struct ExchangeTimes {
  Timing copy_engines;          // the transform's copy engines pushing the plane blocks into the peers, self included
  Timing peer_stores;           // the transform's SM kernels storing the same blocks through peer pointers
  Timing blocks;                // grouped ncclSend/ncclRecv of the slab blocks, self blocks included
  Timing all_to_all;            // one ncclSend/ncclRecv per peer of local_bytes/G each, self included
  std::int64_t local_bytes = 0; // what each GPU sends (and receives) in one exchange, self block included
  int gpus = 1;
  std::int64_t blocks_per_gpu = 0;  // ncclSend calls per GPU in one slab exchange
  // GB/s per GPU: local_bytes over the time (nccl-tests' algorithm bandwidth), and the bytes that cross to other
  // GPUs, local_bytes*(G-1)/G, over the time (nccl-tests' bus bandwidth of an all-to-all).
  static double algorithm_gbs(std::int64_t bytes, double ms) { return static_cast<double>(bytes) / (ms * 1e6); }
  double bus_gbs(double ms) const { return algorithm_gbs(local_bytes, ms) * (gpus - 1) / gpus; }
};

// Throws UsageError (a size G does not divide), GpuUnavailable (no NCCL), OutOfMemory, CudaError (NCCL's message;
// a checked run that did not finish within timeout_s), std::runtime_error (the blocks did not build y slabs).
ExchangeTimes time_exchanges(const Extents& size, const std::vector<int>& devices, const ExchangeSettings& settings);

}  // namespace fft3d::bench
