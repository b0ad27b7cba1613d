// MultiGpuTransform (multi_gpu_transform.hpp): the slab decomposition's steps (slab_steps.hpp) on every local GPU,
// its local plans as fft3d's own GpuTransforms on one stream per GPU; in one process the exchanges run in the
// pipelined schedule (slab_schedule.hpp) as copy-engine copies or SM kernels, with a communicator per process as
// grouped NCCL sends and receives of the decomposition's blocks on the same streams.
#include "fft3d/multi_gpu_transform.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuda/cuda_check.hpp"
#include "cuda/nccl_calls.hpp"
#include "cuda/peer_copy_kernel.hpp"
#include "cuda/slab_schedule.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/slab_pipeline.hpp"
#include "slab_steps.hpp"

namespace fft3d {
namespace {

void set_device(int device) { cuda::check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")"); }

// Restores the caller's current device on scope exit: the transform switches devices as it goes.
class CurrentDeviceGuard {
 public:
  CurrentDeviceGuard() { cuda::check(cudaGetDevice(&saved_), "cudaGetDevice"); }
  ~CurrentDeviceGuard() { cudaSetDevice(saved_); }
  CurrentDeviceGuard(const CurrentDeviceGuard&) = delete;
  CurrentDeviceGuard& operator=(const CurrentDeviceGuard&) = delete;

 private:
  int saved_ = 0;
};

std::string gpus_text(int gpus) { return std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs"); }

// UsageError for an empty list or a device listed twice: pure checks, before any CUDA call.
void require_distinct(const std::vector<int>& devices) {
  if (devices.empty()) throw UsageError("MultiGpuTransform: desc.devices lists no device");
  std::set<int> seen;
  for (int device : devices)
    if (!seen.insert(device).second)
      throw UsageError("MultiGpuTransform: device " + std::to_string(device) + " is listed twice in desc.devices");
}

// UsageError for more devices than the machine has, or an ordinal it does not have.
void require_present(const std::vector<int>& devices) {
  int count = 0;
  cuda::check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (static_cast<int>(devices.size()) > count)
    throw UsageError("MultiGpuTransform: " + gpus_text(static_cast<int>(devices.size())) +
                     " asked for; this machine has " + gpus_text(count));
  for (int device : devices)
    if (device < 0 || device >= count)
      throw UsageError("MultiGpuTransform: device " + std::to_string(device) + " asked for; this machine has " +
                       gpus_text(count) + " (devices 0 to " + std::to_string(count - 1) + ")");
}

// UsageError for a pair of devices without peer access, which the exchanges need.
void require_peer_access(const std::vector<int>& devices) {
  for (int a : devices)
    for (int b : devices) {
      if (a == b) continue;
      int can = 0;
      cuda::check(cudaDeviceCanAccessPeer(&can, a, b), "cudaDeviceCanAccessPeer");
      if (!can)
        throw UsageError("MultiGpuTransform: device " + std::to_string(a) + " has no peer access to device " +
                         std::to_string(b) + " (cudaDeviceCanAccessPeer), which the exchanges need");
    }
}

// The arch profile of a device: the one its local plans are planned and lowered on.
std::string arch_of(int device) { return arch_profile_for_device(cuda::compute_capability(device)).name; }

// The slab plan on `planes` of a z slab's Z planes: a complex plan of that many planes, a real plan's batch of
// that many planes.
Plan slab_chunk_plan(Plan slab, std::int64_t planes) {
  if (kind_of(slab) == TransformKind::c2c)
    slab.size.nz = planes;
  else
    slab.batch = planes;
  return slab;
}

GpuTransform* pointer_to(std::optional<GpuTransform>& plan) { return plan ? &*plan : nullptr; }

// The blocks of one exchange direction of one rank.
struct Blocks {
  std::vector<ExchangeBlock> sends;
  std::vector<ExchangeBlock> receives;
};

// One GPU this process drives: its rank, communicator, stream, buffers and local plans.
struct LocalGpu {
  int device = 0;
  int rank = 0;
  NcclComm comm = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t exchanged = nullptr;  // recorded after each exchange, polled with the timeout
  ExchangeUnit* buffer = nullptr;  // the exchange buffer: units.local_elements() exchange units
  void* workspace = nullptr;  // the local plans' workspace (reorder, C2R Nyquist planes), shared: they run in turn
  std::optional<GpuTransform> slab;
  std::optional<GpuTransform> slab_c2r;  // a real transform's inverse slab plan
  std::optional<GpuTransform> column;
  // Copy engines only: the slab plans on one chunk of Z planes, and one copy stream per destination GPU.
  std::optional<GpuTransform> slab_chunk;
  std::optional<GpuTransform> slab_c2r_chunk;
  std::optional<GpuTransform> column_chunk;  // the natural layout's: the column plan on one row chunk
  // The forward's slab plan with its last kernel apart (SlabSide's fields of the same names); empty: whole.
  std::optional<GpuTransform> slab_y_part;
  std::optional<GpuTransform> slab_x_own_forward;
  std::optional<GpuTransform> slab_x_own_inverse;
  std::optional<GpuTransform> slab_x_peers;
  std::vector<cudaStream_t> copy_streams;
  Blocks to_y;
  Blocks to_z;
};

void reset_last_kernel_apart(LocalGpu& gpu) {
  gpu.slab_y_part.reset();
  gpu.slab_x_own_forward.reset();
  gpu.slab_x_own_inverse.reset();
  gpu.slab_x_peers.reset();
}

}  // namespace

struct MultiGpuTransform::Impl {
  SlabDecomposition d;      // in values: the local plans, the caller's sizes
  SlabDecomposition units;  // in exchange units: the exchanges' blocks and copies, the schedule's offsets
  SlabLayout layout = SlabLayout::natural;
  SlabExchange exchange_kind = SlabExchange::nccl;
  std::int64_t chunk_planes = 0;  // one process: Z planes of one slab chunk
  std::int64_t row_chunks = 1;    // one process, natural layout: row chunks of the y slabs (in_row_chunks)
  std::optional<PeerCopyKernel> peer_copies;  // peer_stores: the exchange's kernel, loaded for every device
  int peer_copy_blocks = 0;
  double timeout_s = 0;
  bool owns_comms = false;
  bool aborted = false;  // a failed exchange aborted the communicators: no further runs
  std::int64_t workspace_bytes = 0;
  std::vector<LocalGpu> gpus;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl();

