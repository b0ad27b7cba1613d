#include "fft3d/cpu_transform.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <thread>

#include "cpu_loops.hpp"
#include "cpu_passes.hpp"
#include "cpu_real.hpp"
#include "cpu_tables.hpp"
#include "fft3d/checks.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/wisdom.hpp"

namespace fft3d {
namespace {

int resolve_threads(int threads) {
  check_thread_count(threads);
  if (threads > 0) return threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Volumes this small finish faster than a thread starts.
int threads_for_volume(std::int64_t elements, int threads) { return elements < (std::int64_t{1} << 15) ? 1 : threads; }

// " (a batch of 4 volumes)", or nothing for one volume.
std::string batch_text(const Plan& plan) {
  return plan.batch > 1 ? " (a batch of " + std::to_string(plan.batch) + " volumes)" : "";
}

void require_elements(std::size_t given, std::int64_t needed, const Plan& plan, const char* what) {
  if (static_cast<std::int64_t>(given) != needed)
    throw UsageError(std::string("CpuTransform: the ") + what + " buffer holds " + std::to_string(given) +
                     " values; the plan's size " + to_string(plan.size) + batch_text(plan) + " needs " +
                     std::to_string(needed));
}

template <class Real>
void copy_input(std::span<const std::complex<Real>> in, std::span<std::complex<Real>> out, int threads) {
  if (in.data() == out.data()) return;
  const bool overlap = in.data() < out.data() + out.size() && out.data() < in.data() + in.size();
  if (overlap) throw UsageError("CpuTransform: the input and output buffers overlap without being the same buffer");
  parallel_for(static_cast<std::int64_t>(in.size()), threads, [&](std::int64_t begin, std::int64_t end) {
    std::copy(in.begin() + begin, in.begin() + end, out.begin() + begin);
  });
}

// "an r2c", "a c2r", "a c2c".
std::string with_article(TransformKind kind) {
  return (kind == TransformKind::r2c ? "an " : "a ") + to_string(kind);
}

// The complex overloads run c2c plans only: a real plan's buffers have other sizes.
void require_c2c(const Plan& plan) {
  if (kind_of(plan) != TransformKind::c2c)
    throw UsageError("CpuTransform: this is " + with_article(kind_of(plan)) + " plan: run it through the " +
                     (kind_of(plan) == TransformKind::r2c ? "real-to-complex execute (real in, complex out)"
                                                          : "complex-to-real execute (complex in, real out)") +
                     ", not the complex-to-complex one");
}

// A real overload runs only a plan of its kind, in that kind's direction and in natural order.
void require_real_run(const Plan& plan, TransformKind kind, const TransformOptions& options) {
  const TransformKind plan_kind = kind_of(plan);
  const bool r2c = kind == TransformKind::r2c;
  if (plan_kind != kind)
    throw UsageError("CpuTransform: the " + std::string(r2c ? "real-to-complex" : "complex-to-real") +
                     " execute runs " + to_string(kind) + " plans; this plan is " + to_string(plan_kind));
  const Direction direction = r2c ? Direction::forward : Direction::inverse;
  if (options.direction != direction)
    throw UsageError("CpuTransform: " + with_article(kind) + " plan runs " + to_string(direction) +
                     " only; options.direction is " + to_string(options.direction));
  if (options.order != Order::natural)
    throw UsageError("CpuTransform: real transforms run in natural order only; options.order is " +
                     to_string(options.order));
}

// The sizes of a real transform's buffers: the real array (out of place: NX*NY*NZ reals; in place: the rows padded
// to 2*(NX/2 + 1) reals) and the half spectrum ((NX/2 + 1)*NY*NZ complex values).
struct RealBuffers {
  std::int64_t real_pitch = 0;  // reals from one row's start to the next
  std::int64_t reals = 0;
  std::int64_t complexes = 0;
  bool in_place = false;
};

RealBuffers real_buffers(const Plan& plan, bool in_place) {
  const Extents spectrum = spectrum_extents(plan);
  const std::int64_t pitch = in_place ? 2 * spectrum.nx : plan.size.nx;
  return {pitch, pitch * plan.size.ny * plan.size.nz, spectrum.elements(), in_place};
}

void require_count(std::size_t given, std::int64_t needed, const Plan& plan, const std::string& what) {
  if (static_cast<std::int64_t>(given) != needed)
    throw UsageError("CpuTransform: the " + what + " span holds " + std::to_string(given) + " values; the " +
                     to_string(kind_of(plan)) + " plan of size " + to_string(plan.size) + batch_text(plan) +
                     " needs " + std::to_string(needed));
}

void require_pointers(const void* in, const void* out) {
  if (!in || !out) throw UsageError("CpuTransform::execute: null pointer (in or out)");
}

// Throws unless the two buffers are one buffer (in place) or do not overlap at all.
void require_apart(const void* in, std::size_t in_bytes, const void* out, std::size_t out_bytes) {
  const auto* a = static_cast<const char*>(in);
  const auto* b = static_cast<const char*>(out);
  if (a != b && a < b + out_bytes && b < a + in_bytes)
    throw UsageError("CpuTransform: the input and output buffers overlap without being the same buffer");
}

// The scaling's factor (fft3d::scale_factor) for the product of the transformed lengths (an untransformed axis is a
// batch index). The factor is computed in double and rounded once to Real: exact for full scaling of power-of-two
// lengths, within half an ulp otherwise.
template <class Real>
Real scale_factor(const Plan& plan, Scaling scaling) {
  return static_cast<Real>(fft3d::scale_factor(scaling, transformed_elements(plan)));
}

Plan plan_of_kind(const TransformDesc& desc, const std::string& arch) {
  Plan plan = plan_for_descriptor(desc, arch, false).parsed.plan;
  if (kind_of(plan) != desc.kind)
    throw UsageError("CpuTransform: no " + to_string(desc.kind) + " plan for size " + to_string(desc.extents) +
                     " (the plan found is " + to_string(kind_of(plan)) + ")");
  return plan;
}

}  // namespace

CpuTransform::CpuTransform(Plan plan, int threads) : plan_(std::move(plan)), threads_(resolve_threads(threads)) {
  require_legal(plan_);
  if (plan_.batch < 1)
    throw UsageError("batch " + std::to_string(plan_.batch) + ": a transform takes 1 or more volumes");
  tables_ = std::make_shared<const cpu::PlanTables>(plan_);
}

CpuTransform::CpuTransform(const TransformDesc& desc, int threads, const std::string& arch)
    : CpuTransform(plan_of_kind(desc, arch), threads) {
  batch_stride_ = desc.batch_stride;
  output_batch_stride_ = desc.output_batch_stride;
}

std::int64_t CpuTransform::volume_stride(bool output) const {
  if (output && output_batch_stride_ > 0) return output_batch_stride_;
  return batch_stride_ > 0 ? batch_stride_ : plan_.size.elements();
}

std::int64_t CpuTransform::batch_values(bool output) const {
  return batch_bytes({.extents = plan_.size, .batch = plan_.batch, .batch_stride = volume_stride(output)}) /
         static_cast<std::int64_t>(sizeof(std::complex<float>));
}

void CpuTransform::for_each_volume(std::int64_t volume_values,
                                   const std::function<void(std::int64_t, int)>& body) const {
  const int threads = threads_for_volume(volume_values, threads_);
  if (plan_.batch > 1 && threads == 1) {
    parallel_for(plan_.batch, threads_, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t v = begin; v < end; ++v) body(v, 1);
    });
    return;
  }
  for (std::int64_t v = 0; v < plan_.batch; ++v) body(v, threads);
}

