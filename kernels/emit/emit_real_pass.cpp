// Kernel level: a 1D real plan's step as a pass of its own (KernelSpec role real_pass, lowering rule real_step.cpp),
// over one row of half = NX/2 packed complex values in natural order. Thread k (0 <= k <= half/2) reads frequencies
// k and half - k and writes the same two, so the pass runs in place (R2C: on the transform's output; C2R: in == out
// in place, or from the caller's half spectrum into the output out of place, which it never writes back).
// R2C: Y[k] = fft3d_real_pair(Z[k], Z[half-k], w^k) / 2, and from Z[0] the real Y[0] and Y[half].
// C2R: the packed row's frequencies 2 Z[k] = conj fft3d_real_pair(conj Y[k], conj Y[half-k], w^k) (the conjugated
// domain of emit_real_step.cpp, conjugated back: the inverse transform after it conjugates its own loads), and
// 2 Z[0] from the real parts of Y[0] and Y[half] (their imaginary parts ignored, as FFTW and cuFFT ignore them).
#include "emit_parts.hpp"
#include "emit_twiddles.hpp"
#include "emit/cuda_source.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

void write_r2c_pairs(SourceWriter& out, std::int64_t half) {
  out.open("if (k == 0u)");
  out.line("out[0] = make_float2(a.x + a.y, 0.f);");
  out.line("out[" + str(half) + "] = make_float2(a.x - a.y, 0.f);");
  out.line("return;");
  out.close();
  out.line("const float2 b = in[m];");
  out.line("const float2 yk = fft3d_real_pair(a, b, " + twiddle_at(2 * half, "k") + ");");
  out.line("const float2 ym = fft3d_real_pair(b, a, " + twiddle_at(2 * half, "m") + ");");
  out.line("out[k] = make_float2(0.5f * yk.x, 0.5f * yk.y);");
  out.line("if (m != k) out[m] = make_float2(0.5f * ym.x, 0.5f * ym.y);");
}

void write_c2r_pairs(SourceWriter& out, std::int64_t half) {
  out.open("if (k == 0u)");
  out.line("const float nyquist = in[" + str(half) + "].x;");
  out.line("out[0] = make_float2(a.x + nyquist, a.x - nyquist);");
  out.line("return;");
  out.close();
  out.line("const float2 b = in[m];");
  out.line("const float2 ak = make_float2(a.x, -a.y), bk = make_float2(b.x, -b.y);");
  out.line("const float2 zk = fft3d_real_pair(ak, bk, " + twiddle_at(2 * half, "k") + ");");
  out.line("const float2 zm = fft3d_real_pair(bk, ak, " + twiddle_at(2 * half, "m") + ");");
  out.line("out[k] = make_float2(zk.x, -zk.y);");
  out.line("if (m != k) out[m] = make_float2(zm.x, -zm.y);");
}

}  // namespace

void write_real_pass_kernel(SourceWriter& out, const KernelSpec& spec) {
  const std::int64_t half = spec.real.half;
  const bool r2c = spec.real.kind == TransformKind::r2c;
  write_twiddles(out, 2 * half);
  write_pair_function(out);
  out.blank();
  out.open("extern \"C\" __global__ void __launch_bounds__(" + str(spec.threads) + ") " + spec.entry_name() +
           "(const float2* in, float2* out, float scale, int flags)");
  out.line(std::string("// real pass (") + (r2c ? "R2C" : "C2R") + ", NX = " + str(2 * half) + "): pairs (k, " +
           str(half) + " - k)");
  out.line("fft3d_wait_for_previous_kernel();");
  out.line("const unsigned k = blockIdx.x * " + str(spec.threads) + "u + threadIdx.x;");
  out.line("if (k > " + str(half / 2) + "u) return;");
  out.line("const unsigned m = " + str(half) + "u - k;");
  out.line("const float2 a = in[k];");
  if (r2c)
    write_r2c_pairs(out, half);
  else
    write_c2r_pairs(out, half);
  out.close();
}

}  // namespace fft3d::emit
