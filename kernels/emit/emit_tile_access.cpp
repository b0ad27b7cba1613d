// How one block reaches the tile: its loops over elements and butterflies, and the shared-memory words of a tile
// element. With one block per tile these are the plain thread-strided loops and smem(e). A tile spread over a
// cluster (KernelSpec::tile_blocks) gives each block its part: the loops run over the part's share (element and
// butterfly indices offset by `part`), a word of the block's own part is smem(local index), and a pass that
// crosses parts (tile::crosses_parts) reaches the other blocks' words through distributed shared memory, between
// cluster barriers.
#include "emit_parts.hpp"
#include "lowering/tile_maps.hpp"

namespace fft3d::emit {
namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Whether the part digit at `stride` is a bit field (stride and tile_blocks powers of two): printed as shifts and
// masks, otherwise as `/` and `%` by constants.
bool part_bits(const KernelSpec& spec, std::int64_t stride) {
  return power_of_two(stride) && power_of_two(spec.tile_blocks);
}

// The index whose digit (stride, tile_blocks) reads `part`, the digits of v below stride kept and those above moved
// up past it (tile::part_element, tile::part_butterfly): for bit fields "(low bits of v) | (part << shift) | (the
// rest of v, moved up past the part field)", else "v % stride + part * stride + v / stride * (stride * blocks)".
std::string insert_part(const KernelSpec& spec, const std::string& v, std::int64_t stride) {
  if (!part_bits(spec, stride)) {
    return "(" + v + " % " + str(stride) + "u + part * " + str(stride) + "u + " + v + " / " + str(stride) + "u * " +
           str(stride * spec.tile_blocks) + "u)";
  }
  const int shift = tile::log2_exact(stride);
  const int bits = tile::log2_exact(spec.tile_blocks);
  return "((" + v + " & " + str((std::int64_t{1} << shift) - 1) + "u) | (part << " + str(shift) + ") | ((" + v +
         " >> " + str(shift) + ") << " + str(shift + bits) + "))";
}

// The loop over `count` per-part indices `var`_in_part, naming the tile-wide index `var` (= `tile_index`).
void open_part_loop(SourceWriter& out, const KernelSpec& spec, const std::string& var, std::int64_t count,
                    int unroll, const std::string& tile_index) {
  open_strided_loop(out, var + "_in_part", count, spec.threads, unroll);
  out.line("const unsigned " + var + " = " + tile_index + ";");
}

}  // namespace

std::string part_butterfly_index(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix, bool cross,
                                 const std::string& local) {
  if (cross) return "part * " + str(spec.part_elements() / radix) + "u + " + local;
  return insert_part(spec, local, tile::part_butterfly_stride(spec, element_step, radix));
}

std::string tile_element_of_part_element(const KernelSpec& spec, const std::string& local) {
  return spec.tile_blocks == 1 ? local : insert_part(spec, local, spec.part_stride);
}

void open_element_loop(SourceWriter& out, const KernelSpec& spec, int unroll) {
  if (spec.tile_blocks == 1) {
    open_strided_loop(out, "e", spec.tile_elements, spec.threads, unroll);
    return;
  }
  open_part_loop(out, spec, "e", spec.part_elements(), unroll, tile_element_of_part_element(spec, "e_in_part"));
}

void open_butterfly_loop(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step, std::int64_t radix,
                         bool cross, int unroll) {
  if (spec.tile_blocks == 1) {
    open_strided_loop(out, "b", spec.tile_elements / radix, spec.threads, unroll);
    return;
  }
  open_part_loop(out, spec, "b", spec.part_elements() / radix, unroll,
                 part_butterfly_index(spec, element_step, radix, cross, "b_in_part"));
}

std::int64_t held_iterations(const KernelSpec& spec, std::int64_t radix) {
  const std::int64_t butterflies = spec.part_elements() / radix;
  return (butterflies + spec.threads - 1) / spec.threads;
}

