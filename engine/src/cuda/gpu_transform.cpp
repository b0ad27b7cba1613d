// The executor: compiled kernels launched in plan order with their bindings (the first reads `in`, the rest run in
// place on `out`), then the digit-reversal pass through the workspace when natural order needs it.
#include "fft3d/gpu_transform.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_compiler.hpp"
#include "emit/cuda_source.hpp"
#include "fft3d/arch_profile.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/wisdom.hpp"
#include "lowering/kernel_spec.hpp"

namespace fft3d {
namespace {

struct LoadedKernel {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
};

int current_arch() {
  int device = 0;
  cuda::check(cudaGetDevice(&device), "cudaGetDevice");
  return cuda::compute_capability(device);
}

// Bytes of one complex value of the plan's precision (complex float or complex double).
std::int64_t complex_bytes(const Plan& plan) {
  return plan.precision == Precision::fp64 ? sizeof(DeviceComplex64) : sizeof(DeviceComplex32);
}

// The batch as the run lays it out (batch_bytes: UsageError where its size overflows) must fit the device's memory.
void require_fits_device(const Plan& plan, std::int64_t batch_stride, std::int64_t output_batch_stride = 0) {
  if (plan.batch < 1)
    throw UsageError("batch " + std::to_string(plan.batch) + ": a transform takes 1 or more volumes");
  const std::int64_t bytes = batch_bytes({.extents = plan.size, .kind = kind_of(plan), .precision = plan.precision,
                                          .batch = plan.batch, .batch_stride = batch_stride,
                                          .output_batch_stride = output_batch_stride});
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (static_cast<std::uint64_t>(bytes) > total_bytes)
    throw OutOfMemory("a " + to_string(plan.size) + " " + to_string(plan.precision) + " " +
                      to_string(kind_of(plan)) + " transform" +
                      (plan.batch > 1 ? " of " + std::to_string(plan.batch) + " volumes" : "") + " needs " +
                      std::to_string(bytes) + " B; the device has " + std::to_string(total_bytes) + " B");
}

// The largest cluster a portable launch may take; larger ones (up to 16 on an H100) need the kernel's opt-in.
constexpr int portable_cluster_blocks = 8;

LoadedKernel load(const CompiledKernel& compiled, const KernelSpec& spec) {
  const std::int64_t shared_bytes = spec.shared_bytes;
  LoadedKernel loaded;
  cuda::check(cudaLibraryLoadData(&loaded.library, compiled.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
              "cudaLibraryLoadData(" + compiled.entry_name + ")");
  cuda::check(cudaLibraryGetKernel(&loaded.kernel, loaded.library, compiled.entry_name.c_str()),
              "cudaLibraryGetKernel(" + compiled.entry_name + ")");
  if (shared_bytes > 48 * 1024)
    cuda::check(cudaFuncSetAttribute(reinterpret_cast<const void*>(loaded.kernel),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)),
                "cudaFuncSetAttribute(" + compiled.entry_name + ")");
  if (std::max(spec.cluster_blocks, spec.sorted_store_cluster) > portable_cluster_blocks)
    cuda::check(cudaFuncSetAttribute(reinterpret_cast<const void*>(loaded.kernel),
                                     cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
                "cudaFuncSetAttribute(" + compiled.entry_name + ", non-portable cluster size)");
  return loaded;
}

// Whether kernels launch with programmatic stream serialization (sm_90+; every generated kernel starts with
// fft3d_wait_for_previous_kernel, kernels/device/fft3d_grid_dependency.cuh). FFT3D_PDL=0 turns it off, to measure.
bool programmatic_launch(int arch) {
  static const bool disabled = [] {
    const char* value = std::getenv("FFT3D_PDL");
    return value && std::string(value) == "0";
  }();
  return arch >= 90 && !disabled;
}

// The launch of a spec's grid in clusters of `cluster` blocks (1: none) over `volumes` volumes of a batch
// (gridDim.y): its geometry, and the cluster attribute as the first of `attributes` (which must outlive the config).
cudaLaunchConfig_t launch_config(const KernelSpec& spec, int cluster, cudaLaunchAttribute* attributes,
                                 std::int64_t volumes = 1) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(spec.launch_blocks()), static_cast<unsigned>(volumes));
  config.blockDim = dim3(static_cast<unsigned>(spec.threads));
  config.dynamicSmemBytes = static_cast<std::size_t>(spec.shared_bytes);
  config.attrs = attributes;
  if (cluster > 1) {
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim.x = static_cast<unsigned>(cluster);
    attributes[0].val.clusterDim.y = 1;
    attributes[0].val.clusterDim.z = 1;
    config.numAttrs = 1;
  }
  return config;
}

// Launches a loaded kernel with the geometry of its spec: the one launch path of tile kernels, the reorder pass and
// the copy twins. On sm_90+ the launch is programmatic: the kernel's blocks may be scheduled while the kernel before
// it in the stream finishes, and wait for it on the device.
// The RealRows argument of a real transform's kernels (emit/cuda_source.hpp), field for field.
struct RealRows {
  long long in_pitch = 0;
  long long out_pitch = 0;
  const void* in_nyquist = nullptr;
  void* out_nyquist = nullptr;
  long long in_nyquist_pitch = 0;
  long long out_nyquist_pitch = 0;
  long long in_nyquist_per_volume = 0;
  long long out_nyquist_per_volume = 0;
};

// The arguments of one launch, in the kernel's order (emit/cuda_source.hpp): a real kernel's RealRows and a batch
// kernel's volume strides (complex values from one volume to the next in `in` and in `out`) only where it takes them.
struct KernelArguments {
  const void* in = nullptr;
  void* out = nullptr;
  double scale = 1.0;  // passed as the kernel's precision: a float to fp32 kernels, a double to fp64 ones
  int flags = 0;
  RealRows rows{};
  long long in_volume_stride = 0;
  long long out_volume_stride = 0;
};

// `volumes` (1 to max_volumes_per_launch) volumes of a batch kernel from `args.in` and `args.out` on, one launch.
void launch_spec(const KernelSpec& spec, const LoadedKernel& kernel, KernelArguments args, cudaStream_t stream,
                 int arch, std::int64_t volumes = 1) {
  if (spec.launch_blocks() > 0x7fffffffLL)
    throw LoweringError(spec.entry_name() + ": grid of " + std::to_string(spec.launch_blocks()) +
                        " blocks is over 2^31 - 1");
  float scale32 = static_cast<float>(args.scale);
  void* scale_argument = spec.precision == Precision::fp64 ? static_cast<void*>(&args.scale) : &scale32;
  void* params[7] = {&args.in, &args.out, scale_argument, &args.flags};
  std::size_t count = 4;
  if (spec.role == KernelRole::tile && spec.real.kind != TransformKind::c2c) params[count++] = &args.rows;
  if (spec.batch > 1) {
    params[count++] = &args.in_volume_stride;
    params[count++] = &args.out_volume_stride;
  }
  const int cluster =
      (args.flags & kernel_flag_cluster_ordered_stores) != 0 ? spec.sorted_store_cluster : spec.cluster_blocks;
  cudaLaunchAttribute attributes[2]{};
  cudaLaunchConfig_t config = launch_config(spec, cluster, attributes, volumes);
  config.stream = stream;
  if (programmatic_launch(arch)) {
    attributes[config.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[config.numAttrs].val.programmaticStreamSerializationAllowed = 1;
    ++config.numAttrs;
  }
  // The message is built only on failure: entry_name() hashes the spec's text (microseconds a launch).
  const cudaError_t launched = cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel.kernel), params);
  if (launched != cudaSuccess) cuda::check(launched, "cudaLaunchKernelEx(" + spec.entry_name() + ")");
}

