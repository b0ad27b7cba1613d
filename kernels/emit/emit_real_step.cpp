// The real transform's parts of a tile kernel (KernelSpec::real, lowering rule real_step.cpp): the row pitches of its
// global accesses, the real step between the X stages and the others, and the Nyquist column's side array with the
// stages that transform it.
#include <string>

#include "emit_parts.hpp"
#include "emit_twiddles.hpp"
#include "emit/cuda_source.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

std::string half(const KernelSpec& spec) { return str(spec.real.half); }

// Tile element e = row * EX (EX the tile's X extent: X is the fastest digit of e) and back. Where the kernel's maps
// are bit fields (tile::bit_fields) as shifts, otherwise as a multiply and a division by the constant.
std::string row_element(const KernelSpec& spec, const std::string& row) {
  const std::int64_t ex = spec.axes[0].extent();
  if (tile::bit_fields(spec)) return row + " << " + str(tile::log2_exact(ex));
  return row + " * " + str(ex) + "u";
}
std::string element_row(const KernelSpec& spec, const std::string& e) {
  const std::int64_t ex = spec.axes[0].extent();
  if (tile::bit_fields(spec)) return e + " >> " + str(tile::log2_exact(ex));
  return e + " / " + str(ex) + "u";
}
// (p mod n) of a long long position p, as an unsigned (a mask where n is a power of two).
std::string position_mod(const KernelSpec& spec, const std::string& p, std::int64_t n) {
  if (tile::bit_fields(spec)) return "(" + p + " & " + str(n - 1) + "LL)";
  return "(" + p + " % " + str(n) + "LL)";
}

// The X stages' radices in execution order: frequency k of a row sits at their digit reversal after them.
std::vector<std::int64_t> x_radices(const KernelSpec& spec) {
  std::vector<std::int64_t> radices;
  for (const TileStage& stage : spec.stages)
    if (stage.sub.axis == Axis::x) radices.push_back(stage.sub.radix);
  return radices;
}

// The side stages: those of the kernel on the Y and Z axes on the step's side of it (after it for R2C, before it
// for C2R), by index.
std::vector<std::size_t> side_stages(const KernelSpec& spec) {
  std::vector<std::size_t> stages;
  const auto step = static_cast<std::size_t>(spec.real.step_stage);
  const bool after = spec.real.kind == TransformKind::r2c;
  for (std::size_t s = 0; s < spec.stages.size(); ++s)
    if ((after ? s >= step : s < step) && spec.stages[s].sub.axis != Axis::x) stages.push_back(s);
  return stages;
}

// One plan stage on the side array, as the plan language defines it: the value at position p of its axis becomes
// output m = (p mod span) / stride of the radix-point DFT over its group, times w_span^(j*m) with `tw`. A direct
// DFT per output (radix complex multiplies): the side array is one value per tile row, so this is a small share of
// the kernel's work whatever the radix, and one formula serves split radices too.
void write_side_stage(SourceWriter& out, const KernelSpec& spec, std::size_t index) {
  const SubComputation& sub = spec.stages[index].sub;
  const std::int64_t side = spec.side_elements();
  const std::int64_t per_thread = (side + spec.threads - 1) / spec.threads;
  const std::int64_t step = spec.stages[index].element_step / spec.axes[0].extent();
  const std::string a = axis_suffix(sub.axis);
  out.line("// side stage " + str(static_cast<std::int64_t>(index)) + ": " + to_string(sub));
  out.open("");
  out.line("float2 side_out[" + str(per_thread) + "];");
  out.line("#pragma unroll");
  out.open("for (int t = 0; t < " + str(per_thread) + "; ++t)");
  out.line("const unsigned s = threadIdx.x + t * " + str(spec.threads) + "u;");
  out.line("if (s >= " + str(side) + "u) break;");
  out.line("const long long p = origin_" + a + " + tile_pos_" + a + "(" + row_element(spec, "(unsigned)s") + ");");
  if (tile::bit_fields(spec))
    out.line("const unsigned m = (unsigned)(" + position_mod(spec, "p", sub.span) + " >> " +
             str(tile::log2_exact(sub.stride)) + ");");
  else
    out.line("const unsigned m = (unsigned)(" + position_mod(spec, "p", sub.span) + " / " + str(sub.stride) + "LL);");
  out.line("const unsigned first = s - m * " + str(step) + "u;");
  out.line("float2 sum = make_float2(0.f, 0.f);");
  out.open("for (unsigned k = 0; k < " + str(sub.radix) + "u; ++k)");
  out.line("const unsigned i = first + k * " + str(step) + "u;");
  out.line("sum = fft3d_add(sum, " + times_twiddle("make_float2(side_re[i], side_im[i])", sub.radix, "k * m") + ");");
  out.close();
  if (sub.twiddle) {
    out.line("const unsigned j = (unsigned)" + position_mod(spec, "p", sub.stride) + ";");
    out.line("sum = " + times_twiddle("sum", sub.span, "j * m") + ";");
  }
  out.line("side_out[t] = sum;");
  out.close();
  out.line("__syncthreads();");
  out.line("#pragma unroll");
  out.open("for (int t = 0; t < " + str(per_thread) + "; ++t)");
  out.line("const unsigned s = threadIdx.x + t * " + str(spec.threads) + "u;");
  out.line("if (s >= " + str(side) + "u) break;");
  out.line("side_re[s] = side_out[t].x;");
  out.line("side_im[s] = side_out[t].y;");
  out.close();
  out.line("__syncthreads();");
  out.close();
}

}  // namespace

