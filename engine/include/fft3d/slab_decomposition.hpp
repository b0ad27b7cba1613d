// The slab decomposition of a 3D transform over G GPUs (docs/multi-gpu.md): pure layout arithmetic and plans, no
// CUDA, so that CI checks the whole decomposition on the CPU backend.
//
// GPU g of G holds the Z slab z in [g*NZ/G, (g+1)*NZ/G): an (NX, NY, NZ/G) volume, X contiguous ("z slabs"). The
// forward transform runs the X and Y work on each slab (the `slab` plan), exchanges so that GPU g holds the Y slab
// y in [g*NY/G, (g+1)*NY/G) of every Z plane: an (NX, NY/G, NZ) volume, X contiguous ("y slabs"), runs the Z work
// there (the `column` plan), and, for natural order, exchanges back to z slabs. The inverse
// runs the same steps backwards. Each exchange sends, from every GPU to every GPU, one block of NX*(NY/G) values
// per Z plane of the sender's slab.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// Where the distributed output (forward) or input (inverse) of the spectrum lies. natural: z slabs, as the input.
// y_slabs: (NX, NY/G, NZ) on each GPU, one exchange fewer (what a convolution needs between forward and inverse).
enum class SlabLayout : std::uint8_t { natural, y_slabs };

// The local volumes and plans of a G-GPU decomposition of `size`.
//
// A real transform (kind r2c: forward R2C, inverse C2R) exchanges its half spectrum, the spectrum (NX/2 + 1, NY,
// NZ): the slab plan is the R2C of the (NX, NY) planes, a batch of NZ/G, writing the z slab's half spectrum in
// cuFFT's layout; the Z work runs on the y slab of the half spectrum as on any batch of Z lines (an untransformed
// X axis may have any length, such as NX/2 + 1); the inverse runs slab_c2r, the C2R mirror of the slab plan.
struct SlabDecomposition {
  Extents size;   // the whole transform (a real transform: its real volume)
  int gpus = 1;   // G
  TransformKind kind = TransformKind::c2c;  // c2c, or r2c for a real transform in both directions
  Plan slab;      // c2c: on (NX, NY, NZ/G), axes X and Y (the X and Y work); r2c: the planes' R2C (above)
  Plan slab_c2r;  // r2c only: the C2R mirror of `slab`, which the inverse runs
  Plan column;    // Z on the spectrum's y slab, plus any X stages that ride there (c2c); r2c: on that volume
                  // flattened to ((NX/2 + 1)*NY/G, 1, NZ), the same memory; every plan in the transform's precision

  Extents spectrum() const;  // the exchanged volume: `size` for c2c, (NX/2 + 1, NY, NZ) for r2c
  Extents z_slab() const;  // the spectrum's z slab: (NX, NY, NZ/G) for c2c
  Extents y_slab() const;  // the spectrum's y slab: (NX, NY/G, NZ) for c2c
  std::int64_t local_elements() const;  // the spectrum's values per GPU: the same for both slab shapes
  // Reals per GPU of a real transform's real side: NX*NY*NZ/G out of place, 2*local_elements() in place (rows
  // padded to 2*(NX/2 + 1) reals, FFTW's and cuFFT's in-place layout).
  std::int64_t local_reals(bool in_place) const;
};

// Throws UsageError naming the size and G when G < 1, G > max_slab_gpus, or G does not divide NY and NZ, and for
// r2c an odd NX. The local plans are planned for `precision` (passes_in_precision) and carry it; `kind` is c2c or
// r2c (c2r: UsageError; the r2c decomposition runs both directions).
inline constexpr int max_slab_gpus = 8;
SlabDecomposition slab_decomposition(const Extents& size, int gpus, const std::string& arch,
                                     Precision precision = Precision::fp32, TransformKind kind = TransformKind::c2c);

// The column plan on one of `row_chunks` chunks of the y slab's rows: the Z work on an (NX*R/C, 1, NZ) volume
// (R = NY/G rows, C chunks; NX the spectrum's), in d's precision. What a natural-order run takes where it keeps its
// y slabs in row chunks (in_row_chunks), so that the Z work and the copies back go a chunk at a time.
// Throws UsageError where C does not divide R.
Plan column_chunk_plan(const SlabDecomposition& d, std::int64_t row_chunks, const std::string& arch);

// The same checks alone, before any planning (and before a multi-GPU transform touches a device).
void require_slab_split(const Extents& size, int gpus);

