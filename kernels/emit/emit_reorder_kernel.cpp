// Kernel level: the digit-reversal pass (natural order when an axis's stages span several kernels), out of place
// (in != out). With X reversed (KernelSpec::reorder_tile) each block transposes one tile through shared memory, as
// tile::reorder_move maps it; otherwise one thread per output element gathers from the digit-reversed position.
#include "emit_parts.hpp"
#include "emit/cuda_source.hpp"

namespace fft3d::emit {
namespace {

std::string long_literal(std::int64_t v) { return std::to_string(v) + "LL"; }

void open_entry(SourceWriter& out, const KernelSpec& spec) {
  for (Axis axis : all_axes)
    if (!spec.reorder_radices[axis_index(axis)].empty())
      write_reversal_function(out, axis, spec.reorder_radices[axis_index(axis)]);
  out.blank();
  out.open("extern \"C\" __global__ void __launch_bounds__(" + std::to_string(spec.threads) + ") " +
           spec.entry_name() + "(const float2* in, float2* out, float scale, int flags" + batch_parameters(spec) + ")");
  out.line("fft3d_wait_for_previous_kernel();");
  write_volume_offsets(out, spec);
}

// The stored value: scaled, conjugated where the inverse asks it.
void write_scaled_store(SourceWriter& out, const std::string& value, const std::string& destination) {
  out.line("float2 v = " + value + ";");
  out.line("v.x *= scale; v.y *= scale;");
  out.line("if (flags & " + std::to_string(kernel_flag_conjugate_store) + ") v.y = -v.y;");
  out.line("out[" + destination + "] = v;");
}

// Position of frequency `f` on the axis: its reversal where the pass reverses the axis.
std::string position(const KernelSpec& spec, Axis axis, const std::string& f) {
  return spec.reorder_radices[axis_index(axis)].empty() ? f : "reverse_" + axis_suffix(axis) + "(" + f + ")";
}

// Element index x + NX * (y + NY * z) of the frequencies fx, fy, fz: at their positions where `reversed` (the
// source), else in natural order (the destination).
std::string element_index(const KernelSpec& spec, const std::string& fx, bool reversed) {
  const auto at = [&](Axis axis, const std::string& f) { return reversed ? position(spec, axis, f) : f; };
  return at(Axis::x, fx) + " + " + long_literal(spec.size.nx) + " * (" + at(Axis::y, "fy") + " + " +
         long_literal(spec.size.ny) + " * " + at(Axis::z, "fz") + ")";
}

void write_gather(SourceWriter& out, const KernelSpec& spec) {
  const Extents& n = spec.size;
  out.line("const long long i = (long long)blockIdx.x * " + std::to_string(spec.threads) + " + threadIdx.x;");
  out.line("if (i >= " + long_literal(n.elements()) + ") return;");
  out.line("const long long fx = i % " + long_literal(n.nx) + ";");
  out.line("const long long fy = (i / " + long_literal(n.nx) + ") % " + long_literal(n.ny) + ";");
  out.line("const long long fz = i / " + long_literal(n.nx * n.ny) + ";");
  write_scaled_store(out, "in[" + element_index(spec, "fx", true) + "]", "i");
}

void write_transpose(SourceWriter& out, const KernelSpec& spec) {
  const Extents& n = spec.size;
  const std::vector<std::int64_t>& x = spec.reorder_radices[axis_index(Axis::x)];
  const std::int64_t frequencies = spec.reorder_tile.frequency_run, positions = spec.reorder_tile.position_run;
  const std::string threads = std::to_string(spec.threads), elements = std::to_string(spec.reorder_tile.elements());
  out.line("// Rows of the tile padded by one value: the store phase walks a column, one bank a value.");
  out.line("__shared__ float2 tile[" + std::to_string(frequencies) + "][" + std::to_string(positions + 1) + "];");
  out.line("long long block = blockIdx.x;");
  out.line("const long long frequency_tile = block % " + long_literal(x.front() / frequencies) + "; block /= " +
           long_literal(x.front() / frequencies) + ";");
  out.line("const long long position_tile = block % " + long_literal(x.back() / positions) + "; block /= " +
           long_literal(x.back() / positions) + ";");
  const std::int64_t middle = n.nx / (x.front() * x.back());
  out.line("const long long middle = block % " + long_literal(middle) + "; block /= " + long_literal(middle) + ";");
  out.line("const long long fy = block % " + long_literal(n.ny) + ", fz = block / " + long_literal(n.ny) + ";");
  out.line("const long long fx0 = frequency_tile * " + long_literal(frequencies) + " + " + long_literal(x.front()) +
           " * middle + " + long_literal(n.nx / x.back() * positions) + " * position_tile;");
  out.line("const long long from = " + element_index(spec, "fx0", true) + ";");
  out.line("const long long to = " + element_index(spec, "fx0", false) + ";");
  // Loads walk the positions (e % positions) fastest, stores the frequencies (e % frequencies).
  const std::string load_frequency = "e / " + std::to_string(positions);
  const std::string load_position = "e % " + std::to_string(positions);
  out.open("for (int e = threadIdx.x; e < " + elements + "; e += " + threads + ")");
  out.line("tile[" + load_frequency + "][" + load_position + "] = in[from + (" + load_frequency + ") * " +
           long_literal(n.nx / x.front()) + " + " + load_position + "];");
  out.close();
  out.line("__syncthreads();");
  const std::string store_frequency = "e % " + std::to_string(frequencies);
  const std::string store_position = "e / " + std::to_string(frequencies);
  out.open("for (int e = threadIdx.x; e < " + elements + "; e += " + threads + ")");
  write_scaled_store(out, "tile[" + store_frequency + "][" + store_position + "]",
                     "to + " + store_frequency + " + " + long_literal(n.nx / x.back()) + " * (" + store_position + ")");
  out.close();
}

}  // namespace

void write_reorder_kernel(SourceWriter& out, const KernelSpec& spec) {
  open_entry(out, spec);
  if (spec.reorder_tile.transposes())
    write_transpose(out, spec);
  else
    write_gather(out, spec);
  out.close();
}

}  // namespace fft3d::emit