  void set_decomposition(SlabDecomposition decomposition) {
    d = std::move(decomposition);
    units = in_exchange_units(d);
  }
  // Exchange units of one Z plane of a real transform's real side (rows of NX reals, padded to the spectrum's rows
  // in place); 0 for a complex transform (SlabRun::real_plane_units).
  std::int64_t real_plane_units(bool in_place) const {
    if (d.kind == TransformKind::c2c) return 0;
    const std::int64_t spectrum_plane = units.size.nx * units.size.ny;
    return in_place ? spectrum_plane
                    : d.size.nx * d.size.ny * static_cast<std::int64_t>(real_value_bytes(d.slab.precision)) /
                          exchange_unit_bytes;
  }
  // UsageError unless the caller's values are of the transform's precision (`type` names theirs).
  void require_precision(Precision precision, const std::string& type) const {
    if (d.slab.precision != precision)
      throw UsageError("MultiGpuTransform: " + type + " data given to an " + to_string(d.slab.precision) +
                       " transform (MultiGpuDesc::precision)");
  }
  std::string name() const { return "the " + to_string(d.size) + " transform over " + gpus_text(d.gpus); }
  LocalGpu& add_gpu(int device, int rank, NcclComm comm) {
    LocalGpu& gpu = gpus.emplace_back();
    gpu.device = device;
    gpu.rank = rank;
    gpu.comm = comm;
    return gpu;
  }
  void set_up(LocalGpu& gpu);
  // `call`: the overload's kind (c2c, r2c or c2r); `scratch`: a C2R run's inputs, writable.
  void execute(const std::vector<const ExchangeUnit*>& ins, const std::vector<ExchangeUnit*>& outs,
               const TransformOptions& options, TransformKind call = TransformKind::c2c,
               const std::vector<ExchangeUnit*>& scratch = {});
  void execute_scheduled(const SlabRun& run, const TransformOptions& options);
  void transpose(const std::vector<const ExchangeUnit*>& z_slabs, const std::vector<ExchangeUnit*>& y_slabs);
  std::vector<SlabSide> sides();
  // Runs `enqueue` with the one-process schedule's wait (every GPU's last event within the timeout); a failure
  // aborts the communicators, since copies may be left in flight.
  void run_scheduled(const std::string& what, const std::function<void(const WaitForEvents&)>& enqueue);
  void require_runnable() const;
  void set_up_schedule(LocalGpu& gpu);
  void set_up_slab_chunk(LocalGpu& gpu);
  void set_up_last_kernel_apart(LocalGpu& gpu);
  void exchange(bool to_y_slabs, const std::vector<const ExchangeUnit*>& from,
                const std::vector<ExchangeUnit*>& to);
  void abort_all() noexcept;
};

MultiGpuTransform::Impl::~Impl() {
  int saved = 0;
  const bool restore = cudaGetDevice(&saved) == cudaSuccess;
  if (owns_comms && !aborted)
    for (const LocalGpu& gpu : gpus) nccl::destroy(gpu.comm);
  for (LocalGpu& gpu : gpus) {
    cudaSetDevice(gpu.device);
    gpu.slab.reset();
    gpu.slab_c2r.reset();
    gpu.column.reset();
    if (gpu.workspace) cudaFree(gpu.workspace);
    if (gpu.buffer) cudaFree(gpu.buffer);
    gpu.slab_chunk.reset();
    gpu.slab_c2r_chunk.reset();
    gpu.column_chunk.reset();
    reset_last_kernel_apart(gpu);
    for (cudaStream_t stream : gpu.copy_streams) cudaStreamDestroy(stream);
    if (gpu.exchanged) cudaEventDestroy(gpu.exchanged);
    if (gpu.stream) cudaStreamDestroy(gpu.stream);
  }
  if (restore) cudaSetDevice(saved);
}

// With gpu.device current: its stream, event, exchange buffer, local plans (compiled for it) and their workspace.
void MultiGpuTransform::Impl::set_up(LocalGpu& gpu) {
  set_device(gpu.device);
  cuda::check(cudaStreamCreate(&gpu.stream), "cudaStreamCreate");
  cuda::check(cudaEventCreateWithFlags(&gpu.exchanged, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  void* buffer = nullptr;
  cuda::check(cudaMalloc(&buffer, units.local_elements() * exchange_unit_bytes), "cudaMalloc (exchange buffer)");
  gpu.buffer = static_cast<ExchangeUnit*>(buffer);
  gpu.slab.emplace(d.slab, "slab plan of " + name());
  if (d.kind != TransformKind::c2c) gpu.slab_c2r.emplace(d.slab_c2r, "C2R slab plan of " + name());
  gpu.column.emplace(d.column, "column plan of " + name());
  if (exchange_kind != SlabExchange::nccl) set_up_schedule(gpu);
  std::vector<GpuTransform*> plans;
  for (std::optional<GpuTransform>* plan :
       {&gpu.slab, &gpu.slab_c2r, &gpu.column, &gpu.slab_chunk, &gpu.slab_c2r_chunk, &gpu.column_chunk,
        &gpu.slab_y_part, &gpu.slab_x_own_forward, &gpu.slab_x_own_inverse, &gpu.slab_x_peers})
    if (*plan) plans.push_back(&**plan);
  std::int64_t bytes = 0;
  for (const GpuTransform* plan : plans)
    for (Placement placement : {Placement::out_of_place, Placement::in_place})
      bytes = std::max(bytes, plan->workspace_bytes(Order::natural, placement));
  if (bytes > 0) {
    cuda::check(cudaMalloc(&gpu.workspace, bytes), "cudaMalloc (local plans' workspace)");
    for (GpuTransform* plan : plans) plan->set_workspace(gpu.workspace, bytes);
  }
  workspace_bytes = std::max(workspace_bytes, bytes);
  gpu.to_y = {exchange_sends(units, gpu.rank, true), exchange_receives(units, gpu.rank, true)};
  gpu.to_z = {exchange_sends(units, gpu.rank, false), exchange_receives(units, gpu.rank, false)};
}

// With gpu.device current: peer access to every other device, a copy stream per destination, and the slab plan on
// one chunk of Z planes (the whole slab when no chunk plan lowers).
void MultiGpuTransform::Impl::set_up_schedule(LocalGpu& gpu) {
  for (const LocalGpu& other : gpus) {
    if (other.device != gpu.device) {
      const cudaError_t enabled = cudaDeviceEnablePeerAccess(other.device, 0);
      if (enabled == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();  // already on: not an error here
      else
        cuda::check(enabled, "cudaDeviceEnablePeerAccess(" + std::to_string(other.device) + ")");
    }
    cudaStream_t stream = nullptr;
    cuda::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    gpu.copy_streams.push_back(stream);
  }
  if (row_chunks > 1) {
    try {
      gpu.column_chunk.emplace(column_chunk_plan(d, row_chunks, arch_of(gpu.device)),
                               "column plan of " + name() + ", one of " + std::to_string(row_chunks) + " row chunks");
    } catch (const LoweringError&) {
      row_chunks = 1;  // the whole y slab at once: no overlap, still right
      for (LocalGpu& other : gpus) other.column_chunk.reset();
    }
  }
  if (chunk_planes < d.z_slab().nz) set_up_slab_chunk(gpu);
  set_up_last_kernel_apart(gpu);
}

// With gpu.device current: the slab plans on one chunk of Z planes, or the whole slab in one chunk where one does
// not lower.
void MultiGpuTransform::Impl::set_up_slab_chunk(LocalGpu& gpu) {
  const std::string chunk_name = ", one chunk of " + std::to_string(chunk_planes) + " planes";
  try {
    gpu.slab_chunk.emplace(slab_chunk_plan(d.slab, chunk_planes), "slab plan of " + name() + chunk_name);
    if (d.kind != TransformKind::c2c)
      gpu.slab_c2r_chunk.emplace(slab_chunk_plan(d.slab_c2r, chunk_planes), "C2R slab plan of " + name() + chunk_name);
  } catch (const LoweringError&) {
    gpu.slab_chunk.reset();
    gpu.slab_c2r_chunk.reset();
    chunk_planes = d.z_slab().nz;  // the whole slab in one chunk: no overlap, still right
  }
}

// With gpu.device current, after the chunks are settled: the slab plan with its last kernel apart
// (slab_last_kernel_apart), where the slab plan allows it and every part lowers, on every GPU or none.
void MultiGpuTransform::Impl::set_up_last_kernel_apart(LocalGpu& gpu) {
  if (&gpu != &gpus.front() && !gpus.front().slab_y_part) return;
  const std::optional<SlabLastKernelApart> apart = slab_last_kernel_apart(d, chunk_planes, row_chunks);
  if (!apart) return;
  const std::int64_t plane = d.size.nx * d.size.ny;                 // values of a z-slab plane
  const std::int64_t own_plane = plane / (d.gpus * row_chunks);     // of a row chunk of the y slab's plane
  const std::string part_of = " of the slab plan of " + name();
  try {
    gpu.slab_y_part.emplace(apart->y_part, "the kernels before the last" + part_of);
    gpu.slab_x_own_forward.emplace(apart->x_own, "the last kernel" + part_of + ", into the y slab");
    gpu.slab_x_own_forward->set_batch_strides(plane, own_plane);
    gpu.slab_x_own_inverse.emplace(apart->x_own, "the last kernel" + part_of + ", from the y slab");
    gpu.slab_x_own_inverse->set_batch_strides(own_plane, plane);
    gpu.slab_x_peers.emplace(apart->x_peers, "the last kernel" + part_of + ", on a peer's rows");
    gpu.slab_x_peers->set_batch_strides(plane, plane);
  } catch (const LoweringError&) {
    for (LocalGpu& other : gpus) reset_last_kernel_apart(other);  // the slab plan whole, as before: still right
  }
}

std::vector<SlabSide> MultiGpuTransform::Impl::sides() {
  std::vector<SlabSide> sides;
  for (LocalGpu& gpu : gpus)
    sides.push_back({gpu.device, gpu.slab_chunk ? &*gpu.slab_chunk : &*gpu.slab,
                     gpu.slab_c2r_chunk ? &*gpu.slab_c2r_chunk : gpu.slab_c2r ? &*gpu.slab_c2r : nullptr,
                     &*gpu.column, gpu.column_chunk ? &*gpu.column_chunk : nullptr, gpu.stream, gpu.copy_streams,
                     gpu.buffer, peer_copies ? &*peer_copies : nullptr, peer_copy_blocks,
                     pointer_to(gpu.slab_y_part), pointer_to(gpu.slab_x_own_forward),
                     pointer_to(gpu.slab_x_own_inverse), pointer_to(gpu.slab_x_peers)});
  return sides;
}

void MultiGpuTransform::Impl::run_scheduled(const std::string& what,
                                            const std::function<void(const WaitForEvents&)>& enqueue) {
  std::vector<NcclComm> comms;
  for (const LocalGpu& gpu : gpus) comms.push_back(gpu.comm);
  const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(timeout_s));
  const nccl::Deadline deadline{std::chrono::steady_clock::now() + timeout, timeout_s};
  const WaitForEvents wait_for = [&](const std::vector<cudaEvent_t>& done) {
    nccl::wait(comms, done, deadline, what);
  };
  try {
    enqueue(wait_for);
  } catch (const Error&) {
    abort_all();  // a run cut short leaves copies in flight: this transform runs no more
    throw;
  }
}

void MultiGpuTransform::Impl::execute_scheduled(const SlabRun& run, const TransformOptions& options) {
  run_scheduled(name() + ", a run with one process's exchanges", [&](const WaitForEvents& wait_for) {
    run_slab_schedule(units, chunk_planes, row_chunks, sides(), run, layout, local_slab_options(options), wait_for);
  });
}

void MultiGpuTransform::Impl::transpose(const std::vector<const ExchangeUnit*>& z_slabs,
                                        const std::vector<ExchangeUnit*>& y_slabs) {
  require_runnable();
  const std::string who = "MultiGpuTransform::transpose_to_y_slabs";
  if (require_slab_pointers(z_slabs, y_slabs, static_cast<int>(gpus.size()), {}, who))
    throw UsageError(who + ": the transpose runs out of place (z_slabs and y_slabs must differ)");
  CurrentDeviceGuard guard;
  if (exchange_kind == SlabExchange::nccl) return exchange(true, z_slabs, y_slabs);
  run_scheduled(name() + ", a transpose to y slabs", [&](const WaitForEvents& wait_for) {
    run_slab_exchange(units, sides(), z_slabs, y_slabs, wait_for);
  });
}

void MultiGpuTransform::Impl::require_runnable() const {
  if (aborted)
    throw UsageError("MultiGpuTransform: an earlier exchange of " + name() +
                     " failed and aborted its communicators; make a new transform");
}

void MultiGpuTransform::Impl::abort_all() noexcept {
  for (const LocalGpu& gpu : gpus) nccl::abort(gpu.comm);
  aborted = true;
}

// One exchange on every local GPU, waited for with the timeout: a failure or the timeout aborts every
// communicator (NCCL's only way to stop a hung transfer), and the transform runs no more.
void MultiGpuTransform::Impl::exchange(bool to_y_slabs, const std::vector<const ExchangeUnit*>& from,
                                      const std::vector<ExchangeUnit*>& to) {
  const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(timeout_s));
  const nccl::Deadline deadline{std::chrono::steady_clock::now() + timeout, timeout_s};
  const std::string what = name() + (to_y_slabs ? ", exchange to y slabs" : ", exchange to z slabs");
  std::vector<nccl::ExchangeSide> sides;
  std::vector<NcclComm> comms;
  std::vector<cudaEvent_t> done;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const Blocks& blocks = to_y_slabs ? gpus[i].to_y : gpus[i].to_z;
    sides.push_back({gpus[i].comm, gpus[i].stream, from[i], to[i], &blocks.sends, &blocks.receives});
    comms.push_back(gpus[i].comm);
    done.push_back(gpus[i].exchanged);
  }
  try {
    nccl::enqueue_exchange(sides, deadline, what);
    for (const LocalGpu& gpu : gpus) {
      set_device(gpu.device);
      cuda::check(cudaEventRecord(gpu.exchanged, gpu.stream), "cudaEventRecord (after an exchange)");
    }
    nccl::wait(comms, done, deadline, what);
  } catch (const Error&) {
    abort_all();
    throw;
  }
}

void MultiGpuTransform::Impl::execute(const std::vector<const ExchangeUnit*>& ins,
                                      const std::vector<ExchangeUnit*>& outs, const TransformOptions& options,
                                      TransformKind call, const std::vector<ExchangeUnit*>& scratch) {
  require_runnable();
  const std::string who = "MultiGpuTransform::execute";
  require_slab_kind(d.kind, call, options.direction, who);
  const bool in_place = require_slab_pointers(ins, outs, static_cast<int>(gpus.size()), options, who);
  const std::vector<ExchangeUnit*> in_scratch = in_place ? std::vector<ExchangeUnit*>{} : scratch;
  if (exchange_kind != SlabExchange::nccl) {
    CurrentDeviceGuard guard;
    return execute_scheduled({ins, outs, in_scratch, real_plane_units(in_place)}, options);
  }
  SlabBuffers<ExchangeUnit> roles{ins, outs, {}, in_scratch};
  for (const LocalGpu& gpu : gpus) roles.exchange.push_back(gpu.buffer);
  const TransformOptions local = local_slab_options(options);
  CurrentDeviceGuard guard;
  for (const SlabStep& step : slab_steps(options.direction, layout, in_place, d.kind)) {
    const std::vector<const ExchangeUnit*> from = roles.readable(step.from);
    const std::vector<ExchangeUnit*>& to = roles.writable(step.to);
    if (step.kind == SlabStepKind::to_y_slabs || step.kind == SlabStepKind::to_z_slabs) {
      exchange(step.kind == SlabStepKind::to_y_slabs, from, to);
      continue;
    }
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      set_device(gpus[i].device);
      if (step.kind == SlabStepKind::column) {
        execute_local_plan(*gpus[i].column, from[i], to[i], local, gpus[i].stream);
      } else if (options.direction == Direction::inverse && gpus[i].slab_c2r) {
        execute_local_plan(*gpus[i].slab_c2r, from[i], to[i], local, gpus[i].stream);
      } else {
        execute_local_plan(*gpus[i].slab, from[i], to[i], local, gpus[i].stream);
      }
    }
  }
  for (const LocalGpu& gpu : gpus) {
    set_device(gpu.device);
    cuda::check(cudaStreamSynchronize(gpu.stream), "cudaStreamSynchronize (multi-GPU transform)");
  }
}

