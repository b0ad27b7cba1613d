#include "bench/nccl_clique.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "fft3d/errors.hpp"
#include "validate/cuda/cuda_calls.hpp"

namespace fft3d::bench {
namespace {

constexpr auto poll_interval = std::chrono::microseconds(50);

std::string nccl_message(ncclResult_t code, ncclComm_t comm) {
  std::string message = ncclGetErrorString(code);
  const char* last = ncclGetLastError(comm);
  if (last && *last) message += std::string(": ") + last;
  return message;
}

void check_nccl(ncclResult_t code, const std::string& call, ncclComm_t comm = nullptr) {
  if (code != ncclSuccess && code != ncclInProgress)
    throw CudaError(call, static_cast<int>(code), nccl_message(code, comm));
}

}  // namespace

void disable_nvlink_multicast() { setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/1); }

struct NcclClique::Impl {
  std::vector<int> devices;
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
};

NcclClique::NcclClique(const std::vector<int>& devices) : impl_(std::make_unique<Impl>()) {
  impl_->devices = devices;
  disable_nvlink_multicast();
  impl_->comms.resize(devices.size());
  check_nccl(ncclCommInitAll(impl_->comms.data(), static_cast<int>(devices.size()), devices.data()),
             "ncclCommInitAll");
  for (int device : devices) {
    validate::check_cuda(cudaSetDevice(device), "cudaSetDevice");
    cudaStream_t stream = nullptr;
    validate::check_cuda(cudaStreamCreate(&stream), "cudaStreamCreate");
    impl_->streams.push_back(stream);
  }
}

NcclClique::~NcclClique() {
  for (std::size_t i = 0; i < impl_->streams.size(); ++i) {
    cudaSetDevice(impl_->devices[i]);
    cudaStreamDestroy(impl_->streams[i]);
  }
  for (ncclComm_t comm : impl_->comms)
    if (comm) ncclCommDestroy(comm);  // an aborted one is null
}

const std::vector<int>& NcclClique::devices() const { return impl_->devices; }
void* NcclClique::comm(std::size_t rank) const { return impl_->comms.at(rank); }
void* NcclClique::stream(std::size_t rank) const { return impl_->streams.at(rank); }

void NcclClique::exchange(const Blocks& sends, const Blocks& receives,
                          const std::vector<const std::complex<float>*>& sources,
                          const std::vector<std::complex<float>*>& targets) {
  constexpr std::size_t floats_per_value = 2;  // complex values travel as pairs of ncclFloat
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (std::size_t r = 0; r < impl_->comms.size(); ++r) {
    for (const ExchangeBlock& b : sends.at(r))
      check_nccl(ncclSend(sources.at(r) + b.offset, static_cast<std::size_t>(b.count) * floats_per_value, ncclFloat,
                          b.peer, impl_->comms[r], impl_->streams[r]),
                 "ncclSend", impl_->comms[r]);
    for (const ExchangeBlock& b : receives.at(r))
      check_nccl(ncclRecv(targets.at(r) + b.offset, static_cast<std::size_t>(b.count) * floats_per_value, ncclFloat,
                          b.peer, impl_->comms[r], impl_->streams[r]),
                 "ncclRecv", impl_->comms[r]);
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
}

void NcclClique::wait(double timeout_s, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    bool done = true;
    for (std::size_t i = 0; i < impl_->streams.size(); ++i) {
      ncclResult_t async = ncclSuccess;
      check_nccl(ncclCommGetAsyncError(impl_->comms[i], &async), "ncclCommGetAsyncError", impl_->comms[i]);
      check_nccl(async, what, impl_->comms[i]);
      validate::check_cuda(cudaSetDevice(impl_->devices[i]), "cudaSetDevice");
      const cudaError_t state = cudaStreamQuery(impl_->streams[i]);
      if (state == cudaErrorNotReady) done = false;
      else validate::check_cuda(state, what);
    }
    if (done) return;
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeout_s) {
      for (ncclComm_t comm : impl_->comms) ncclCommAbort(comm);
      impl_->comms.assign(impl_->comms.size(), nullptr);
      throw CudaError(what, static_cast<int>(ncclInternalError),
                      "NCCL exchange timed out after " + std::to_string(timeout_s) + " s; communicators aborted");
    }
    std::this_thread::sleep_for(poll_interval);
  }
}

}  // namespace fft3d::bench