// Whether this GPU can hold at least one cluster of a kernel's sorted stores in place at once. A cluster over the
// portable size may not fit the GPU's processing clusters (measured on an H100 SXM; a part with fewer
// multiprocessors per processing cluster may hold none): then in place takes the digit-reversal pass instead of a
// launch that fails.
bool holds_a_sorted_store_cluster(const KernelSpec& spec, const LoadedKernel& kernel) {
  if (spec.sorted_store_cluster <= portable_cluster_blocks) return true;
  cudaLaunchAttribute attributes[1]{};
  const cudaLaunchConfig_t config = launch_config(spec, spec.sorted_store_cluster, attributes);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<const void*>(kernel.kernel), &config) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the error: the answer is "no"
    return false;
  }
  return clusters > 0;
}

}  // namespace

struct CopyTwin {
  KernelSpec spec;
  LoadedKernel loaded;
};

struct GpuTransform::Impl {
  Plan plan;
  std::string plan_source;
  LoweredPlan lowered;
  std::vector<KernelSpec> specs;       // the plan's kernels, then the reorder pass and the real pass, those it has
  std::vector<LoadedKernel> loaded;    // one per spec
  std::vector<GpuKernelInfo> infos;    // one per spec
  int arch = 0;
  GpuSetupTimes setup;
  void* own_workspace = nullptr;       // allocated at the first run that needs it, unless the caller gave one
  void* caller_workspace = nullptr;
  std::int64_t caller_workspace_bytes = 0;
  std::int64_t batch_stride = 0;       // a C2C batch's complex values from one volume to the next; 0: packed
  std::int64_t out_batch_stride = 0;   // the same in `out` where it differs (set_batch_strides); 0: batch_stride
  std::map<std::size_t, CopyTwin> copy_twins;  // built on first use (profiling only)

  ~Impl() {
    if (own_workspace) cudaFree(own_workspace);
    for (LoadedKernel& k : loaded) cudaLibraryUnload(k.library);
    for (auto& [index, twin] : copy_twins) cudaLibraryUnload(twin.loaded.library);
  }

  void launch(std::size_t index, const KernelArguments& args, cudaStream_t stream, std::int64_t volumes = 1) const {
    launch_spec(specs[index], loaded[index], args, stream, arch, volumes);
  }