namespace {

void require_chunk_bytes(std::int64_t min_chunk_bytes) {
  if (min_chunk_bytes < 0)
    throw UsageError("MultiGpuTransform: min_chunk_bytes must be 0 (the defaults) or positive (" +
                     std::to_string(min_chunk_bytes) + ")");
}

// Blocks of the exchange kernel: two a multiprocessor, as many stores in flight as the links take.
int peer_copy_blocks_of(int device) {
  constexpr int blocks_per_multiprocessor = 2;
  int multiprocessors = 0;
  cuda::check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
              "cudaDeviceGetAttribute");
  return blocks_per_multiprocessor * multiprocessors;
}

void require_timeout(double timeout_s) {
  if (!(timeout_s > 0))
    throw UsageError("MultiGpuTransform: exchange_timeout_s must be positive (" + std::to_string(timeout_s) + ")");
}

}  // namespace

MultiGpuTransform::MultiGpuTransform(const MultiGpuDesc& desc) : impl_(std::make_unique<Impl>()) {
  nccl::require_linked();
  require_distinct(desc.devices);
  require_timeout(desc.exchange_timeout_s);
  require_chunk_bytes(desc.min_chunk_bytes);
  const int gpus = static_cast<int>(desc.devices.size());
  require_slab_split(desc.extents, gpus);
  require_present(desc.devices);
  require_peer_access(desc.devices);
  CurrentDeviceGuard guard;
  impl_->set_decomposition(slab_decomposition(desc.extents, gpus, arch_of(desc.devices.front()), desc.precision,
                                            desc.kind));
  impl_->layout = desc.layout;
  impl_->timeout_s = desc.exchange_timeout_s;
  const SlabPipeline pipeline = one_process_pipeline(impl_->units, desc.layout, desc.exchange, desc.min_chunk_bytes);
  impl_->exchange_kind = pipeline.exchange;
  impl_->chunk_planes = pipeline.chunk_planes;
  impl_->row_chunks = pipeline.row_chunks;
  if (impl_->exchange_kind == SlabExchange::peer_stores) {
    set_device(desc.devices.front());
    impl_->peer_copies.emplace(cuda::compute_capability(desc.devices.front()));
    impl_->peer_copy_blocks = peer_copy_blocks_of(desc.devices.front());
  }
  const std::vector<NcclComm> comms = nccl::init_all(desc.devices);
  impl_->owns_comms = true;
  for (int g = 0; g < gpus; ++g) impl_->add_gpu(desc.devices[g], g, comms[g]);
  for (LocalGpu& gpu : impl_->gpus) impl_->set_up(gpu);
}