void open_held_butterfly_loop(SourceWriter& out, const KernelSpec& spec, std::int64_t element_step,
                              std::int64_t radix, bool cross, std::int64_t iterations) {
  const std::int64_t butterflies = spec.part_elements() / radix;
  out.line("#pragma unroll");
  out.open("for (int it = 0; it < " + str(iterations) + "; ++it)");
  const std::string b = spec.tile_blocks == 1 ? "b" : "b_in_part";
  out.line("const unsigned " + b + " = threadIdx.x + it * " + str(spec.threads) + "u;");
  if (butterflies % spec.threads != 0) out.line("if (" + b + " >= " + str(butterflies) + "u) break;");
  if (spec.tile_blocks > 1)
    out.line("const unsigned b = " + part_butterfly_index(spec, element_step, radix, cross, "b_in_part") + ";");
}

TileWord declare_tile_word(SourceWriter& out, const KernelSpec& spec, const std::string& element, bool cross,
                           const std::string& name) {
  if (spec.tile_blocks == 1) {
    out.line("const unsigned " + name + " = smem(" + element + ");");
    return {name, false};
  }
  if (!cross) {
    out.line("const unsigned " + name + " = smem(part_local(" + element + "));");
    return {name, false};
  }
  out.line("const unsigned " + name + " = cluster_word(" + element + ");");
  return {name, true};
}

namespace {
// smem(base + offset) == smem(base) ^ smem(offset) where base and offset have disjoint bits (bit-field digits) and
// the layout is XOR-linear (identity, xor_rows).
bool words_are_xor_linear(const KernelSpec& spec) {
  return spec.shared.kind != SharedLayoutKind::pad && spec.shared.kind != SharedLayoutKind::pad_period &&
         tile::bit_fields(spec);
}

// The word of tile element `e` as declare_tile_word writes it, without the cluster rank of the tile's first block
// (the base's word carries it, in bits part_of leaves zero): XOR-ed onto the base's word, it names the part
// holding base + e and the word in it.
std::string word_relative_to_base(const KernelSpec& spec, const std::string& e, bool cross) {
  if (spec.tile_blocks == 1) return "smem(" + e + ")";
  if (!cross) return "smem(part_local(" + e + "))";
  return "((part_of(" + e + ") << 24) | smem(part_local(" + e + ")))";
}
}  // namespace

void declare_butterfly_base_word(SourceWriter& out, const KernelSpec& spec, bool cross, const std::string& name) {
  if (words_are_xor_linear(spec)) declare_tile_word(out, spec, "base", cross, name);
}

TileWord declare_butterfly_word(SourceWriter& out, const KernelSpec& spec, const std::string& offset, bool cross,
                                const std::string& base_word) {
  if (!words_are_xor_linear(spec)) return declare_tile_word(out, spec, "base + " + offset, cross);
  out.line("const unsigned a = " + base_word + " ^ " + word_relative_to_base(spec, offset, cross) + ";");
  return {"a", spec.tile_blocks > 1 && cross};
}

std::string TileWord::load() const {
  if (cross) return "make_float2(cluster_load(re, " + name + "), cluster_load(im, " + name + "))";
  return "make_float2(re[" + name + "], im[" + name + "])";
}

std::string TileWord::store(const std::string& value) const {
  if (cross)
    return "cluster_store(re, " + name + ", " + value + ".x); cluster_store(im, " + name + ", " + value + ".y);";
  return "re[" + name + "] = " + value + ".x; im[" + name + "] = " + value + ".y;";
}

void write_barrier(SourceWriter& out, bool cluster) {
  if (cluster)
    out.line("asm volatile(\"barrier.cluster.arrive.release;\\n\\tbarrier.cluster.wait.acquire;\" ::: \"memory\");");
  else
    out.line("__syncthreads();");
}

void write_cluster_arrive(SourceWriter& out, bool release, const std::string& guard) {
  out.line(guard + "asm volatile(\"barrier.cluster.arrive." + (release ? "release" : "relaxed") +
           ";\" ::: \"memory\");");
}

void write_cluster_wait_after_arrive(SourceWriter& out, const std::string& guard) {
  out.line(guard + "asm volatile(\"barrier.cluster.wait.acquire;\" ::: \"memory\");");
}