  // Complex values from one volume of the batch to the next in the buffer a run reads (`in`: the first kernel's
  // loads) and in the one it writes (`out`: every later access): the batch stride for C2C (0: packed), packed
  // volumes in each buffer's layout for a real plan (the real rows, padded in place, and the half spectrum).
  struct VolumeStrides {
    long long in = 0;
    long long out = 0;
  };
  VolumeStrides volume_strides(bool out_of_place) const {
    const TransformKind kind = kind_of(plan);
    if (kind == TransformKind::c2c) {
      const long long stride = batch_stride > 0 ? batch_stride : plan.size.elements();
      return {stride, out_batch_stride > 0 ? out_batch_stride : stride};
    }
    const long long rows = plan.size.ny * plan.size.nz;
    const long long spectrum = (half() + 1) * rows;
    const long long unpadded_reals = plan.size.nx * rows;
    if (out_of_place && plan.batch > 1 && unpadded_reals % 2 != 0)
      throw UsageError("GpuTransform: a batch of " + to_string(kind) + " transforms of " + to_string(plan.size) +
                       " out of place: each volume holds an odd count of reals, so the next volume's rows would not "
                       "be aligned to a complex value; run it in place, or one volume a run");
    const long long reals = out_of_place ? unpadded_reals / 2 : spectrum;
    return kind == TransformKind::r2c ? VolumeStrides{reals, spectrum} : VolumeStrides{spectrum, reals};
  }
  const void* volume_at(const void* data, long long stride, std::int64_t volume) const {
    return static_cast<const char*>(data) + volume * stride * complex_bytes(plan);
  }
  void* volume_at(void* data, long long stride, std::int64_t volume) const {
    return static_cast<char*>(data) + volume * stride * complex_bytes(plan);
  }
  // Volumes one launch covers: as many as a grid's Y dimension holds; where a C2R run keeps the Nyquist column
  // between its kernels in the workspace, a plane a volume, at most NX/2 + 1, so that the workspace stays within one
  // volume's half spectrum whatever the batch.
  std::int64_t volumes_per_launch(bool out_of_place) const {
    const std::int64_t volumes = std::min(plan.batch, max_volumes_per_launch);
    return splits_spectrum(out_of_place) ? std::min(volumes, half() + 1) : volumes;
  }

  // Real transforms: the half spectrum has half + 1 columns of complex values; the real rows half (out of place)
  // or half + 1 (in place, padded). Between the kernels of a C2R run out of place, where the output's real rows have
  // no room for the Nyquist column, the half spectrum lives split: half columns in `out` and column `half` in the
  // workspace, a plane a volume for the volumes of one launch (nyquist_planes_bytes).
  std::int64_t half() const { return plan.size.nx / 2; }
  // A real plan whose kernels take the RealRows argument: all but a 1D plan with its step apart, whose kernels are
  // the complex plan's of the packed row (LoweredPlan::real_pass).
  bool real_kernels() const { return kind_of(plan) != TransformKind::c2c && !lowered.real_pass; }
  bool splits_spectrum(bool out_of_place) const {
    return kind_of(plan) == TransformKind::c2r && out_of_place && lowered.kernels.size() > 1 && real_kernels();
  }
  std::int64_t nyquist_plane_elements() const { return plan.size.ny * plan.size.nz; }
  std::int64_t nyquist_planes_bytes() const {
    return volumes_per_launch(true) * nyquist_plane_elements() * complex_bytes(plan);
  }

  // One side of a kernel's access to a real run's data: the row pitch, where column `half` lives, and the distance
  // from one volume's column to the next.
  struct RowsLayout {
    long long pitch = 0;
    const void* nyquist = nullptr;
    long long nyquist_pitch = 0;
    long long nyquist_volume_stride = 0;
  };

  // The pitches of kernel `index` of a real run reading `in`'s layout first and writing `out`.
  RealRows real_rows(std::size_t index, const void* in, void* out, bool out_of_place, void* nyquist_plane) const {
    const long long h = half();
    const bool r2c = kind_of(plan) == TransformKind::r2c;
    const bool first = index == 0;
    const bool last = index + 1 == lowered.kernels.size();
    const bool split = splits_spectrum(out_of_place);
    const VolumeStrides strides = volume_strides(out_of_place);
    // An odd NX's kernels take their row pitches in reals (RealKernel): the split intermediate's rows then lie in
    // the output's rows of NX reals.
    const bool odd = odd_real_rows(plan);
    const long long nx = plan.size.nx;
    const long long spectrum_pitch = odd ? 2 * (h + 1) : h + 1;
    const RowsLayout reals{odd ? (out_of_place ? nx : nx + 1) : (out_of_place ? h : h + 1)};
    const RowsLayout split_spectrum{odd ? nx : h, nyquist_plane, 1, nyquist_plane_elements()};
    const std::int64_t value_bytes = complex_bytes(plan);
    const auto spectrum = [h, spectrum_pitch, value_bytes](const void* data, long long volume_stride) {
      return RowsLayout{spectrum_pitch, static_cast<const char*>(data) + h * value_bytes, h + 1, volume_stride};
    };
    // Loads: the real rows (R2C's first kernel), the split intermediate (C2R's later kernels out of place), or the
    // half spectrum (the caller's, or the intermediate in `out`). Stores likewise, C2R's last kernel to the reals.
    const RowsLayout load = r2c && first                ? reals
                            : !r2c && !first && split ? split_spectrum
                                                      : spectrum(first ? in : out, first ? strides.in : strides.out);
    const RowsLayout store = !r2c && last ? reals : !r2c && split ? split_spectrum : spectrum(out, strides.out);
    // The store side's Nyquist address lies in `out` or the workspace, both writable.
    return {load.pitch,         store.pitch,         load.nyquist, const_cast<void*>(store.nyquist),
            load.nyquist_pitch, store.nyquist_pitch, load.nyquist_volume_stride, store.nyquist_volume_stride};
  }

