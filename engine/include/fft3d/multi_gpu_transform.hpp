// A 3D transform over several GPUs of one node: the slab decomposition (slab_decomposition.hpp), fft3d's own plans on
// each GPU, and exchanges pushed straight into the peers' buffers by copy engines or SM kernels (one process) or NCCL's
// grouped send/receive carries (one process per GPU). CUDA's and NCCL's headers stay out of this one.
//
//   fft3d::MultiGpuTransform fft({.extents = {1024, 1024, 1024}, .devices = {0, 1}});   // one process, all GPUs
//   fft.forward(ins, outs);   // ins[g], outs[g]: device pointers on devices[g], fft.local_elements() values each
//
// One process per GPU: create the communicator yourself (ncclCommInitRank, the unique id passed by a file, an
// environment variable or MPI) and hand it over with the rank's device; every rank then calls the same methods
// with its own one-element vectors. Set NCCL_NVLS_ENABLE=0 before creating it: the one-process constructor forces
// it (NVLink multicast stays off), but a communicator made by the caller keeps what its environment said.
//
// A build without NCCL (not found in the CUDA toolkit at configure time) has the class, whose constructors throw
// GpuUnavailable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fft3d/gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/slab_pipeline.hpp"
#include "fft3d/transform.hpp"

struct ncclComm;

namespace fft3d {

using NcclComm = ncclComm*;  // an ncclComm_t by its NCCL name

struct MultiGpuDesc {
  Extents extents;                  // the whole transform: NX, NY, NZ; X contiguous
  std::vector<int> devices;         // CUDA device ordinals, one per slab, in slab order; G = devices.size()
  SlabLayout layout = SlabLayout::natural;  // the spectrum's layout: output of forward, input of inverse
  double exchange_timeout_s = 60;   // an exchange not finished by then aborts the communicators and throws
  SlabExchange exchange = SlabExchange::automatic;
  // Of the data and the arithmetic: fp32 runs take std::complex<float> buffers, fp64 runs std::complex<double> ones.
  Precision precision = Precision::fp32;
  // c2c, or r2c: a real transform, R2C forward and C2R inverse (FFTW's and cuFFT's layouts; c2r is refused: r2c
  // covers both directions). Its spectrum is the half spectrum, (NX/2 + 1, NY, NZ), in either layout.
  TransformKind kind = TransformKind::c2c;
  // One process: the least bytes of each chunk the schedule pipelines (the slab plan's chunks of Z planes, the
  // natural layout's row chunks of the y slabs); 0: the schedule's own floors, 64 MiB and 256 MiB. Smaller chunks
  // overlap sooner and cost more launches and copies. Tests set it small to run every chunked path on small volumes.
  std::int64_t min_chunk_bytes = 0;
};

// One process per GPU without including nccl.h: a launcher makes the unique id once (ncclGetUniqueId) as text (hex
// digits) and passes it to every process by a file or an environment variable; each process then makes its
// communicator (ncclCommInitRank on `device`, after forcing NCCL_NVLS_ENABLE=0) and destroys it after the
// transforms that use it. Throw GpuUnavailable (no NCCL in this build), UsageError (malformed id text, rank out of
// range), CudaError with NCCL's message.
std::string nccl_unique_id_text();
NcclComm nccl_communicator(const std::string& unique_id_text, int gpus, int rank, int device);
void destroy_nccl_communicator(NcclComm comm) noexcept;

class MultiGpuTransform {
 public:
  // One process drives every device of desc.devices (ncclCommInitAll). Throws UsageError (G does not divide NY and
  // NZ, more devices than the machine has, a device listed twice, a pair without peer access, a timeout not
  // positive, a negative min_chunk_bytes), all before any allocation or launch; GpuUnavailable, CudaError with
  // NCCL's own message, and what GpuTransform's constructor throws.
  explicit MultiGpuTransform(const MultiGpuDesc& desc);
  // One process per GPU, exchanges through NCCL (copy_engines and peer_stores are refused): `comm` is this process's
  // communicator (its rank and size say which slab and G),
  // desc.devices holds this rank's device alone, the communicator's device. The transform does not own `comm`
  // (it aborts it only when an exchange fails, see execute). Peer access is left to NCCL here: this process sees
  // its own device alone.
  MultiGpuTransform(const MultiGpuDesc& desc, NcclComm comm);
  ~MultiGpuTransform();
  MultiGpuTransform(MultiGpuTransform&&) noexcept;
  MultiGpuTransform& operator=(MultiGpuTransform&&) noexcept;