void write_pair_function(SourceWriter& out) {
  out.open("__device__ __forceinline__ float2 fft3d_real_pair(float2 a, float2 b, float2 w)");
  out.line("const float2 sum = make_float2(a.x + b.x, a.y - b.y);");
  out.line("const float2 p = fft3d_mul(w, make_float2(a.x - b.x, a.y + b.y));");
  out.line("return make_float2(sum.x + p.y, sum.y - p.x);");
  out.close();
}

bool is_real(const KernelSpec& spec) { return spec.real.kind != TransformKind::c2c; }

std::set<std::int64_t> real_twiddle_spans(const KernelSpec& spec) {
  std::set<std::int64_t> spans;
  if (!spec.real.has_step() || spec.real.odd) return spans;  // an odd NX pairs nothing
  spans.insert(2 * spec.real.half);
  for (std::size_t s : side_stages(spec)) {
    spans.insert(spec.stages[s].sub.radix);
    if (spec.stages[s].sub.twiddle) spans.insert(spec.stages[s].sub.span);
  }
  return spans;
}

void write_real_rows_struct(SourceWriter& out, const KernelSpec& spec) {
  if (spec.real.odd) {
    out.line("// Row pitches of a real transform's global accesses, in reals for an odd NX: row r of complex values");
    out.line("// starts at value (pitch * r + 1) / 2; column `half` of the half spectrum is addressed apart: it may");
    out.line("// live in a plane of its own between kernels.");
  } else {
    out.line("// Row pitches (in complex values) of a real transform's global accesses; column `half` of the half");
    out.line("// spectrum (Nyquist) is addressed apart: it may live in a plane of its own between kernels.");
  }
  out.open("struct RealRows");
  out.line("long long in_pitch;");
  out.line("long long out_pitch;");
  out.line("const float2* in_nyquist;");
  out.line("float2* out_nyquist;");
  out.line("long long in_nyquist_pitch;");
  out.line("long long out_nyquist_pitch;");
  out.line("long long in_nyquist_per_volume;  // complex values from one volume's column to the next");
  out.line("long long out_nyquist_per_volume;");
  out.close(";");
}

void write_real_functions(SourceWriter& out, const KernelSpec& spec) {
  if (!spec.real.has_step() || (spec.real.odd && !spec.real.paired_rows)) return;
  if (!spec.real.odd) write_pair_function(out);
  write_digit_reversal_function(out, "fft3d_row_position", x_radices(spec));
}

void write_side_arrays(SourceWriter& out, const KernelSpec& spec) {
  if (spec.side_elements() == 0) return;
  out.line("float* const side_re = fft3d_shared + " + str(2 * spec.shared.words) + ";");
  out.line("float* const side_im = fft3d_shared + " + str(2 * spec.shared.words + spec.side_elements()) + ";");
}