MultiGpuTransform::MultiGpuTransform(const MultiGpuDesc& desc, NcclComm comm) : impl_(std::make_unique<Impl>()) {
  nccl::require_linked();
  if (!comm) throw UsageError("MultiGpuTransform: null NCCL communicator");
  if (desc.exchange == SlabExchange::copy_engines || desc.exchange == SlabExchange::peer_stores)
    throw UsageError("MultiGpuTransform: copy-engine and peer-store exchanges need one process driving every GPU; "
                     "with a communicator per process the exchanges go through NCCL (SlabExchange::nccl or "
                     "automatic)");
  if (desc.devices.size() != 1)
    throw UsageError("MultiGpuTransform: with a communicator, desc.devices holds this rank's device alone (" +
                     std::to_string(desc.devices.size()) + " given)");
  require_timeout(desc.exchange_timeout_s);
  const int gpus = nccl::count_of(comm);
  const int rank = nccl::rank_of(comm);
  require_slab_split(desc.extents, gpus);
  require_present(desc.devices);
  const int device = desc.devices.front();
  if (nccl::device_of(comm) != device)
    throw UsageError("MultiGpuTransform: the communicator of rank " + std::to_string(rank) + " is on device " +
                     std::to_string(nccl::device_of(comm)) + ", desc.devices says " + std::to_string(device));
  CurrentDeviceGuard guard;
  impl_->set_decomposition(slab_decomposition(desc.extents, gpus, arch_of(device), desc.precision, desc.kind));
  impl_->layout = desc.layout;
  impl_->timeout_s = desc.exchange_timeout_s;
  impl_->set_up(impl_->add_gpu(device, rank, comm));
}

