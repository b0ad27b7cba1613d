#include "fft3d/cpu_slabs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "fft3d/errors.hpp"
#include "slab_steps.hpp"

namespace fft3d {
namespace {

// One exchange as host copies: the i-th send of g to h lands at the i-th receive of h from g.
template <class T>
void exchange(const SlabDecomposition& d, bool to_y_slabs, const std::vector<const T*>& from,
              const std::vector<T*>& to) {
  for (int h = 0; h < d.gpus; ++h) {
    const std::vector<ExchangeBlock> receives = exchange_receives(d, h, to_y_slabs);
    for (int g = 0; g < d.gpus; ++g) {
      std::size_t next = 0;  // the next receive of h from g
      for (const ExchangeBlock& send : exchange_sends(d, g, to_y_slabs)) {
        if (send.peer != h) continue;
        while (next < receives.size() && receives[next].peer != g) ++next;
        if (next == receives.size() || receives[next].count != send.count)
          throw std::logic_error("slab exchange: a send of GPU " + std::to_string(g) + " to GPU " +
                                 std::to_string(h) + " has no matching receive");
        std::copy(from[g] + send.offset, from[g] + send.offset + send.count, to[h] + receives[next].offset);
        ++next;
      }
    }
  }
}

}  // namespace

CpuSlabTransform::CpuSlabTransform(SlabDecomposition decomposition, SlabLayout layout, int threads)
    : d_(std::move(decomposition)), layout_(layout), slab_(d_.slab, threads), column_(d_.column, threads) {}

void CpuSlabTransform::execute(const std::vector<const std::complex<double>*>& ins,
                               const std::vector<std::complex<double>*>& outs, const TransformOptions& options) const {
  run(ins, outs, options);
}

void CpuSlabTransform::execute(const std::vector<const std::complex<float>*>& ins,
                               const std::vector<std::complex<float>*>& outs, const TransformOptions& options) const {
  run(ins, outs, options);
}

template <class Real>
void CpuSlabTransform::run(const std::vector<const std::complex<Real>*>& ins,
                           const std::vector<std::complex<Real>*>& outs, const TransformOptions& options) const {
  using T = std::complex<Real>;
  const bool in_place = require_slab_pointers(ins, outs, d_.gpus, options, "CpuSlabTransform::execute");
  std::vector<std::vector<T>> buffers(d_.gpus, std::vector<T>(d_.local_elements()));
  SlabBuffers<T> roles{ins, outs, {}};
  for (auto& b : buffers) roles.exchange.push_back(b.data());
  const TransformOptions local = local_slab_options(options);
  for (const SlabStep& step : slab_steps(options.direction, layout_, in_place)) {
    const std::vector<const T*> from = roles.readable(step.from);
    const std::vector<T*>& to = roles.writable(step.to);
    if (step.kind == SlabStepKind::slab || step.kind == SlabStepKind::column) {
      const CpuTransform& plan = step.kind == SlabStepKind::slab ? slab_ : column_;
      for (int g = 0; g < d_.gpus; ++g) plan.execute(from[g], to[g], local);
    } else {
      exchange(d_, step.kind == SlabStepKind::to_y_slabs, from, to);
    }
  }
}

}  // namespace fft3d
