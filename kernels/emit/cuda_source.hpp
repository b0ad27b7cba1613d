// CUDA source generation: one self-contained .cu text per KernelSpec. The text compiles with NVRTC and, as it
// stands, with `nvcc -arch=sm_90 -cubin` (the device helpers are inlined into it).
//
// Every generated kernel has the signature
//   extern "C" __global__ void <spec.entry_name()>(const float2* in, float2* out, float scale, int flags)
// with flags a combination of the KernelFlags below; `in` may equal `out` (tiles are read whole before written).
// A real transform's kernels (KernelSpec::real) take a fifth argument, `RealRows rows`: the row pitches of their
// loads and stores in complex values and where the half spectrum's Nyquist column lives (emit_real_step.cpp
// defines the struct; the executor passes the same fields).
// A batch's kernels (KernelSpec::batch > 1) take two more after those, `long long in_volume_stride, long long
// out_volume_stride`: elements of `in`'s and `out`'s type from one volume to the next; blockIdx.y is the volume.
#pragma once

#include <string>
#include <string_view>

#include "fft3d/slab_decomposition.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d {

enum KernelFlags : int {
  kernel_flag_conjugate_load = 1,   // conjugate values as they are read (the inverse runs as conj(F(conj(x))))
  kernel_flag_conjugate_store = 2,  // conjugate values as they are written
  kernel_flag_natural_store = 4,    // permute axes held whole by the tile into natural order as the tile is stored
  kernel_flag_sorted_layout = 8,    // address the axes with AxisTile::sorted_radices in their sorted layout
  kernel_flag_cluster_ordered_stores = 16,  // launched in clusters of sorted_store_cluster: all load, then store
  kernel_flag_natural_loads = 32,   // with the sorted layout: load natural positions (tile::sorts_late_in_place)
};

// The header line naming the plan (its name through comment_text), then emit_compiled_source: what
// `explain --dump-cuda` writes.
std::string emit_cuda_source(const KernelSpec& spec);
// What NVRTC compiles and the kernel cache keys on, byte for byte: the comment with the flop count and the spec,
// and the kernel text. It holds no plan name, so a plan's name or path can neither change the key nor reach the
// compiler.
std::string emit_compiled_source(const KernelSpec& spec);
// The device helpers and the kernel, without any comment header.
std::string emit_cuda_kernel_text(const KernelSpec& spec);
// `text` safe inside a // comment: control characters, bytes outside printable ASCII and backslashes (a line
// splice) as \xNN escapes, and "*/" broken to "* /". Printable ASCII other than these passes unchanged.
std::string comment_text(std::string_view text);

// The multi-GPU slab exchange's copy kernel (not a KernelSpec): entries peer_copy_entry_16 (16-byte units) and
// peer_copy_entry_8 (8-byte units), each `(PeerCopies c)`, launched with peer_copy_threads threads a block. One
// launch runs up to peer_copy_max_copies copies of one sender, all of one shape (height rows of width units, one
// pitch for the sources and one for the destinations), storing through the receivers' peer pointers. The struct's
// fields are in the text; the host mirrors them (engine/src/cuda/peer_copy_kernel.cpp).
inline constexpr int peer_copy_max_copies = max_slab_gpus;  // a sender's copies, one to every GPU
inline constexpr int peer_copy_threads = 256;
inline constexpr int peer_copy_depth = 4;  // pieces a block loads before it stores them
inline constexpr const char* peer_copy_entry_16 = "fft3d_peer_copies_16";
inline constexpr const char* peer_copy_entry_8 = "fft3d_peer_copies_8";
std::string peer_copy_source();

}  // namespace fft3d