  // The caller's workspace where it gave one of at least `bytes`, else the transform's own, allocated at the first
  // run that needs one. A transform asks one size only: the reorder pass's volume (a complex plan) or the Nyquist
  // planes of one launch's volumes (a real one).
  void* workspace_of(std::int64_t bytes) {
    if (caller_workspace) {
      if (caller_workspace_bytes < bytes)
        throw UsageError("GpuTransform: the caller's workspace holds " + std::to_string(caller_workspace_bytes) +
                         " B; this run needs " + std::to_string(bytes) + " B (workspace_bytes)");
      return caller_workspace;
    }
    if (!own_workspace) cuda::check(cudaMalloc(&own_workspace, static_cast<std::size_t>(bytes)), "cudaMalloc(workspace)");
    return own_workspace;
  }

  void execute_real(const void* in, void* out, const TransformOptions& options, TransformKind kind, cudaStream_t s);
  void execute_complex(const void* in, void* out, const TransformOptions& options, cudaStream_t s);
  void run_complex_stages(const void* in, void* out, const TransformOptions& options, cudaStream_t s);

  // A 1D real plan with its step apart (LoweredPlan::real_pass, the last spec; one volume): R2C runs the complex
  // stages from the packed reals through the workspace into `out`, then the pass in place there; C2R runs the pass
  // from the half spectrum into the workspace (never writing `in`), then the inverse stages from there into `out`.
  // No copy back in either placement.
  void run_with_real_pass(const void* in, void* out, const TransformOptions& options, cudaStream_t s) {
    const std::size_t pass = specs.size() - 1;
    if (kind_of(plan) == TransformKind::r2c) {
      run_complex_stages(in, out, options, s);
      launch(pass, {.in = out, .out = out}, s);
      return;
    }
    void* packed = lowered.reorder ? volume_workspace() : out;
    launch(pass, {.in = in, .out = packed}, s);
    run_complex_stages(packed, out, options, s);
  }

  // A run's data type must be the plan's precision (the kernels were emitted for it).
  void require_precision(Precision data, const char* type) const {
    if (data != plan.precision)
      throw UsageError(std::string("GpuTransform: ") + type + " data, but this plan (" + plan_source + ") is " +
                       to_string(plan.precision) + (plan.precision == Precision::fp64
                                                         ? ": pass std::complex<double> / double pointers"
                                                         : ": pass std::complex<float> / float pointers, or a plan "
                                                           "with precision fp64"));
  }

  // Flags and scale of tile kernel `index` in a run with `options`, out of place or not.
  std::pair<double, int> bindings(std::size_t index, const TransformOptions& options, bool out_of_place) const {
    const bool inverse = options.direction == Direction::inverse;
    const bool last = index + 1 == lowered.kernels.size();
    const bool natural = options.order == Order::natural;
    int flags = natural ? kernel_flag_natural_store : 0;
    if (natural && lowered.addresses_sorted(index, out_of_place)) flags |= kernel_flag_sorted_layout;
    if (natural && lowered.loads_natural_in_sorted_run(index, out_of_place)) flags |= kernel_flag_natural_loads;
    if (natural && lowered.orders_stores_in_clusters(index, out_of_place)) flags |= kernel_flag_cluster_ordered_stores;
    if (inverse && index == 0) flags |= kernel_flag_conjugate_load;
    if (inverse && last) flags |= kernel_flag_conjugate_store;
    const double scale = last ? scale_factor(options.scaling, transformed_elements(plan)) : 1.0;
    return {plan.precision == Precision::fp64 ? scale : static_cast<float>(scale), flags};
  }

  // One volume of workspace (the digit-reversal pass's target, or the kernels before a transposed store): the
  // caller's where it gave one large enough, else the transform's own.
  void* volume_workspace() { return workspace_of(plan.size.elements() * complex_bytes(plan)); }

  bool runs_reorder_pass(Order order, bool out_of_place) const {
    return order == Order::natural && lowered.reorders(out_of_place);
  }