CpuTransform CpuTransform::from_file(const std::string& path, int threads) {
  return CpuTransform(load_plan_file(path).plan, threads);
}

void CpuTransform::execute(const std::complex<double>* in, std::complex<double>* out,
                           const TransformOptions& options) const {
  execute_pointers(in, out, options);
}

void CpuTransform::execute(const std::complex<float>* in, std::complex<float>* out,
                           const TransformOptions& options) const {
  execute_pointers(in, out, options);
}

template <class Real>
void CpuTransform::execute_pointers(const std::complex<Real>* in, std::complex<Real>* out,
                                    const TransformOptions& options) const {
  if (!in || !out) throw UsageError("CpuTransform::execute: null pointer (in or out)");
  require_c2c(plan_);
  const auto in_elements = static_cast<std::size_t>(batch_values(false));
  const auto out_elements = static_cast<std::size_t>(batch_values(true));
  if (in == out) return execute_in_place(std::span<std::complex<Real>>(out, out_elements), options);
  execute_out_of_place(std::span<const std::complex<Real>>(in, in_elements),
                       std::span<std::complex<Real>>(out, out_elements), options);
}

// The inverse runs the forward stages between two conjugations: conj(F(conj(x))) applies, stage by stage, the
// conjugated DFTs and twiddles that define the inverse, with exactly the same rounding.
template <class Real>
void CpuTransform::transform_volume(std::complex<Real>* data, const TransformOptions& options, int threads) const {
  const std::int64_t elements = plan_.size.elements();
  const bool inverse = options.direction == Direction::inverse;
  if (inverse) cpu::conjugate_and_scale<Real>(data, elements, true, Real(1), threads);
  for (const Kernel& kernel : plan_.kernels)
    for (const SubComputation& sub : kernel.subs) cpu::run_sub_computation<Real>(sub, plan_.size, *tables_, data, threads);
  if (options.order == Order::natural)
    for (Axis axis : plan_.axes) cpu::permute_to_natural_order<Real>(axis, plan_.size, *tables_, data, threads);
  const Real factor = scale_factor<Real>(plan_, options.scaling);
  if (inverse || factor != Real(1)) cpu::conjugate_and_scale<Real>(data, elements, inverse, factor, threads);
}