// Only a kernel with Nyquist tiles or padded columns, or an odd NX's step kernel on the half spectrum's side (its
// rows of NX values), reaches column `half` (and past it) through its tile: the others' tiles hold columns below
// it, so their accesses need no test.
bool masks_columns(const KernelSpec& spec) {
  return spec.real.nyquist_tiles > 0 || spec.real.odd || spec.real.padded_columns;
}

// The odd NX's step kernel on the real rows' side: R2C loads them, C2R stores them.
bool reads_real_rows(const KernelSpec& spec) {
  return spec.real.odd && spec.real.has_step() && spec.real.kind == TransformKind::r2c;
}
bool writes_real_rows(const KernelSpec& spec) {
  return spec.real.odd && spec.real.has_step() && spec.real.kind == TransformKind::c2r;
}

// Complex value `x` of row `row` through `pointer` with the RealRows pitch `pitch` (RealKernel: in reals for an odd
// NX).
std::string row_value(const KernelSpec& spec, const std::string& pointer, const std::string& pitch,
                      const std::string& x, const std::string& row) {
  if (spec.real.odd) return pointer + "[" + x + " + ((" + pitch + " * " + row + " + 1) >> 1)]";
  return pointer + "[" + x + " + " + pitch + " * " + row + "]";
}

// The real at `x` of the volume's row `row` (a long long expression) of `in`, 0 past the volume's rows (a paired
// kernel's last pair may have one row only).
std::string paired_real(const KernelSpec& spec, const std::string& x, const std::string& row) {
  return "(" + row + " < " + str(spec.real.volume_rows) + "LL ? ((const float*)in)[" + x + " + rows.in_pitch * " + row +
         "] : 0.f)";
}

std::string real_load(const std::string& x, const std::string& row, const KernelSpec& spec) {
  if (reads_real_rows(spec) && spec.real.paired_rows)
    return "make_float2(" + paired_real(spec, x, "(2LL * " + row + ")") + ", " +
           paired_real(spec, x, "(2LL * " + row + " + 1LL)") + ")";
  if (reads_real_rows(spec))
    return "make_float2(((const float*)in)[" + x + " + rows.in_pitch * " + row + "], 0.f)";
  const std::string value = row_value(spec, "in", "rows.in_pitch", x, row);
  if (!masks_columns(spec)) return value;
  return "(" + x + " < " + half(spec) + "LL ? " + value + " : " + x + " == " + half(spec) +
         "LL ? rows.in_nyquist[rows.in_nyquist_pitch * " + row + "] : make_float2(0.f, 0.f))";
}

std::string real_store(const std::string& x, const std::string& row, const KernelSpec& spec,
                       const std::string& value) {
  if (writes_real_rows(spec) && spec.real.paired_rows) {
    const std::string r0 = "(2LL * " + row + ")", r1 = "(2LL * " + row + " + 1LL)";
    const std::string n = str(spec.real.volume_rows) + "LL";
    return "{ if (" + r0 + " < " + n + ") ((float*)out)[" + x + " + rows.out_pitch * " + r0 + "] = " + value +
           ".x; if (" + r1 + " < " + n + ") ((float*)out)[" + x + " + rows.out_pitch * " + r1 + "] = " + value +
           ".y; }";
  }
  if (writes_real_rows(spec)) return "((float*)out)[" + x + " + rows.out_pitch * " + row + "] = " + value + ".x;";
  const std::string target = row_value(spec, "out", "rows.out_pitch", x, row);
  if (!masks_columns(spec)) return target + " = " + value + ";";
  return "if (" + x + " < " + half(spec) + "LL) " + target + " = " + value + "; else if (" + x + " == " + half(spec) +
         "LL) rows.out_nyquist[rows.out_nyquist_pitch * " + row + "] = " + value + ";";
}