  // Launches only spec `index` as an in-place or out-of-place run without a caller's workspace would, on `volumes`
  // volumes of the batch from `in` and `out` on (at most volumes_per_launch; the reorder pass takes them one by one
  // into the workspace).
  void run_kernel(std::size_t index, const void* in, void* out, const TransformOptions& options, cudaStream_t s,
                  std::int64_t volumes = 1) {
    const VolumeStrides strides = volume_strides(in != out);
    if (specs[index].role == KernelRole::real_pass) {  // in place on `out`, as an R2C run takes it
      launch(index, {.in = out, .out = out}, s);
      return;
    }
    if (index == lowered.kernels.size()) {  // the digit-reversal pass, out of place into the workspace
      for (std::int64_t v = 0; v < volumes; ++v)
        launch(index, {.in = volume_at(out, strides.out, v), .out = volume_workspace()}, s);
      return;
    }
    const auto [scale, flags] = bindings(index, options, in != out);
    KernelArguments args{.in = index == 0 ? in : out, .out = out, .scale = scale, .flags = flags};
    if (real_kernels())
      args.rows = real_rows(index, in, out, in != out,
                            splits_spectrum(in != out) ? workspace_of(nyquist_planes_bytes()) : nullptr);
    args.in_volume_stride = index == 0 ? strides.in : strides.out;
    args.out_volume_stride = strides.out;
    launch(index, args, s, volumes);
  }

  // Every tile kernel over the whole batch: the volumes in launches of volumes_per_launch, each launch group running
  // the plan's kernels in order.
  void run_tile_kernels(const void* in, void* out, const TransformOptions& options, cudaStream_t s) {
    const VolumeStrides strides = volume_strides(in != out);
    const std::int64_t per_launch = volumes_per_launch(in != out);
    for (std::int64_t first = 0; first < plan.batch; first += per_launch) {
      const std::int64_t volumes = std::min(per_launch, plan.batch - first);
      for (std::size_t k = 0; k < lowered.kernels.size(); ++k)
        run_kernel(k, volume_at(in, strides.in, first), volume_at(out, strides.out, first), options, s, volumes);
    }
  }

  // Natural order through the one-volume workspace: each volume of `out` reordered into it and copied back.
  void reorder_volumes(void* out, cudaStream_t s) {
    void* workspace = volume_workspace();
    const long long stride = volume_strides(false).out;
    const auto bytes = static_cast<std::size_t>(lowered.reorder->size.elements() * complex_bytes(plan));
    for (std::int64_t v = 0; v < plan.batch; ++v) {
      void* volume = volume_at(out, stride, v);
      launch(lowered.kernels.size(), {.in = volume, .out = workspace}, s);
      cuda::check(cudaMemcpyAsync(volume, workspace, bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync(workspace)");
    }
  }
};

namespace {

std::string kind_name(TransformKind kind) {
  return kind == TransformKind::r2c ? "R2C" : kind == TransformKind::c2r ? "C2R" : "C2C";
}

}  // namespace

// Refuses a run the plan cannot make, by name: another kind, a contradicting direction, digit-reversed order, a
// placement that would need the digit-reversal pass (which real transforms do not run, except a 1D plan with its
// step apart: run_with_real_pass).
void GpuTransform::Impl::execute_real(const void* in, void* out, const TransformOptions& options, TransformKind kind,
                                      cudaStream_t s) {
  const TransformKind planned = kind_of(plan);
  if (planned != kind)
    throw UsageError("GpuTransform: this plan is a " + kind_name(planned) + " plan (" + plan_source + "); it cannot run as " +
                     kind_name(kind) + (planned == TransformKind::c2c ? "" : " (a real plan runs in one direction)"));
  const Direction direction = kind == TransformKind::r2c ? Direction::forward : Direction::inverse;
  if (options.direction != direction)
    throw UsageError("GpuTransform: " + kind_name(kind) + " runs " + to_string(direction) + ", not " +
                     to_string(options.direction));
  if (options.order != Order::natural)
    throw UsageError("GpuTransform: real transforms run in natural order only");
  if (!in || !out) throw UsageError("GpuTransform::execute: null device pointer (in or out)");
  const bool out_of_place = in != out;
  if (lowered.real_pass) return run_with_real_pass(in, out, options, s);
  if (lowered.reorders(out_of_place))
    throw UsageError("GpuTransform: this real plan (" + plan_source + ") needs the digit-reversal pass " +
                     (out_of_place ? "out of place" : "in place") +
                     ", which real transforms do not run; choose a plan whose Y and Z stages keep natural order");
  run_tile_kernels(in, out, options, s);
}

namespace {

// The registers come from the loaded kernel, not from ptxas's log: a kernel loaded from the cache may have no log
// (another process wrote its cubin first, or the log was removed), and the driver's count is the one launches use.
GpuKernelInfo kernel_info(const KernelSpec& spec, const CompileReport& report, const LoadedKernel& loaded) {
  cudaFuncAttributes attributes{};
  cuda::check(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(loaded.kernel)),
              "cudaFuncGetAttributes(" + spec.entry_name() + ")");
  return {spec.entry_name(), spec.role == KernelRole::digit_reversal, attributes.numRegs, report.from_cache,
          spec.launch_blocks(), spec.threads, spec.shared_bytes};
}

}  // namespace

GpuTransform::GpuTransform(const Plan& plan, std::string plan_name) : impl_(std::make_unique<Impl>()) {
  const auto start = std::chrono::steady_clock::now();
  const auto ms_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  };
  const std::optional<ArchProfile> profile = find_arch_profile(plan.arch);
  if (!profile) throw UsageError("unknown arch profile '" + plan.arch + "' (known: " + arch_profile_names() + ")");
  impl_->plan = plan;
  impl_->plan_source = plan_name;
  impl_->arch = current_arch();  // GpuUnavailable first: nothing below is useful without a device
  require_fits_device(plan, 0);  // before lowering, so an oversized batch is OutOfMemory whatever its plan
  impl_->lowered = lower_plan(plan, *profile, plan_name);
  impl_->setup.lowering_ms = ms_since(start);
  impl_->specs = impl_->lowered.launched_specs();
  // NVRTC runs are independent: compile every kernel at once, then load in order (a cold plan costs its slowest
  // kernel's compile rather than the sum).
  const auto compile_start = std::chrono::steady_clock::now();
  std::vector<std::future<CompiledKernel>> compiling;
  for (const KernelSpec& spec : impl_->specs)
    compiling.push_back(std::async(std::launch::async, [&spec, arch = impl_->arch] { return compile_kernel(spec, arch); }));
  std::vector<CompiledKernel> compiled;
  for (std::future<CompiledKernel>& kernel : compiling) compiled.push_back(kernel.get());
  impl_->setup.kernels_ms = ms_since(compile_start);
  const auto load_start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < impl_->specs.size(); ++k) {
    impl_->loaded.push_back(load(compiled[k], impl_->specs[k]));
    impl_->infos.push_back(kernel_info(impl_->specs[k], compiled[k].report, impl_->loaded.back()));
  }
  impl_->setup.loading_ms = ms_since(load_start);
  for (std::size_t k = 0; k < impl_->lowered.kernels.size(); ++k)
    if (impl_->lowered.sorted_layout_in_place &&
        !holds_a_sorted_store_cluster(impl_->lowered.kernels[k], impl_->loaded[k]))
      impl_->lowered.sorted_layout_in_place = impl_->lowered.sorts_late_in_place = false;
  impl_->setup.total_ms = ms_since(start);
}