void write_part_origin(SourceWriter& out, const KernelSpec& spec) {
  if (spec.tile_blocks == 1) {
    out.line("const unsigned long long block = blockIdx.x;");
    return;
  }
  out.line("// The tile is spread over " + str(spec.tile_blocks) + " consecutive blocks; this one holds part `part`.");
  if (!power_of_two(spec.tile_blocks)) {
    out.line("const unsigned part = blockIdx.x % " + str(spec.tile_blocks) + "u;");
    out.line("const unsigned long long block = blockIdx.x / " + str(spec.tile_blocks) + "u;");
    return;
  }
  out.line("const unsigned part = blockIdx.x & " + str(spec.tile_blocks - 1) + "u;");
  out.line("const unsigned long long block = blockIdx.x >> " + str(tile::log2_exact(spec.tile_blocks)) + ";");
}

void write_cluster_memory_functions(SourceWriter& out) {
  out.line("// Word `word & 0xffffff` of `array` in the block of cluster rank `word >> 24` (distributed shared");
  out.line("// memory).");
  out.open("__device__ __forceinline__ unsigned cluster_address(const float* array, unsigned word)");
  out.line("unsigned remote;");
  out.line("const unsigned local = (unsigned)__cvta_generic_to_shared(array + (word & 0xffffffu));");
  out.line("asm(\"mapa.shared::cluster.u32 %0, %1, %2;\" : \"=r\"(remote) : \"r\"(local), \"r\"(word >> 24));");
  out.line("return remote;");
  out.close();
  out.open("__device__ __forceinline__ float cluster_load(const float* array, unsigned word)");
  out.line("float value;");
  out.line("asm volatile(\"ld.shared::cluster.f32 %0, [%1];\" : \"=f\"(value) : \"r\"(cluster_address(array, word))"
           " : \"memory\");");
  out.line("return value;");
  out.close();
  out.open("__device__ __forceinline__ void cluster_store(const float* array, unsigned word, float value)");
  out.line("asm volatile(\"st.shared::cluster.f32 [%0], %1;\" :: \"r\"(cluster_address(array, word)), \"f\"(value)"
           " : \"memory\");");
  out.close();
}

namespace {
// part_of and part_local of a part digit that is not a bit field: (e / stride) % blocks, and e with that digit
// taken out.
void write_part_digit_functions(SourceWriter& out, const KernelSpec& spec) {
  const std::int64_t stride = spec.part_stride, blocks = spec.tile_blocks;
  out.line("// The part holding tile element e (its digit (e / " + str(stride) + ") % " + str(blocks) +
           "), and e's word index in that part (that digit taken out): tile::element_part, part_local_element.");
  out.open("__device__ __forceinline__ unsigned part_of(unsigned e)");
  out.line("return e / " + str(stride) + "u % " + str(blocks) + "u;");
  out.close();
  out.open("__device__ __forceinline__ unsigned part_local(unsigned e)");
  out.line("return e % " + str(stride) + "u + e / " + str(stride * blocks) + "u * " + str(stride) + "u;");
  out.close();
}

// part_of and part_local of a part field of bits.
void write_part_bit_functions(SourceWriter& out, const KernelSpec& spec) {
  const int shift = spec.part_shift(), bits = tile::log2_exact(spec.tile_blocks);
  out.line("// The part holding tile element e (bits [" + str(shift) + ", " + str(shift + bits) +
           ") of e), and e's word index in that part (those bits taken out): tile::element_part, part_local_element.");
  out.open("__device__ __forceinline__ unsigned part_of(unsigned e)");
  out.line("return (e >> " + str(shift) + ") & " + str(spec.tile_blocks - 1) + "u;");
  out.close();
  out.open("__device__ __forceinline__ unsigned part_local(unsigned e)");
  out.line("return (e & " + str((std::int64_t{1} << shift) - 1) + "u) | ((e >> " + str(shift + bits) + ") << " +
           str(shift) + ");");
  out.close();
}

// The cluster rank of the tile's first block: rank of this block minus its part.
std::string first_part_rank(const KernelSpec& spec) {
  if (power_of_two(spec.cluster_blocks) && power_of_two(spec.tile_blocks))
    return "(blockIdx.x & " + str(spec.cluster_blocks - 1) + "u & ~" + str(spec.tile_blocks - 1) + "u)";
  return "(blockIdx.x % " + str(spec.cluster_blocks) + "u / " + str(spec.tile_blocks) + "u * " +
         str(spec.tile_blocks) + "u)";
}
}  // namespace