MultiGpuTransform::~MultiGpuTransform() = default;
MultiGpuTransform::MultiGpuTransform(MultiGpuTransform&&) noexcept = default;
MultiGpuTransform& MultiGpuTransform::operator=(MultiGpuTransform&&) noexcept = default;

namespace {

// The caller's pointers as the exchange units the transform addresses its buffers in.
template <class T>
std::vector<const ExchangeUnit*> as_units(const std::vector<const T*>& pointers) {
  std::vector<const ExchangeUnit*> units;
  for (const T* pointer : pointers) units.push_back(reinterpret_cast<const ExchangeUnit*>(pointer));
  return units;
}
template <class T>
std::vector<ExchangeUnit*> as_units(const std::vector<T*>& pointers) {
  std::vector<ExchangeUnit*> units;
  for (T* pointer : pointers) units.push_back(reinterpret_cast<ExchangeUnit*>(pointer));
  return units;
}

constexpr const char* fp32_type = "std::complex<float>";
constexpr const char* fp64_type = "std::complex<double>";

}  // namespace

void MultiGpuTransform::execute(const std::vector<const DeviceComplex32*>& ins,
                                const std::vector<DeviceComplex32*>& outs, const TransformOptions& options) {
  impl_->require_precision(Precision::fp32, fp32_type);
  impl_->execute(as_units(ins), as_units(outs), options);
}

