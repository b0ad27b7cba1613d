#include "cuda/peer_copy_kernel.hpp"

#include <cstdint>
#include <stdexcept>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"

namespace fft3d {
namespace {

// The kernel's PeerCopies, field for field (emit_peer_copies.cpp).
struct PeerCopies {
  int count = 0;
  long long width = 0;
  long long height = 0;
  long long source_pitch = 0;
  long long destination_pitch = 0;
  const void* sources[peer_copy_max_copies] = {};
  void* destinations[peer_copy_max_copies] = {};
};

constexpr std::int64_t wide_unit_bytes = 16;  // two exchange units

bool wide_aligned(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer) % wide_unit_bytes == 0; }
bool even(std::int64_t elements) { return elements % 2 == 0; }

}  // namespace

PeerCopyKernel::PeerCopyKernel(int arch) {
  const CompiledKernel compiled = compile_source(peer_copy_source(), peer_copy_entry_16, arch);
  cuda::check(cudaLibraryLoadData(&library_, compiled.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
              "cudaLibraryLoadData(peer copy kernel)");
  cuda::check(cudaLibraryGetKernel(&kernel_16_, library_, peer_copy_entry_16), "cudaLibraryGetKernel(16)");
  cuda::check(cudaLibraryGetKernel(&kernel_8_, library_, peer_copy_entry_8), "cudaLibraryGetKernel(8)");
}

PeerCopyKernel::~PeerCopyKernel() {
  if (library_) cudaLibraryUnload(library_);
}

void PeerCopyKernel::launch(const std::vector<PlaneCopy>& copies, const std::vector<const ExchangeUnit*>& sources,
                            const std::vector<ExchangeUnit*>& destinations, int blocks,
                            cudaStream_t stream) const {
  if (copies.empty() || copies.size() > static_cast<std::size_t>(peer_copy_max_copies))
    throw std::logic_error("PeerCopyKernel::launch: 1 to " + std::to_string(peer_copy_max_copies) + " copies");
  const PlaneCopy& shape = copies.front();
  bool wide = even(shape.width) && even(shape.src_pitch) && even(shape.dst_pitch);
  PeerCopies c;
  c.count = static_cast<int>(copies.size());
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const PlaneCopy& copy = copies[i];
    if (copy.from != shape.from || copy.width != shape.width || copy.height != shape.height ||
        copy.src_pitch != shape.src_pitch || copy.dst_pitch != shape.dst_pitch)
      throw std::logic_error("PeerCopyKernel::launch: copies of one sender and one shape only");
    c.sources[i] = sources[copy.from] + copy.src_offset;
    c.destinations[i] = destinations[copy.to] + copy.dst_offset;
    wide = wide && wide_aligned(c.sources[i]) && wide_aligned(c.destinations[i]);
  }
  const std::int64_t unit_elements = wide ? wide_unit_bytes / exchange_unit_bytes : 1;
  c.width = shape.width / unit_elements;
  c.height = shape.height;
  c.source_pitch = shape.src_pitch / unit_elements;
  c.destination_pitch = shape.dst_pitch / unit_elements;
  void* arguments[] = {&c};
  cuda::check(cudaLaunchKernel(reinterpret_cast<const void*>(wide ? kernel_16_ : kernel_8_), dim3(blocks),
                               dim3(peer_copy_threads), arguments, 0, stream),
              "cudaLaunchKernel(peer copies of the slab exchange)");
}

}  // namespace fft3d