std::string current_device_name() {
  static std::mutex guard;
  static std::map<int, std::string> names;  // by device ordinal
  int device = 0;
  cuda::check(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(guard);
  if (const auto known = names.find(device); known != names.end()) return known->second;
  cudaDeviceProp properties{};
  cuda::check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  return names[device] = properties.name;
}

GpuTransform::GpuTransform(const TransformDesc& desc)
    : GpuTransform([&desc] {
        const ArchProfile& profile = arch_profile_for_device(current_arch());
        SizedPlan chosen = plan_for_descriptor(desc, profile.name, true, current_device_name());
        // the batch as the caller's strides spread it
        require_fits_device(chosen.parsed.plan, desc.batch_stride, desc.output_batch_stride);
        return std::pair{std::move(chosen.parsed.plan), std::move(chosen.source)};
      }()) {
  impl_->batch_stride = desc.batch_stride;
  impl_->out_batch_stride = desc.output_batch_stride;
}

void GpuTransform::set_batch_strides(std::int64_t in_stride, std::int64_t out_stride) {
  const Plan& plan = impl_->plan;
  if (kind_of(plan) != TransformKind::c2c)
    throw UsageError("GpuTransform::set_batch_strides: a " + kind_name(kind_of(plan)) +
                     " batch is packed; strides are for C2C batches");
  require_supported({.extents = plan.size, .kind = kind_of(plan), .precision = plan.precision, .batch = plan.batch,
                     .batch_stride = in_stride, .output_batch_stride = out_stride},
                    true);  // the descriptor's rules for strides
  impl_->batch_stride = in_stride;
  impl_->out_batch_stride = out_stride;
}

GpuTransform::GpuTransform(std::pair<Plan, std::string> plan) : GpuTransform(plan.first, std::move(plan.second)) {}

GpuTransform::~GpuTransform() = default;
GpuTransform GpuTransform::from_file(const std::string& path) { return GpuTransform(load_plan_file(path).plan, path); }

GpuTransform::GpuTransform(GpuTransform&&) noexcept = default;
GpuTransform& GpuTransform::operator=(GpuTransform&&) noexcept = default;

void GpuTransform::Impl::execute_complex(const void* in, void* out, const TransformOptions& options,
                                         cudaStream_t s) {
  if (kind_of(plan) != TransformKind::c2c)
    throw UsageError("GpuTransform: this plan is a " + kind_name(kind_of(plan)) + " plan (" + plan_source +
                     "); it runs through the real overloads of execute (real and complex)");
  if (!in || !out) throw UsageError("GpuTransform::execute: null device pointer (in or out)");
  const VolumeStrides strides = volume_strides(in != out);
  if (in == out && plan.batch > 1 && strides.in != strides.out)
    throw UsageError("GpuTransform::execute: in place with different batch strides in and out (" +
                     std::to_string(strides.in) + ", " + std::to_string(strides.out) + ")");
  const auto bytes = static_cast<std::size_t>(plan.size.elements() * complex_bytes(plan));
  if (lowered.kernels.empty()) {  // 1x1x1 volumes: the transform is the identity
    const auto in_pitch = static_cast<std::size_t>(strides.in * complex_bytes(plan));
    const auto out_pitch = static_cast<std::size_t>(strides.out * complex_bytes(plan));
    if (in != out)
      cuda::check(cudaMemcpy2DAsync(out, out_pitch, in, in_pitch, bytes, static_cast<std::size_t>(plan.batch),
                                    cudaMemcpyDeviceToDevice, s),
                  "cudaMemcpy2DAsync");
    return;
  }
  run_complex_stages(in, out, options, s);
}

// The tile kernels and, where natural order takes it, the reorder pass. One volume: the tile kernels run in the
// workspace and the reorder pass writes `out`, in place too (the first kernel reads `in` whole before the reorder
// pass writes `out`), so no pass copies back; a plan whose last kernel stores natural order out of the workspace
// (the transposed store) writes `out` from that kernel.
void GpuTransform::Impl::run_complex_stages(const void* in, void* out, const TransformOptions& options,
                                            cudaStream_t s) {
  const std::size_t reorder = lowered.kernels.size();  // index of the digit-reversal pass
  const bool reordering = runs_reorder_pass(options.order, in != out);
  // The last kernel's transposed store (LoweredPlan::stores_out_of_workspace) writes `out` from the workspace.
  const bool stores_from_workspace = options.order == Order::natural && lowered.stores_out_of_workspace();
  if ((reordering || stores_from_workspace) && plan.batch == 1) {
    void* workspace = volume_workspace();
    for (std::size_t k = 0; k < reorder; ++k) {
      const auto [scale, flags] = bindings(k, options, in != out);
      void* target = stores_from_workspace && k + 1 == reorder ? out : workspace;
      launch(k, {.in = k == 0 ? in : workspace, .out = target, .scale = scale, .flags = flags}, s);
    }
    if (reordering) launch(reorder, {.in = workspace, .out = out}, s);
    return;
  }
  // A batch: the tile kernels run in `out` and the reorder pass, where natural order needs it, goes volume by volume
  // through the one-volume workspace and back.
  run_tile_kernels(in, out, options, s);
  if (reordering) reorder_volumes(out, s);
}

void GpuTransform::execute(const DeviceComplex32* in, DeviceComplex32* out, const TransformOptions& options,
                           Stream stream) {
  impl_->require_precision(Precision::fp32, "std::complex<float>");
  impl_->execute_complex(in, out, options, static_cast<cudaStream_t>(stream));
}

void GpuTransform::execute(const DeviceComplex64* in, DeviceComplex64* out, const TransformOptions& options,
                           Stream stream) {
  impl_->require_precision(Precision::fp64, "std::complex<double>");
  impl_->execute_complex(in, out, options, static_cast<cudaStream_t>(stream));
}

void GpuTransform::execute(const float* in, DeviceComplex32* out, const TransformOptions& options, Stream stream) {
  impl_->require_precision(Precision::fp32, "float");
  impl_->execute_real(in, out, options, TransformKind::r2c, static_cast<cudaStream_t>(stream));
}

void GpuTransform::execute(const DeviceComplex32* in, float* out, const TransformOptions& options, Stream stream) {
  impl_->require_precision(Precision::fp32, "float");
  impl_->execute_real(in, out, options, TransformKind::c2r, static_cast<cudaStream_t>(stream));
}

void GpuTransform::execute(const double* in, DeviceComplex64* out, const TransformOptions& options, Stream stream) {
  impl_->require_precision(Precision::fp64, "double");
  impl_->execute_real(in, out, options, TransformKind::r2c, static_cast<cudaStream_t>(stream));
}

void GpuTransform::execute(const DeviceComplex64* in, double* out, const TransformOptions& options, Stream stream) {
  impl_->require_precision(Precision::fp64, "double");
  impl_->execute_real(in, out, options, TransformKind::c2r, static_cast<cudaStream_t>(stream));
}

void GpuTransform::forward(const DeviceComplex64* in, DeviceComplex64* out, Stream stream) {
  execute(in, out, {}, stream);
}

void GpuTransform::inverse(const DeviceComplex64* in, DeviceComplex64* out, Scaling scaling, Stream stream) {
  execute(in, out, {.direction = Direction::inverse, .scaling = scaling}, stream);
}

void GpuTransform::forward(const DeviceComplex32* in, DeviceComplex32* out, Stream stream) {
  execute(in, out, {}, stream);
}

void GpuTransform::inverse(const DeviceComplex32* in, DeviceComplex32* out, Scaling scaling, Stream stream) {
  execute(in, out, {.direction = Direction::inverse, .scaling = scaling}, stream);
}

std::int64_t GpuTransform::workspace_bytes(Order order, Placement placement) const {
  const bool out_of_place = placement == Placement::out_of_place;
  if (impl_->real_kernels()) return impl_->splits_spectrum(out_of_place) ? impl_->nyquist_planes_bytes() : 0;
  return order == Order::natural ? impl_->lowered.workspace_bytes(out_of_place) : 0;
}

void GpuTransform::set_workspace(void* device_memory, std::int64_t bytes) {
  if (!device_memory || bytes < 0) throw UsageError("GpuTransform::set_workspace: null pointer or negative size");
  impl_->caller_workspace = device_memory;
  impl_->caller_workspace_bytes = bytes;
}

const Plan& GpuTransform::plan() const { return impl_->plan; }
const std::string& GpuTransform::plan_source() const { return impl_->plan_source; }
int GpuTransform::device_arch() const { return impl_->arch; }

GpuProfiler::GpuProfiler(GpuTransform& transform) : transform_(&transform) {}

const std::vector<GpuKernelInfo>& GpuProfiler::kernels() const { return transform_->impl_->infos; }
const GpuSetupTimes& GpuProfiler::setup_times() const { return transform_->impl_->setup; }

bool GpuProfiler::runs_reorder_pass(Order order, Placement placement) const {
  return transform_->impl_->runs_reorder_pass(order, placement == Placement::out_of_place);
}

std::int64_t GpuProfiler::volume_passes(Order order, Placement placement) const {
  const GpuTransform::Impl& impl = *transform_->impl_;
  const bool out_of_place = placement == Placement::out_of_place;
  // A batch reorders in `out` and copies back in both placements (GpuTransform::execute).
  if (impl.plan.batch > 1 && impl.runs_reorder_pass(order, out_of_place))
    return static_cast<std::int64_t>(impl.lowered.kernels.size()) + 2;
  return impl.lowered.volume_passes(order == Order::natural, out_of_place);
}

void GpuProfiler::run_kernel(std::size_t index, const DeviceComplex32* in, DeviceComplex32* out,
                             const TransformOptions& options, Stream stream) {
  GpuTransform::Impl& impl = *transform_->impl_;
  if (!in || !out) throw UsageError("GpuProfiler::run_kernel: null device pointer (in or out)");
  if (index >= impl.specs.size()) throw UsageError("GpuProfiler::run_kernel: no kernel " + std::to_string(index));
  const GpuTransform::Impl::VolumeStrides strides = impl.volume_strides(in != out);
  const std::int64_t per_launch =
      index == impl.lowered.kernels.size() ? impl.plan.batch : impl.volumes_per_launch(in != out);
  for (std::int64_t first = 0; first < impl.plan.batch; first += per_launch)
    impl.run_kernel(index, impl.volume_at(in, strides.in, first),
                    impl.volume_at(out, strides.out, first), options, static_cast<cudaStream_t>(stream),
                    std::min(per_launch, impl.plan.batch - first));
}

void GpuProfiler::run_copy_twin(std::size_t index, const DeviceComplex32* in, DeviceComplex32* out, Stream stream) {
  GpuTransform::Impl& impl = *transform_->impl_;
  if (!in || !out) throw UsageError("GpuProfiler::run_copy_twin: null device pointer (in or out)");
  if (index >= impl.lowered.kernels.size())
    throw UsageError("GpuProfiler::run_copy_twin: no tile kernel " + std::to_string(index));
  if (kind_of(impl.plan) != TransformKind::c2c)
    throw UsageError("GpuProfiler::run_copy_twin: copy twins of a real plan's kernels are not offered yet");
  auto twin = impl.copy_twins.find(index);
  if (twin == impl.copy_twins.end()) {
    KernelSpec spec = impl.lowered.kernels[index];
    spec.stages.clear();  // same tile, layout, loads and stores; no arithmetic
    spec.load_in_first_pass = spec.store_in_last_pass = false;  // without passes, the load and store phases copy
    spec.nominal_flops = 0;
    spec.plan_name += " (copy twin)";
    const CompiledKernel compiled = compile_kernel(spec, impl.arch);
    twin = impl.copy_twins.emplace(index, CopyTwin{spec, load(compiled, spec)}).first;
  }
  const long long stride = impl.volume_strides(in != out).out;  // a C2C plan's: one for in and out
  for (std::int64_t first = 0; first < impl.plan.batch; first += max_volumes_per_launch)
    launch_spec(twin->second.spec, twin->second.loaded,
                {.in = impl.volume_at(in, stride, first),
                 .out = impl.volume_at(out, stride, first), .in_volume_stride = stride,
                 .out_volume_stride = stride},
                static_cast<cudaStream_t>(stream), impl.arch, std::min(max_volumes_per_launch, impl.plan.batch - first));
}

}  // namespace fft3d
