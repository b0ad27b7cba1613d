#include "fft3d/cpu_transform.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <thread>

#include "cpu_loops.hpp"
#include "cpu_passes.hpp"
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

void require_elements(std::size_t given, const Plan& plan, const char* what) {
  if (static_cast<std::int64_t>(given) != plan.size.elements())
    throw UsageError(std::string("CpuTransform: the ") + what + " buffer holds " + std::to_string(given) +
                     " values; the plan's size " + to_string(plan.size) + " needs " +
                     std::to_string(plan.size.elements()));
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

}  // namespace

CpuTransform::CpuTransform(Plan plan, int threads) : plan_(std::move(plan)), threads_(resolve_threads(threads)) {
  require_legal(plan_);
  tables_ = std::make_shared<const cpu::PlanTables>(plan_);
}

CpuTransform::CpuTransform(const TransformDesc& desc, int threads, const std::string& arch)
    : CpuTransform(plan_for_descriptor(desc, arch, false).parsed.plan, threads) {}

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
  const auto elements = static_cast<std::size_t>(plan_.size.elements());
  if (in == out) return execute_in_place(std::span<std::complex<Real>>(out, elements), options);
  execute_out_of_place(std::span<const std::complex<Real>>(in, elements), std::span<std::complex<Real>>(out, elements),
                       options);
}

// The inverse runs the forward stages between two conjugations: conj(F(conj(x))) applies, stage by stage, the
// conjugated DFTs and twiddles that define the inverse, with exactly the same rounding.
template <class Real>
void CpuTransform::execute_in_place(std::span<std::complex<Real>> data, const TransformOptions& options) const {
  require_elements(data.size(), plan_, "data");
  const std::int64_t elements = plan_.size.elements();
  const int threads = threads_for_volume(elements, threads_);
  const bool inverse = options.direction == Direction::inverse;
  if (inverse) cpu::conjugate_and_scale<Real>(data.data(), elements, true, Real(1), threads);
  for (const Kernel& kernel : plan_.kernels)
    for (const SubComputation& sub : kernel.subs)
      cpu::run_sub_computation<Real>(sub, plan_.size, *tables_, data.data(), threads);
  if (options.order == Order::natural)
    for (Axis axis : all_axes) cpu::permute_to_natural_order<Real>(axis, plan_.size, *tables_, data.data(), threads);
  const bool scale = options.scaling == Scaling::full;
  if (inverse || scale) {
    // 1/N is a power of two: the scaling is exact in either precision.
    const Real factor = scale ? Real(1) / static_cast<Real>(elements) : Real(1);
    cpu::conjugate_and_scale<Real>(data.data(), elements, inverse, factor, threads);
  }
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
  require_elements(in.size(), plan_, "input");
  require_elements(out.size(), plan_, "output");
  copy_input(in, out, threads_for_volume(plan_.size.elements(), threads_));
  execute_in_place(out, options);
}

void CpuTransform::execute(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                         const TransformOptions& options) const {
  execute_out_of_place(in, out, options);
}

void CpuTransform::execute(std::span<const std::complex<float>> in, std::span<std::complex<float>> out,
                         const TransformOptions& options) const {
  execute_out_of_place(in, out, options);
}

}  // namespace fft3d
