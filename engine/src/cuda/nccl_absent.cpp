// The NCCL calls of a build without NCCL (nccl_calls.hpp): the multi-GPU transform is unavailable.
#include "cuda/nccl_calls.hpp"

#include "fft3d/errors.hpp"

namespace fft3d::nccl {
namespace {

[[noreturn]] void unavailable() {
  throw GpuUnavailable(
      "the multi-GPU transform needs NCCL, and fft3d was built without it (nccl.h and libnccl were not found in "
      "the CUDA toolkit at configure time)");
}

}  // namespace

void require_linked() { unavailable(); }
std::vector<NcclComm> init_all(const std::vector<int>&) { unavailable(); }
int rank_of(NcclComm) { unavailable(); }
int count_of(NcclComm) { unavailable(); }
int device_of(NcclComm) { unavailable(); }
void destroy(NcclComm) noexcept {}
void abort(NcclComm) noexcept {}
void enqueue_exchange(const std::vector<ExchangeSide>&, Deadline, const std::string&) { unavailable(); }
void wait(const std::vector<NcclComm>&, const std::vector<cudaEvent_t>&, Deadline, const std::string&) {
  unavailable();
}

}  // namespace fft3d::nccl

namespace fft3d {

std::string nccl_unique_id_text() { nccl::require_linked(); return {}; }
NcclComm nccl_communicator(const std::string&, int, int, int) {
  nccl::require_linked();
  return nullptr;
}
void destroy_nccl_communicator(NcclComm) noexcept {}

}  // namespace fft3d