  // ins[i], outs[i]: device pointers on the i-th local device (every device in one process; this rank's alone
  // otherwise), local_elements() values each, of the transform's precision (the other type throws UsageError), in the layout the direction and desc.layout say: forward reads z
  // slabs and writes the layout; inverse reads the layout and writes z slabs. ins[i] == outs[i]: in place (on every
  // device or none). Out of place, inputs are never written. Natural order only. Returns when the whole transform
  // is done on every local device. Each exchange must finish within desc.exchange_timeout_s: an NCCL failure or the
  // timeout aborts the communicators (ncclCommAbort, the caller's one included: NCCL's only way to stop a hung
  // transfer) and throws CudaError with NCCL's message; the transform then refuses further runs (UsageError).
  // Throws UsageError (a wrong count of pointers, a null pointer, in place on some devices only, digit-reversed
  // order), CudaError.
  void execute(const std::vector<const DeviceComplex32*>& ins, const std::vector<DeviceComplex32*>& outs,
               const TransformOptions& options = {});
  void execute(const std::vector<const DeviceComplex64*>& ins, const std::vector<DeviceComplex64*>& outs,
               const TransformOptions& options = {});
  void forward(const std::vector<const DeviceComplex32*>& ins, const std::vector<DeviceComplex32*>& outs);
  void forward(const std::vector<const DeviceComplex64*>& ins, const std::vector<DeviceComplex64*>& outs);
  void inverse(const std::vector<const DeviceComplex32*>& ins, const std::vector<DeviceComplex32*>& outs,
               Scaling scaling = Scaling::full);
  void inverse(const std::vector<const DeviceComplex64*>& ins, const std::vector<DeviceComplex64*>& outs,
               Scaling scaling = Scaling::full);

  // Real transforms (desc.kind r2c), the same contract with the real side in z slabs: R2C (forward) reads
  // local_reals(in place) reals per device, rows of NX out of place or padded to 2*(NX/2 + 1) in place (ins[i] and
  // outs[i] one address), and writes the half spectrum, local_elements() complex values, in the layout; C2R
  // (inverse, scaling none or full) reads it and writes the reals, ignoring the imaginary parts of the DC and
  // Nyquist terms along X. Out of place, R2C never writes its input; C2R uses its input as scratch (as cuFFT's
  // C2R does out of place): the spectrum is overwritten. Throws as above, and UsageError for a complex transform
  // or a direction against the overload.
  void execute(const std::vector<const float*>& ins, const std::vector<DeviceComplex32*>& outs,
               const TransformOptions& options = {});
  void execute(const std::vector<const double*>& ins, const std::vector<DeviceComplex64*>& outs,
               const TransformOptions& options = {});
  void execute(const std::vector<DeviceComplex32*>& ins, const std::vector<float*>& outs,
               const TransformOptions& options = {.direction = Direction::inverse});
  void execute(const std::vector<DeviceComplex64*>& ins, const std::vector<double*>& outs,
               const TransformOptions& options = {.direction = Direction::inverse});

  // The exchange alone, no transform: z slabs of the spectrum in `z_slabs` to the y-slab layout in `y_slabs`
  // (distinct buffers, local_elements() values each), with the exchange this transform runs. That is the
  // distributed transpose between the forward transform's local plans: for callers who transform the slabs
  // themselves, and to measure the exchange. Returns when it is done on every local device. Throws as execute does,
  // and UsageError in place.
  void transpose_to_y_slabs(const std::vector<const DeviceComplex32*>& z_slabs,
                            const std::vector<DeviceComplex32*>& y_slabs);
  void transpose_to_y_slabs(const std::vector<const DeviceComplex64*>& z_slabs,
                            const std::vector<DeviceComplex64*>& y_slabs);

  const SlabDecomposition& decomposition() const;
  int gpus() const;                          // G
  int rank() const;                          // the first local slab: 0 in one process, the comm rank otherwise
  std::int64_t local_elements() const;       // complex values per device buffer (a real transform: its spectrum's)
  std::int64_t local_reals(bool in_place) const;  // a real transform's reals per device buffer
  Precision precision() const;               // desc.precision
  TransformKind kind() const;                // desc.kind
  SlabExchange exchange() const;             // copy_engines, peer_stores or nccl, as chosen
  // Device memory each GPU holds beyond its data: one exchange buffer (local_elements() values), plus the local
  // plans' shared workspace where one needs it (GpuTransform::workspace_bytes: a reorder volume where a plan does
  // not reach natural order inside its kernels, a real transform's C2R Nyquist planes, NY values a plane).
  std::int64_t exchange_buffer_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fft3d
