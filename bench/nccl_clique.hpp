// NCCL for the benchmarks: one communicator and one stream per device of one process (ncclCommInitAll), NVLink
// multicast off, and waits that time out instead of hanging. NCCL's and CUDA's types stay out of this header.
#pragma once

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "fft3d/slab_decomposition.hpp"

namespace fft3d::bench {

// Sets NCCL_NVLS_ENABLE=0 in the environment, overwriting any value a caller set: the machines' rule for NVLink
// multicast (docs/multi-gpu.md). Call before creating communicators.
void disable_nvlink_multicast();

class NcclClique {
 public:
  // Throws GpuUnavailable (a build without NCCL), CudaError with NCCL's own message.
  explicit NcclClique(const std::vector<int>& devices);
  ~NcclClique();
  NcclClique(const NcclClique&) = delete;
  NcclClique& operator=(const NcclClique&) = delete;

  const std::vector<int>& devices() const;
  void* comm(std::size_t rank) const;    // an ncclComm_t
  void* stream(std::size_t rank) const;  // a cudaStream_t, blocking (ordered with the device's legacy stream)
  // One grouped exchange of fp32 complex values, enqueued on the ranks' streams: for every rank r, an ncclSend of
  // each block of sends[r] from sources[r] and an ncclRecv of each block of receives[r] into targets[r].
  using Blocks = std::vector<std::vector<ExchangeBlock>>;
  void exchange(const Blocks& sends, const Blocks& receives, const std::vector<const std::complex<float>*>& sources,
                const std::vector<std::complex<float>*>& targets);
  // Waits for every stream; after `timeout_s` aborts the communicators and throws CudaError naming `what`. A failed
  // communicator throws CudaError with NCCL's message.
  void wait(double timeout_s, const std::string& what);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fft3d::bench
