// The slab exchange's copy kernel (peer_copy_source in cuda_source.hpp): one sender's copies, stored straight into
// the receivers' buffers through peer pointers.
#include <string>

#include "emit/cuda_source.hpp"

namespace fft3d {
namespace {

// Replaces every `name` in `text` by `value`.
std::string substitute(std::string text, const std::string& name, const std::string& value) {
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + value.size()))
    text.replace(at, name.size(), value);
  return text;
}

// Pieces are (copy, row, segment of THREADS units), taken copy-fastest so that every destination's link carries
// stores at once; each block loads DEPTH pieces before it stores them, so that the loads' latency overlaps.
constexpr const char* peer_copy_template = R"fft3d(
struct PeerCopies {
  int count;                     // copies, 1 to MAX_COPIES
  long long width;               // units a row, in every copy
  long long height;              // rows, in every copy
  long long source_pitch;        // units from one row to the next in every source
  long long destination_pitch;   // units from one row to the next in every destination
  const void* sources[MAX_COPIES];  // each copy's first source unit
  void* destinations[MAX_COPIES];   // each copy's first destination unit, on its own GPU
};

template <typename Unit>
__device__ void copy_pieces(const PeerCopies& c) {
  const long long segments = (c.width + THREADS - 1) / THREADS;
  const long long pieces = c.count * c.height * segments;
  for (long long first = (long long)blockIdx.x * DEPTH; first < pieces; first += (long long)gridDim.x * DEPTH) {
    Unit value[DEPTH];
    Unit* to[DEPTH];
#pragma unroll
    for (int k = 0; k < DEPTH; ++k) {
      to[k] = nullptr;
      const long long piece = first + k;
      if (piece >= pieces) continue;
      const int copy = (int)(piece % c.count);
      const long long rest = piece / c.count;
      const long long row = rest / segments;
      const long long column = (rest % segments) * THREADS + threadIdx.x;
      if (column >= c.width) continue;
      value[k] = static_cast<const Unit*>(c.sources[copy])[row * c.source_pitch + column];
      to[k] = static_cast<Unit*>(c.destinations[copy]) + row * c.destination_pitch + column;
    }
#pragma unroll
    for (int k = 0; k < DEPTH; ++k)
      if (to[k]) *to[k] = value[k];
  }
}

extern "C" __global__ void __launch_bounds__(THREADS) ENTRY16(PeerCopies c) { copy_pieces<uint4>(c); }
extern "C" __global__ void __launch_bounds__(THREADS) ENTRY8(PeerCopies c) { copy_pieces<uint2>(c); }
)fft3d";

}  // namespace

std::string peer_copy_source() {
  std::string text = "// fft3d: the slab exchange's copies, stored through peer pointers (peer_copy_source).\n";
  text += peer_copy_template;
  text = substitute(text, "MAX_COPIES", std::to_string(peer_copy_max_copies));
  text = substitute(text, "THREADS", std::to_string(peer_copy_threads));
  text = substitute(text, "DEPTH", std::to_string(peer_copy_depth));
  text = substitute(text, "ENTRY16", peer_copy_entry_16);
  return substitute(text, "ENTRY8", peer_copy_entry_8);
}

}  // namespace fft3d