template <class Real>
void CpuTransform::execute_in_place(std::span<std::complex<Real>> data, const TransformOptions& options) const {
  require_c2c(plan_);
  const std::int64_t stride = volume_stride(false);
  if (plan_.batch > 1 && volume_stride(true) != stride)
    throw UsageError("CpuTransform::execute: in place with different batch strides in and out (" +
                     std::to_string(stride) + ", " + std::to_string(volume_stride(true)) + ")");
  require_elements(data.size(), batch_values(false), plan_, "data");
  for_each_volume(plan_.size.elements(), [&](std::int64_t v, int threads) {
    transform_volume(data.data() + v * stride, options, threads);
  });
}

void CpuTransform::execute(std::span<std::complex<double>> data, const TransformOptions& options) const {
  execute_in_place(data, options);
}

void CpuTransform::execute(std::span<std::complex<float>> data, const TransformOptions& options) const {
  execute_in_place(data, options);
}

template <class Real>
void CpuTransform::execute_out_of_place(std::span<const std::complex<Real>> in, std::span<std::complex<Real>> out,
                                      const TransformOptions& options) const {
  require_c2c(plan_);
  require_elements(in.size(), batch_values(false), plan_, "input");
  require_elements(out.size(), batch_values(true), plan_, "output");
  if (plan_.batch == 1) {
    const int threads = threads_for_volume(plan_.size.elements(), threads_);
    copy_input(in, out, threads);
    return transform_volume(out.data(), options, threads);
  }
  require_apart(in.data(), in.size_bytes(), out.data(), out.size_bytes());
  const std::int64_t in_stride = volume_stride(false), out_stride = volume_stride(true);
  const auto elements = static_cast<std::size_t>(plan_.size.elements());
  for_each_volume(plan_.size.elements(), [&](std::int64_t v, int threads) {
    copy_input(in.subspan(static_cast<std::size_t>(v * in_stride), elements),
               out.subspan(static_cast<std::size_t>(v * out_stride), elements), threads);
    transform_volume(out.data() + v * out_stride, options, threads);
  });
}

void CpuTransform::execute(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                         const TransformOptions& options) const {
  execute_out_of_place(in, out, options);
}

void CpuTransform::execute(std::span<const std::complex<float>> in, std::span<std::complex<float>> out,
                         const TransformOptions& options) const {
  execute_out_of_place(in, out, options);
}