// Paired rows, R2C (RealKernel::paired_rows): after the X stages, each tile row's Z split in place into its two
// rows' frequencies, A[k] at Z[k]'s word and B[k] at Z[NX-k]'s (k = 1 .. half); Z[0] holds (A[0], B[0]), both real.
void write_paired_split(SourceWriter& out, const KernelSpec& spec) {
  const std::int64_t h = spec.real.half;
  const std::int64_t nx = 2 * h + 1;
  out.line("// real step (R2C, NX = " + str(nx) + " odd, paired rows): A[k] = (Z[k] + conj Z[" + str(nx) +
           "-k]) / 2, B[k] = (Z[k] - conj Z[" + str(nx) + "-k]) / 2i");
  open_strided_loop(out, "q", spec.tile_rows() * h, spec.threads, 1);
  out.line("const unsigned row = q / " + str(h) + "u;");
  out.line("const unsigned k = q - row * " + str(h) + "u + 1u;");
  out.line("const unsigned ek = (" + row_element(spec, "row") + ") + (unsigned)fft3d_row_position(k);");
  out.line("const unsigned em = (" + row_element(spec, "row") + ") + (unsigned)fft3d_row_position(" + str(nx) +
           "u - k);");
  const TileWord wk = declare_tile_word(out, spec, "ek", false, "wk");
  const TileWord wm = declare_tile_word(out, spec, "em", false, "wm");
  out.line("const float2 zk = " + wk.load() + ";");
  out.line("const float2 zm = " + wm.load() + ";");
  out.line(wk.store("make_float2(0.5f * (zk.x + zm.x), 0.5f * (zk.y - zm.y))"));
  out.line(wm.store("make_float2(0.5f * (zk.y + zm.y), 0.5f * (zm.x - zk.x))"));
  out.close();
  out.line("__syncthreads();");
}

// An odd NX's step (RealKernel): R2C has none (its stores keep columns 0 .. half; paired rows split, above); C2R,
// before the X stages in natural order, sets column NX - k of each row to the conjugate of column k (k = 1 ..
// half): after the inverse Y and Z stages each row is Hermitian on its own, and so is its conjugate, where the
// inverse runs (paired rows: their load forms every frequency).
void write_odd_real_step(SourceWriter& out, const KernelSpec& spec) {
  if (spec.real.paired_rows) {  // C2R's paired load forms every frequency itself
    if (spec.real.kind == TransformKind::r2c) write_paired_split(out, spec);
    return;
  }
  if (spec.real.kind == TransformKind::r2c) return;
  const std::int64_t h = spec.real.half;
  const std::int64_t nx = 2 * h + 1;
  out.line("// real step (C2R, NX = " + str(nx) + " odd): column " + str(nx) + " - k of every row the conjugate of k");
  open_strided_loop(out, "q", spec.tile_rows() * h, spec.threads, 1);
  out.line("const unsigned row = q / " + str(h) + "u;");
  out.line("const unsigned k = q - row * " + str(h) + "u + 1u;");
  out.line("const unsigned ek = (" + row_element(spec, "row") + ") + k;");
  out.line("const unsigned em = (" + row_element(spec, "row") + ") + " + str(nx) + "u - k;");
  const TileWord wk = declare_tile_word(out, spec, "ek", false, "wk");
  const TileWord wm = declare_tile_word(out, spec, "em", false, "wm");
  out.line("const float2 a = " + wk.load() + ";");
  out.line(wm.store("make_float2(a.x, -a.y)"));
  out.close();
  out.line("__syncthreads();");
}

