// The NCCL calls of the multi-GPU transform (nccl_calls.hpp), over the toolkit's NCCL.
#include <nccl.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>

#include "cuda/cuda_check.hpp"
#include "cuda/nccl_calls.hpp"
#include "fft3d/errors.hpp"

namespace fft3d::nccl {
namespace {

// A complex fp32 value travels as two floats.
constexpr std::size_t floats_per_value = 2;

std::string describe(ncclResult_t code) {
  std::string text = ncclGetErrorString(code);
  const char* last = ncclGetLastError(nullptr);  // NCCL's own detail of the failure
  if (last && *last) text += ": " + std::string(last);
  return text;
}

// ncclInProgress is no failure: a non-blocking communicator's call still running.
void check(ncclResult_t code, const std::string& call) {
  if (code != ncclSuccess && code != ncclInProgress) throw CudaError(call, static_cast<int>(code), describe(code));
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

[[noreturn]] void timed_out(Deadline deadline, const std::string& what, const std::string& stage) {
  throw CudaError("NCCL exchange", static_cast<int>(ncclInProgress),
                  what + ": " + stage + " timed out after " + seconds_text(deadline.timeout_s) + " s");
}

// Polls a non-blocking communicator's state until NCCL has finished its call.
void settle(ncclComm_t comm, Deadline deadline, const std::string& what) {
  for (;;) {
    ncclResult_t state = ncclSuccess;
    check(ncclCommGetAsyncError(comm, &state), "ncclCommGetAsyncError");
    if (state != ncclInProgress) return check(state, "NCCL exchange (" + what + ")");
    if (deadline.passed()) timed_out(deadline, what, "enqueuing the sends and receives");
    std::this_thread::yield();
  }
}

}  // namespace

void require_linked() {}

std::vector<NcclComm> init_all(const std::vector<int>& devices) {
  // Overwrite: a caller's NCCL_NVLS_ENABLE=1 must not turn NVLink multicast on.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  std::vector<NcclComm> comms(devices.size(), nullptr);
  check(ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
  return comms;
}

int rank_of(NcclComm comm) {
  int rank = 0;
  check(ncclCommUserRank(comm, &rank), "ncclCommUserRank");
  return rank;
}

int count_of(NcclComm comm) {
  int count = 0;
  check(ncclCommCount(comm, &count), "ncclCommCount");
  return count;
}

int device_of(NcclComm comm) {
  int device = 0;
  check(ncclCommCuDevice(comm, &device), "ncclCommCuDevice");
  return device;
}

void destroy(NcclComm comm) noexcept {
  if (comm) ncclCommDestroy(comm);
}

void abort(NcclComm comm) noexcept {
  if (comm) ncclCommAbort(comm);
}

void enqueue_exchange(const std::vector<ExchangeSide>& sides, Deadline deadline, const std::string& what) {
  check(ncclGroupStart(), "ncclGroupStart");
  try {
    for (const ExchangeSide& side : sides) {
      for (const ExchangeBlock& b : *side.sends)
        check(ncclSend(side.from + b.offset, floats_per_value * b.count, ncclFloat, b.peer, side.comm, side.stream),
              "ncclSend");
      for (const ExchangeBlock& b : *side.receives)
        check(ncclRecv(side.to + b.offset, floats_per_value * b.count, ncclFloat, b.peer, side.comm, side.stream),
              "ncclRecv");
    }
  } catch (...) {
    ncclGroupEnd();  // close the group; the failure is the one reported
    throw;
  }
  const ncclResult_t ended = ncclGroupEnd();
  check(ended, "ncclGroupEnd");
  if (ended == ncclInProgress)
    for (const ExchangeSide& side : sides) settle(side.comm, deadline, what);
}

void wait(const std::vector<NcclComm>& comms, const std::vector<cudaEvent_t>& done, Deadline deadline,
          const std::string& what) {
  for (;;) {
    bool finished = true;
    for (cudaEvent_t event : done) {
      const cudaError_t state = cudaEventQuery(event);
      if (state == cudaErrorNotReady)
        finished = false;
      else
        cuda::check(state, "cudaEventQuery (NCCL exchange)");
    }
    for (ncclComm_t comm : comms) {
      ncclResult_t state = ncclSuccess;
      check(ncclCommGetAsyncError(comm, &state), "ncclCommGetAsyncError");
      if (state != ncclInProgress) check(state, "NCCL exchange (" + what + ")");
    }
    if (finished) return;
    if (deadline.passed()) timed_out(deadline, what, "the transfers");
    std::this_thread::yield();
  }
}

}  // namespace fft3d::nccl
