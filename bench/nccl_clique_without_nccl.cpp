// NcclClique in a build without NCCL: every constructor says so.
#include <cstdlib>

#include "bench/nccl_clique.hpp"
#include "fft3d/errors.hpp"

namespace fft3d::bench {

void disable_nvlink_multicast() { setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/1); }

struct NcclClique::Impl {
  std::vector<int> devices;
};

NcclClique::NcclClique(const std::vector<int>&) {
  throw GpuUnavailable("this build has no NCCL (libnccl and nccl.h were not found in the CUDA toolkit)");
}
NcclClique::~NcclClique() = default;
const std::vector<int>& NcclClique::devices() const { return impl_->devices; }
void* NcclClique::comm(std::size_t) const { return nullptr; }
void* NcclClique::stream(std::size_t) const { return nullptr; }
void NcclClique::exchange(const Blocks&, const Blocks&, const std::vector<const std::complex<float>*>&,
                          const std::vector<std::complex<float>*>&) {}
void NcclClique::wait(double, const std::string&) {}

}  // namespace fft3d::bench
