// The NCCL calls of the multi-GPU transform (nccl_calls.hpp), over the toolkit's NCCL.
#include <nccl.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>

#include "cuda/cuda_check.hpp"
#include "cuda/nccl_calls.hpp"
#include "fft3d/errors.hpp"

namespace fft3d::nccl {
namespace {

// An exchange unit (one fp32 complex value, half an fp64 one) travels as two floats.
constexpr std::size_t floats_per_unit = exchange_unit_bytes / sizeof(float);
// The most sends and receives one group holds: NCCL's documented limit on operations between ncclGroupStart and
// ncclGroupEnd (older releases fail past it).
constexpr std::size_t max_group_operations = 2048;

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
  // Each side's blocks by peer, in order: the i-th block of g to h is matched by the i-th block h receives from g.
  struct PeerBlocks {
    std::vector<std::vector<ExchangeBlock>> sends;
    std::vector<std::vector<ExchangeBlock>> receives;
  };
  const int peers = count_of(sides.front().comm);
  std::vector<PeerBlocks> by_peer(sides.size(), {std::vector<std::vector<ExchangeBlock>>(peers),
                                                 std::vector<std::vector<ExchangeBlock>>(peers)});
  std::size_t longest = 0;  // blocks of the busiest pair
  for (std::size_t s = 0; s < sides.size(); ++s) {
    for (const ExchangeBlock& b : *sides[s].sends) by_peer[s].sends.at(b.peer).push_back(b);
    for (const ExchangeBlock& b : *sides[s].receives) by_peer[s].receives.at(b.peer).push_back(b);
    for (int p = 0; p < peers; ++p)
      longest = std::max({longest, by_peer[s].sends[p].size(), by_peer[s].receives[p].size()});
  }
  // Rounds of at most `per_pair` blocks of every pair, each round one group under NCCL's limit; every rank cuts its
  // lists alike (the same count of local sides and peers), so that round r of each rank holds the matches of round r
  // of the others.
  const std::size_t pairs = sides.size() * static_cast<std::size_t>(peers);
  const std::size_t per_pair = std::max<std::size_t>(1, max_group_operations / (2 * pairs));
  for (std::size_t first = 0; first < longest; first += per_pair) {
    const std::size_t last = first + per_pair;
    check(ncclGroupStart(), "ncclGroupStart");
    try {
      for (std::size_t s = 0; s < sides.size(); ++s)
        for (int p = 0; p < peers; ++p) {
          const ExchangeSide& side = sides[s];
          const auto& sends = by_peer[s].sends[p];
          const auto& receives = by_peer[s].receives[p];
          for (std::size_t i = first; i < std::min(last, sends.size()); ++i)
            check(ncclSend(side.from + sends[i].offset, floats_per_unit * sends[i].count, ncclFloat, p, side.comm,
                           side.stream),
                  "ncclSend");
          for (std::size_t i = first; i < std::min(last, receives.size()); ++i)
            check(ncclRecv(side.to + receives[i].offset, floats_per_unit * receives[i].count, ncclFloat, p,
                           side.comm, side.stream),
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

namespace fft3d {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";
constexpr int bits_per_hex_digit = 4;
constexpr unsigned low_nibble = 0xf;

int hex_value(char c) {
  for (int v = 0; v < 16; ++v)
    if (hex_digits[v] == c) return v;
  return -1;
}

}  // namespace

std::string nccl_unique_id_text() {
  ncclUniqueId id;
  nccl::check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  std::string text;
  for (char byte : id.internal) {
    const auto b = static_cast<unsigned char>(byte);
    text += hex_digits[b >> bits_per_hex_digit];
    text += hex_digits[b & low_nibble];
  }
  return text;
}

NcclComm nccl_communicator(const std::string& unique_id_text, int gpus, int rank, int device) {
  ncclUniqueId id;
  if (unique_id_text.size() != 2 * sizeof(id.internal))
    throw UsageError("NCCL unique id: " + std::to_string(unique_id_text.size()) + " hex digits, expected " +
                     std::to_string(2 * sizeof(id.internal)) + " (nccl_unique_id_text's)");
  for (std::size_t i = 0; i < sizeof(id.internal); ++i) {
    const int high = hex_value(unique_id_text[2 * i]), low = hex_value(unique_id_text[2 * i + 1]);
    if (high < 0 || low < 0)
      throw UsageError("NCCL unique id: digit " + std::to_string(2 * i) + " is not lower-case hex");
    id.internal[i] = static_cast<char>((high << bits_per_hex_digit) | low);
  }
  if (gpus < 1 || rank < 0 || rank >= gpus)
    throw UsageError("NCCL communicator: rank " + std::to_string(rank) + " of " + std::to_string(gpus));
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // overwrite: NVLink multicast stays off
  cuda::check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  ncclComm_t comm = nullptr;
  nccl::check(ncclCommInitRank(&comm, gpus, id, rank), "ncclCommInitRank");
  return comm;
}

void destroy_nccl_communicator(NcclComm comm) noexcept { nccl::destroy(comm); }

}  // namespace fft3d