void write_writer_exchange_functions(SourceWriter& out, const KernelSpec& spec) {
  const std::optional<tile::WriterExchange> x = tile::writer_exchange(spec);
  if (!x) return;
  const TileStage& stage = spec.stages[x->stage];
  const std::int64_t blocks = spec.tile_blocks, r = x->last_radix, c = x->k_run, e_step = x->step;
  const std::int64_t s = x->butterfly_part_stride;
  out.line("// Position q + k of the last pass's butterfly and output that frequency f of stage " + str(x->stage) +
           " leaves.");
  write_digit_reversal_function(out, "exchange_position", stage.split_radices);
  out.line("// Writer-order exchange (tile::writer_exchange): output k of butterfly b_in_part of part `from` goes");
  out.line("// to the part of cluster rank exchange_rank(k), word writer_word(from, b_in_part, k): a warp's outputs k");
  out.line("// fill one run of words there; the swizzle spreads the store sweep's reads over the banks.");
  out.open("__device__ __forceinline__ unsigned exchange_swizzle(unsigned w)");
  std::string swizzled = "w";
  for (const auto& [from, to] : x->swizzle)
    swizzled += " ^ (((w >> " + str(from) + ") & 1u) << " + str(to) + ")";
  out.line("return " + swizzled + ";");
  out.close();
  out.open("__device__ __forceinline__ unsigned writer_word(unsigned from, unsigned b_in_part, unsigned k)");
  out.line("const unsigned k_in_part = k % " + str(c) + "u + k / " + str(c * blocks) + "u * " + str(c) + "u;");
  out.line("return exchange_swizzle((from * " + str(r / blocks) + "u + k_in_part) * " +
           str(spec.part_elements() / r) + "u + b_in_part);");
  out.close();
  out.open("__device__ __forceinline__ unsigned exchange_rank(unsigned k)");
  out.line("return " + first_part_rank(spec) + " + k / " + str(c) + "u % " + str(blocks) + "u;");
  out.close();
  out.line("// The word of this part holding tile element e after the exchange (tile::exchange_word): its writer's.");
  out.open("__device__ __forceinline__ unsigned exchange_word(unsigned e)");
  out.line("const unsigned f = e / " + str(e_step) + "u % " + str(x->radix) + "u;");
  out.line("const unsigned position = (unsigned)exchange_position(f);");
  out.line("const unsigned k = position % " + str(r) + "u;");
  out.line("const unsigned base = e + (position - k - f) * " + str(e_step) + "u;  // the butterfly's first element");
  out.line("const unsigned b = base % " + str(e_step) + "u + base / " + str(e_step * r) + "u * " + str(e_step) +
           "u;");
  out.line("return writer_word(b / " + str(s) + "u % " + str(blocks) + "u, b % " + str(s) + "u + b / " +
           str(s * blocks) + "u * " + str(s) + "u, k);");
  out.close();
}

void write_cluster_word_function(SourceWriter& out, const KernelSpec& spec) {
  if (spec.tile_blocks == 1) return;
  if (part_bits(spec, spec.part_stride)) {
    write_part_bit_functions(out, spec);
  } else {
    write_part_digit_functions(out, spec);
  }
  out.line("// Tile element e in the block holding its part: that block's cluster rank (high 8 bits) and its word");
  out.line("// smem(part_local(e)) (low 24 bits); cluster_load/cluster_store reach it (distributed shared memory).");
  out.open("__device__ __forceinline__ unsigned cluster_word(unsigned e)");
  out.line("const unsigned rank = " + first_part_rank(spec) + " + part_of(e);");
  out.line("return (rank << 24) | smem(part_local(e));");
  out.close();
}

}  // namespace fft3d::emit