void write_real_step(SourceWriter& out, const KernelSpec& spec) {
  if (spec.real.odd) return write_odd_real_step(out, spec);
  const bool r2c = spec.real.kind == TransformKind::r2c;
  const std::int64_t h = spec.real.half;
  const std::int64_t pairs = h / 2 + 1;
  const std::int64_t rows = spec.side_elements();
  out.line(std::string("// real step (") + (r2c ? "R2C" : "C2R") + "): pairs (k, " + str(h) +
           " - k) of every row; column " + str(h) + " in the side array");
  open_strided_loop(out, "q", rows * pairs, spec.threads, 1);
  out.line("const unsigned row = q / " + str(pairs) + "u;");
  out.line("const unsigned k = q - row * " + str(pairs) + "u;");
  // R2C runs after the X stages (frequency k at its digit reversal); C2R before them (natural order).
  const std::string position = r2c ? "(unsigned)fft3d_row_position" : "";
  // Bit fields: the row's bits and the column's are disjoint (an OR); otherwise the column adds to row * EX.
  const bool bits = tile::bit_fields(spec);
  const std::string row_start = bits ? "(" + row_element(spec, "row") + ") | " : row_element(spec, "row") + " + ";
  const std::string mirror = bits ? "(" + str(h) + "u - k) & " + str(h - 1) + "u" : "(" + str(h) + "u - k) % " +
                                                                                     str(h) + "u";
  out.line("const unsigned ek = " + row_start + position + "(k);");
  out.line("const unsigned em = " + row_start + position + "(" + mirror + ");");
  const TileWord wk = declare_tile_word(out, spec, "ek", false, "wk");
  const TileWord wm = declare_tile_word(out, spec, "em", false, "wm");
  out.line("const float2 a = " + wk.load() + ";");
  out.open("if (k == 0)");
  if (r2c) {
    out.line(wk.store("make_float2(a.x + a.y, 0.f)"));
    out.line("side_re[row] = a.x - a.y;");
    out.line("side_im[row] = 0.f;");
  } else {  // the imaginary parts of columns 0 and half are ignored
    out.line("const float b = side_re[row];");
    out.line(wk.store("make_float2(a.x + b, b - a.x)"));
  }
  out.close();
  out.open("else");
  const std::string factor = r2c ? "0.5f" : "1.f";
  out.line("const float2 b = " + wm.load() + ";");
  out.line("const float2 yk = fft3d_real_pair(a, b, " + twiddle_at(2 * h, "k") + ");");
  out.line("const float2 ym = fft3d_real_pair(b, a, " + twiddle_at(2 * h, str(h) + "u - k") + ");");
  out.line(wk.store("make_float2(" + factor + " * yk.x, " + factor + " * yk.y)"));
  out.line("if (em != ek) " + wm.store("make_float2(" + factor + " * ym.x, " + factor + " * ym.y)"));
  out.close();
  out.close();
  out.line("__syncthreads();");
  for (std::size_t s : side_stages(spec))
    if (r2c) write_side_stage(out, spec, s);
}

void write_side_stages_before_step(SourceWriter& out, const KernelSpec& spec) {
  if (spec.side_elements() == 0 || spec.real.kind != TransformKind::c2r) return;
  for (std::size_t s : side_stages(spec)) write_side_stage(out, spec, s);
}

void write_side_load(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element) {
  if (spec.side_elements() == 0 || spec.real.kind != TransformKind::c2r) return;
  open_strided_loop(out, "s", spec.side_elements(), spec.threads, 1);
  out.line("const unsigned e = " + row_element(spec, "s") + ";");
  out.line(row_of_element);
  out.line("float2 v = rows.in_nyquist[rows.in_nyquist_pitch * row];");
  out.line("if (flags & " + str(kernel_flag_conjugate_load) + ") v.y = -v.y;");
  out.line("side_re[s] = v.x;");
  out.line("side_im[s] = v.y;");
  out.close();
}

bool pairs_rows(const KernelSpec& spec) { return spec.real.paired_rows; }