void MultiGpuTransform::execute(const std::vector<const DeviceComplex64*>& ins,
                                const std::vector<DeviceComplex64*>& outs, const TransformOptions& options) {
  impl_->require_precision(Precision::fp64, fp64_type);
  impl_->execute(as_units(ins), as_units(outs), options);
}

void MultiGpuTransform::forward(const std::vector<const DeviceComplex32*>& ins,
                                const std::vector<DeviceComplex32*>& outs) {
  execute(ins, outs, {});
}

void MultiGpuTransform::forward(const std::vector<const DeviceComplex64*>& ins,
                                const std::vector<DeviceComplex64*>& outs) {
  execute(ins, outs, {});
}

void MultiGpuTransform::inverse(const std::vector<const DeviceComplex32*>& ins,
                                const std::vector<DeviceComplex32*>& outs, Scaling scaling) {
  execute(ins, outs, {.direction = Direction::inverse, .scaling = scaling});
}

void MultiGpuTransform::inverse(const std::vector<const DeviceComplex64*>& ins,
                                const std::vector<DeviceComplex64*>& outs, Scaling scaling) {
  execute(ins, outs, {.direction = Direction::inverse, .scaling = scaling});
}

void MultiGpuTransform::execute(const std::vector<const float*>& ins, const std::vector<DeviceComplex32*>& outs,
                                const TransformOptions& options) {
  impl_->require_precision(Precision::fp32, "float");
  impl_->execute(as_units(ins), as_units(outs), options, TransformKind::r2c);
}