// The exchanges move bytes, counted in exchange units of 8 bytes: one fp32 complex value, half an fp64 one. Every
// offset and count of an exchange is a multiple of the spectrum's NX, so the c2c decomposition of `d.spectrum()`
// with NX counted in units (doubled in fp64) lists the exchange's blocks and copies in units, and its
// local_elements() is a buffer's units. The plans are d's: only the layout arithmetic of the result is meant for use.
inline constexpr std::int64_t exchange_unit_bytes = 8;
using ExchangeUnit = std::complex<float>;  // how the exchanges address buffers
static_assert(sizeof(ExchangeUnit) == exchange_unit_bytes);
SlabDecomposition in_exchange_units(const SlabDecomposition& d);

// One contiguous block of an exchange, in complex elements: `count` values at `offset` of the local buffer, sent
// to or received from GPU `peer`.
struct ExchangeBlock {
  int peer = 0;
  std::int64_t offset = 0;
  std::int64_t count = 0;
  friend bool operator==(const ExchangeBlock&, const ExchangeBlock&) = default;
};

// The layout functions below address the spectrum (d.spectrum()), in complex values.
//
// The blocks GPU `rank` sends and receives when z slabs become y slabs (to_y_slabs) or back. Every send of rank g
// to peer h is matched, in order and count, by a receive of h from g: what NCCL's grouped send/receive needs.
std::vector<ExchangeBlock> exchange_sends(const SlabDecomposition& d, int rank, bool to_y_slabs);
std::vector<ExchangeBlock> exchange_receives(const SlabDecomposition& d, int rank, bool to_y_slabs);

// Where value `local` of GPU `gpu`'s buffer lies in the whole volume (x + NX*(y + NY*z)) when the buffers hold z
// slabs (natural) or y slabs: how a caller scatters a volume over the GPUs and gathers it back.
// @pre 0 <= gpu < d.gpus, 0 <= local < d.local_elements().
std::int64_t volume_index(const SlabDecomposition& d, SlabLayout layout, int gpu, std::int64_t local);

// The exchanges as strided copies (one per pair of GPUs and range of Z planes), which a GPU's copy engines run
// straight into the peer's buffer: no pack, no staging (docs/multi-gpu.md). In complex elements.
// `height` rows of `width` contiguous values: row r from src_offset + r*src_pitch of GPU `from`'s buffer to
// dst_offset + r*dst_pitch of GPU `to`'s buffer.
struct PlaneCopy {
  int from = 0;
  int to = 0;
  std::int64_t src_offset = 0;
  std::int64_t src_pitch = 0;
  std::int64_t dst_offset = 0;
  std::int64_t dst_pitch = 0;
  std::int64_t width = 0;
  std::int64_t height = 0;
  friend bool operator==(const PlaneCopy&, const PlaneCopy&) = default;
};

// z slabs -> y slabs: planes [z0, z1) of GPU `from`'s z slab, one copy to every GPU h (h = from included): the rows
// y in [h*NY/G, (h+1)*NY/G) of each plane, to planes from*NZ/G + z of h's y slab.
// @pre 0 <= z0 <= z1 <= NZ/G.
std::vector<PlaneCopy> to_y_slab_copies(const SlabDecomposition& d, int from, std::int64_t z0, std::int64_t z1);

// y slabs -> z slabs: planes [z0, z1) of GPU `to`'s z slab, one copy from every GPU g: g's rows of those planes,
// read from planes to*NZ/G + z of g's y slab.
// @pre 0 <= z0 <= z1 <= NZ/G.
std::vector<PlaneCopy> to_z_slab_copies(const SlabDecomposition& d, int to, std::int64_t z0, std::int64_t z1);

// The same copies with their y-slab side in row chunks: the y slab held chunk-major, chunk c (rows [c*R/C, (c+1)*R/C)
// of every Z plane, R = NY/G) an (NX*R/C, 1, NZ) volume of its own at c*NX*(R/C)*NZ. Each copy becomes one copy a
// chunk, in chunk order; chunk `only` alone where only >= 0. The y-slab side is the destination of
// to_y_slab_copies (`to_y_slabs`) and the source of to_z_slab_copies.
// @pre C divides R; every copy is one of to_y_slab_copies or to_z_slab_copies of d, as `to_y_slabs` says.
std::vector<PlaneCopy> in_row_chunks(const SlabDecomposition& d, const std::vector<PlaneCopy>& copies,
                                     std::int64_t row_chunks, bool to_y_slabs, std::int64_t only = -1);

}  // namespace fft3d
