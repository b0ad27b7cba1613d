// The NCCL calls of the multi-GPU transform, behind a header free of nccl.h: defined by nccl_present.cpp where the
// build found NCCL in the CUDA toolkit, else by nccl_absent.cpp, whose every call throws GpuUnavailable (so that a
// toolkit without NCCL still builds everything else).
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <string>
#include <vector>

#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d::nccl {

// When an exchange must be done by, and the timeout that set it (for the message).
struct Deadline {
  std::chrono::steady_clock::time_point at;
  double timeout_s = 0;
  bool passed() const { return std::chrono::steady_clock::now() > at; }
};

// Throws GpuUnavailable when this build has no NCCL.
void require_linked();

// One communicator per device, rank i on devices[i] (ncclCommInitAll), after setting NCCL_NVLS_ENABLE=0 in the
// environment, overwriting any value: NVLink multicast stays off. Throws CudaError with NCCL's message.
std::vector<NcclComm> init_all(const std::vector<int>& devices);

// The communicator's rank, rank count and CUDA device. Throw CudaError.
int rank_of(NcclComm comm);
int count_of(NcclComm comm);
int device_of(NcclComm comm);

// Errors ignored: for destructors and for clean-up after a failure.
void destroy(NcclComm comm) noexcept;
void abort(NcclComm comm) noexcept;

// One local rank's part of an exchange: its blocks (exchange_sends / exchange_receives) between its buffers.
struct ExchangeSide {
  NcclComm comm = nullptr;
  cudaStream_t stream = nullptr;
  const ExchangeUnit* from = nullptr;
  ExchangeUnit* to = nullptr;
  const std::vector<ExchangeBlock>* sends = nullptr;
  const std::vector<ExchangeBlock>* receives = nullptr;
};

// Enqueues every side's sends and receives on its stream in one NCCL group; for non-blocking communicators, waits
// until NCCL has enqueued them. Throws CudaError with NCCL's message, or when `deadline` passes first (`what` names
// the exchange).
void enqueue_exchange(const std::vector<ExchangeSide>& sides, Deadline deadline, const std::string& what);

// Polls until every event of `done` has completed, checking each communicator's asynchronous error. Throws
// CudaError with NCCL's message on an error, or when `deadline` passes first.
void wait(const std::vector<NcclComm>& comms, const std::vector<cudaEvent_t>& done, Deadline deadline,
          const std::string& what);

}  // namespace fft3d::nccl