void MultiGpuTransform::execute(const std::vector<const double*>& ins, const std::vector<DeviceComplex64*>& outs,
                                const TransformOptions& options) {
  impl_->require_precision(Precision::fp64, "double");
  impl_->execute(as_units(ins), as_units(outs), options, TransformKind::r2c);
}

void MultiGpuTransform::execute(const std::vector<DeviceComplex32*>& ins, const std::vector<float*>& outs,
                                const TransformOptions& options) {
  impl_->require_precision(Precision::fp32, fp32_type);
  const std::vector<ExchangeUnit*> scratch = as_units(ins);
  impl_->execute({scratch.begin(), scratch.end()}, as_units(outs), options, TransformKind::c2r, scratch);
}

void MultiGpuTransform::execute(const std::vector<DeviceComplex64*>& ins, const std::vector<double*>& outs,
                                const TransformOptions& options) {
  impl_->require_precision(Precision::fp64, fp64_type);
  const std::vector<ExchangeUnit*> scratch = as_units(ins);
  impl_->execute({scratch.begin(), scratch.end()}, as_units(outs), options, TransformKind::c2r, scratch);
}

void MultiGpuTransform::transpose_to_y_slabs(const std::vector<const DeviceComplex32*>& z_slabs,
                                             const std::vector<DeviceComplex32*>& y_slabs) {
  impl_->require_precision(Precision::fp32, fp32_type);
  impl_->transpose(as_units(z_slabs), as_units(y_slabs));
}

void MultiGpuTransform::transpose_to_y_slabs(const std::vector<const DeviceComplex64*>& z_slabs,
                                             const std::vector<DeviceComplex64*>& y_slabs) {
  impl_->require_precision(Precision::fp64, fp64_type);
  impl_->transpose(as_units(z_slabs), as_units(y_slabs));
}

Precision MultiGpuTransform::precision() const { return impl_->d.slab.precision; }
TransformKind MultiGpuTransform::kind() const { return impl_->d.kind; }
std::int64_t MultiGpuTransform::local_reals(bool in_place) const { return impl_->d.local_reals(in_place); }
const SlabDecomposition& MultiGpuTransform::decomposition() const { return impl_->d; }
int MultiGpuTransform::gpus() const { return impl_->d.gpus; }
SlabExchange MultiGpuTransform::exchange() const { return impl_->exchange_kind; }
int MultiGpuTransform::rank() const { return impl_->gpus.front().rank; }
std::int64_t MultiGpuTransform::local_elements() const { return impl_->d.local_elements(); }
std::int64_t MultiGpuTransform::exchange_buffer_bytes() const {
  return impl_->units.local_elements() * exchange_unit_bytes + impl_->workspace_bytes;
}

}  // namespace fft3d
