// Batches (KernelSpec::batch > 1): one launch covers up to max_volumes_per_launch volumes, blockIdx.y the volume.
// The kernel takes the distances between volumes after its other arguments and moves its pointers to its volume
// before any other statement that reads them; the rest of the kernel is one volume's, unchanged.
#include "emit_parts.hpp"

namespace fft3d::emit {

std::string batch_parameters(const KernelSpec& spec) {
  return spec.batch > 1 ? ", long long in_volume_stride, long long out_volume_stride" : "";
}

void write_volume_offsets(SourceWriter& out, const KernelSpec& spec) {
  if (spec.batch <= 1) return;
  out.line("in += (long long)blockIdx.y * in_volume_stride;  // this block's volume");
  out.line("out += (long long)blockIdx.y * out_volume_stride;");
  if (!is_real(spec)) return;
  // The Nyquist column lies in `in` and `out`, or, between the kernels of a C2R out of place, in a workspace plane
  // a volume: each side has its own distance between volumes.
  out.line("rows.in_nyquist += (long long)blockIdx.y * rows.in_nyquist_per_volume;");
  out.line("rows.out_nyquist += (long long)blockIdx.y * rows.out_nyquist_per_volume;");
}

}  // namespace fft3d::emit