void write_paired_load(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element) {
  const std::int64_t h = spec.real.half;
  const std::int64_t nx = 2 * h + 1;
  out.line("// loads (C2R, NX = " + str(nx) + " odd, paired rows): rows 2p and 2p + 1 as A and B, Z = A + iB over " +
           "every frequency (Z[" + str(nx) + "-k] = conj A[k] + i conj B[k]), in the conjugated domain");
  open_strided_loop(out, "q", spec.tile_rows() * (h + 1), spec.threads, 1);
  out.line("const unsigned prow = q / " + str(h + 1) + "u;");
  out.line("const unsigned k = q - prow * " + str(h + 1) + "u;");
  out.line("const unsigned e = " + row_element(spec, "prow") + ";");
  out.line(row_of_element);
  const std::string n = str(spec.real.volume_rows) + "LL";
  out.line("float2 a = (2LL * row < " + n + ") ? " + real_load("(long long)k", "(2LL * row)", spec) +
           " : make_float2(0.f, 0.f);");
  out.line("float2 b = (2LL * row + 1LL < " + n + ") ? " + real_load("(long long)k", "(2LL * row + 1LL)", spec) +
           " : make_float2(0.f, 0.f);");
  out.open("if (flags & " + str(kernel_flag_conjugate_load) + ")");
  out.line("a.y = -a.y;");
  out.line("b.y = -b.y;");
  out.close();
  out.line("const unsigned ek = e + k;");
  out.line("const unsigned em = e + (" + str(nx) + "u - k) % " + str(nx) + "u;");
  const TileWord wk = declare_tile_word(out, spec, "ek", false, "wk");
  const TileWord wm = declare_tile_word(out, spec, "em", false, "wm");
  out.open("if (k == 0)");  // the imaginary parts of the rows' DC terms are ignored, as FFTW ignores them
  out.line(wk.store("make_float2(a.x, -b.x)"));
  out.close();
  out.open("else");
  out.line(wk.store("make_float2(a.x + b.y, a.y - b.x)"));
  out.line(wm.store("make_float2(a.x - b.y, -a.y - b.x)"));
  out.close();
  out.close();
  out.line("__syncthreads();");
}

void write_paired_store(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element) {
  const std::int64_t h = spec.real.half;
  const std::int64_t nx = 2 * h + 1;
  out.line("// stores (R2C, NX = " + str(nx) + " odd, paired rows): A[k] to row 2p, B[k] to row 2p + 1, k = 0 .. " +
           str(h));
  open_strided_loop(out, "q", spec.tile_rows() * (h + 1), spec.threads, 1);
  out.line("const unsigned prow = q / " + str(h + 1) + "u;");
  out.line("const unsigned k = q - prow * " + str(h + 1) + "u;");
  out.line("const unsigned e = " + row_element(spec, "prow") + ";");
  out.line(row_of_element);
  out.line("const unsigned ek = e + (unsigned)fft3d_row_position(k);");
  out.line("const unsigned em = e + (unsigned)fft3d_row_position((" + str(nx) + "u - k) % " + str(nx) + "u);");
  const TileWord wk = declare_tile_word(out, spec, "ek", false, "wk");
  const TileWord wm = declare_tile_word(out, spec, "em", false, "wm");
  out.line("const float2 zk = " + wk.load() + ";");
  out.line("float2 a = k == 0 ? make_float2(zk.x, 0.f) : zk;");
  out.line("float2 b = k == 0 ? make_float2(zk.y, 0.f) : " + wm.load() + ";");
  out.line("a.x *= scale; a.y *= scale; b.x *= scale; b.y *= scale;");
  out.open("if (flags & " + str(kernel_flag_conjugate_store) + ")");
  out.line("a.y = -a.y;");
  out.line("b.y = -b.y;");
  out.close();
  out.line("const long long x = k;");
  const std::string n = str(spec.real.volume_rows) + "LL";
  out.line("if (2LL * row < " + n + ") { " + real_store("x", "(2LL * row)", spec, "a") + " }");
  out.line("if (2LL * row + 1LL < " + n + ") { " + real_store("x", "(2LL * row + 1LL)", spec, "b") + " }");
  out.close();
}

void write_side_store(SourceWriter& out, const KernelSpec& spec, const std::string& row_of_element) {
  if (spec.side_elements() == 0 || spec.real.kind != TransformKind::r2c) return;
  open_strided_loop(out, "s", spec.side_elements(), spec.threads, 1);
  out.line("const unsigned e = " + row_element(spec, "s") + ";");
  out.line("const unsigned source = " +
           element_row(spec, "((flags & " + str(kernel_flag_natural_store) + ") ? natural_source(e) : e)") + ";");
  out.line("float2 v = make_float2(side_re[source] * scale, side_im[source] * scale);");
  out.line("if (flags & " + str(kernel_flag_conjugate_store) + ") v.y = -v.y;");
  out.line(row_of_element);
  out.line("rows.out_nyquist[rows.out_nyquist_pitch * row] = v;");
  out.close();
}

}  // namespace fft3d::emit