template <class Real>
void CpuTransform::execute_r2c(std::span<const Real> in, std::span<std::complex<Real>> out,
                               const TransformOptions& options) const {
  require_real_run(plan_, TransformKind::r2c, options);
  require_pointers(in.data(), out.data());
  const RealBuffers sizes = real_buffers(plan_, static_cast<const void*>(in.data()) == out.data());
  require_count(in.size(), sizes.reals * plan_.batch,
                plan_, sizes.in_place ? "real (in place, rows padded to 2*(NX/2+1) reals)" : "real input");
  require_count(out.size(), sizes.complexes * plan_.batch, plan_, "complex output");
  require_apart(in.data(), in.size_bytes(), out.data(), out.size_bytes());
  for_each_volume(sizes.complexes, [&](std::int64_t v, int threads) {
    cpu::run_r2c<Real>(plan_, *tables_, in.data() + v * sizes.reals, sizes.real_pitch,
                       out.data() + v * sizes.complexes, scale_factor<Real>(plan_, options.scaling), threads);
  });
}

template <class Real>
void CpuTransform::execute_c2r(std::span<const std::complex<Real>> in, std::span<Real> out,
                               const TransformOptions& options) const {
  require_real_run(plan_, TransformKind::c2r, options);
  require_pointers(in.data(), out.data());
  const RealBuffers sizes = real_buffers(plan_, static_cast<const void*>(in.data()) == out.data());
  require_count(in.size(), sizes.complexes * plan_.batch, plan_, "complex input");
  require_count(out.size(), sizes.reals * plan_.batch,
                plan_, sizes.in_place ? "real (in place, rows padded to 2*(NX/2+1) reals)" : "real output");
  require_apart(in.data(), in.size_bytes(), out.data(), out.size_bytes());
  for_each_volume(sizes.complexes, [&](std::int64_t v, int threads) {
    cpu::run_c2r<Real>(plan_, *tables_, in.data() + v * sizes.complexes, out.data() + v * sizes.reals,
                       sizes.real_pitch, scale_factor<Real>(plan_, options.scaling), threads);
  });
}

// The pointer overloads take the buffers the plan needs: in place when both name one address.
void CpuTransform::execute(const double* in, std::complex<double>* out, const TransformOptions& options) const {
  require_pointers(in, out);
  const RealBuffers sizes = real_buffers(plan_, static_cast<const void*>(in) == out);
  execute_r2c<double>({in, static_cast<std::size_t>(sizes.reals * plan_.batch)},
                      {out, static_cast<std::size_t>(sizes.complexes * plan_.batch)},
                      options);
}

void CpuTransform::execute(const float* in, std::complex<float>* out, const TransformOptions& options) const {
  require_pointers(in, out);
  const RealBuffers sizes = real_buffers(plan_, static_cast<const void*>(in) == out);
  execute_r2c<float>({in, static_cast<std::size_t>(sizes.reals * plan_.batch)},
                     {out, static_cast<std::size_t>(sizes.complexes * plan_.batch)},
                     options);
}

void CpuTransform::execute(const std::complex<double>* in, double* out, const TransformOptions& options) const {
  require_pointers(in, out);
  const RealBuffers sizes = real_buffers(plan_, static_cast<const void*>(in) == out);
  execute_c2r<double>({in, static_cast<std::size_t>(sizes.complexes * plan_.batch)},
                      {out, static_cast<std::size_t>(sizes.reals * plan_.batch)},
                      options);
}

void CpuTransform::execute(const std::complex<float>* in, float* out, const TransformOptions& options) const {
  require_pointers(in, out);
  const RealBuffers sizes = real_buffers(plan_, static_cast<const void*>(in) == out);
  execute_c2r<float>({in, static_cast<std::size_t>(sizes.complexes * plan_.batch)},
                     {out, static_cast<std::size_t>(sizes.reals * plan_.batch)},
                     options);
}

void CpuTransform::execute(std::span<const double> in, std::span<std::complex<double>> out,
                           const TransformOptions& options) const {
  execute_r2c(in, out, options);
}

void CpuTransform::execute(std::span<const float> in, std::span<std::complex<float>> out,
                           const TransformOptions& options) const {
  execute_r2c(in, out, options);
}

void CpuTransform::execute(std::span<const std::complex<double>> in, std::span<double> out,
                           const TransformOptions& options) const {
  execute_c2r(in, out, options);
}

void CpuTransform::execute(std::span<const std::complex<float>> in, std::span<float> out,
                           const TransformOptions& options) const {
  execute_c2r(in, out, options);
}

}  // namespace fft3d
