// Kernel level: the digit-reversal pass (natural order when an axis's stages span several kernels). One thread per
// output element gathers from the digit-reversed position; out-of-place (in != out).
#include "emit_parts.hpp"
#include "emit/cuda_source.hpp"

namespace fft3d::emit {

void write_reorder_kernel(SourceWriter& out, const KernelSpec& spec) {
  for (Axis axis : all_axes)
    if (!spec.reorder_radices[axis_index(axis)].empty())
      write_reversal_function(out, axis, spec.reorder_radices[axis_index(axis)]);
  out.blank();
  out.open("extern \"C\" __global__ void __launch_bounds__(" + std::to_string(spec.threads) + ") " +
           spec.entry_name() + "(const float2* in, float2* out, float scale, int flags" + batch_parameters(spec) + ")");
  out.line("fft3d_wait_for_previous_kernel();");
  write_volume_offsets(out, spec);
  out.line("const long long i = (long long)blockIdx.x * " + std::to_string(spec.threads) + " + threadIdx.x;");
  out.line("if (i >= " + std::to_string(spec.size.elements()) + "LL) return;");
  out.line("const long long fx = i % " + std::to_string(spec.size.nx) + "LL;");
  out.line("const long long fy = (i / " + std::to_string(spec.size.nx) + "LL) % " + std::to_string(spec.size.ny) +
           "LL;");
  out.line("const long long fz = i / " + std::to_string(spec.size.nx * spec.size.ny) + "LL;");
  std::string index[3];
  for (Axis axis : all_axes) {
    const std::string f = "f" + axis_suffix(axis);
    index[axis_index(axis)] = spec.reorder_radices[axis_index(axis)].empty() ? f : "reverse_" + axis_suffix(axis) + "(" + f + ")";
  }
  out.line("float2 v = in[" + index[0] + " + " + std::to_string(spec.size.nx) + "LL * (" + index[1] + " + " +
           std::to_string(spec.size.ny) + "LL * " + index[2] + ")];");
  out.line("v.x *= scale; v.y *= scale;");
  out.line("if (flags & " + std::to_string(kernel_flag_conjugate_store) + ") v.y = -v.y;");
  out.line("out[i] = v;");
  out.close();
}

}  // namespace fft3d::emit
