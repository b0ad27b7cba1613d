// The slab exchange's copies run by SM kernels that store through peer pointers (SlabExchange::peer_stores): where
// a GPU sends to several peers at once its copy engines share one link's rate among them, while stores from its
// multiprocessors keep theirs (docs/multi-gpu.md, "The decomposition"; docs/performance.md L115).
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d {

class PeerCopyKernel {
 public:
  // Compiles the kernel for sm_<arch> (through the kernel cache) and loads it; usable on every device of that arch.
  explicit PeerCopyKernel(int arch);
  ~PeerCopyKernel();
  PeerCopyKernel(const PeerCopyKernel&) = delete;
  PeerCopyKernel& operator=(const PeerCopyKernel&) = delete;

  // Enqueues on `stream` of the current device (the senders' device) one launch of `blocks` blocks that runs
  // `copies`: sources[c.from] + c.src_offset ... to destinations[c.to] + c.dst_offset ..., in exchange units.
  // 16-byte units where every offset, pitch, width and pointer allows, else 8-byte ones.
  // @pre 1 <= copies.size() <= max_slab_gpus; the copies share one sender, width, height and both pitches; the
  // current device has peer access to every destination's device.
  void launch(const std::vector<PlaneCopy>& copies, const std::vector<const ExchangeUnit*>& sources,
              const std::vector<ExchangeUnit*>& destinations, int blocks, cudaStream_t stream) const;

 private:
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_16_ = nullptr;
  cudaKernel_t kernel_8_ = nullptr;
};

}  // namespace fft3d
