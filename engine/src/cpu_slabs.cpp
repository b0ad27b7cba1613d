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

template <class To, class From>
std::vector<To> cast_all(const std::vector<From>& pointers) {
  std::vector<To> cast;
  for (From pointer : pointers) cast.push_back(reinterpret_cast<To>(pointer));
  return cast;
}

}  // namespace

CpuSlabTransform::CpuSlabTransform(SlabDecomposition decomposition, SlabLayout layout, int threads)
    : d_(std::move(decomposition)), layout_(layout), slab_(d_.slab, threads), column_(d_.column, threads) {
  if (d_.kind != TransformKind::c2c) slab_c2r_.emplace(d_.slab_c2r, threads);
}

void CpuSlabTransform::execute(const std::vector<const std::complex<double>*>& ins,
                               const std::vector<std::complex<double>*>& outs, const TransformOptions& options) const {
  run(ins, outs, options, TransformKind::c2c);
}

void CpuSlabTransform::execute(const std::vector<const std::complex<float>*>& ins,
                               const std::vector<std::complex<float>*>& outs, const TransformOptions& options) const {
  run(ins, outs, options, TransformKind::c2c);
}

void CpuSlabTransform::execute(const std::vector<const double*>& ins, const std::vector<std::complex<double>*>& outs,
                               const TransformOptions& options) const {
  run(cast_all<const std::complex<double>*>(ins), outs, options, TransformKind::r2c);
}

void CpuSlabTransform::execute(const std::vector<const float*>& ins, const std::vector<std::complex<float>*>& outs,
                               const TransformOptions& options) const {
  run(cast_all<const std::complex<float>*>(ins), outs, options, TransformKind::r2c);
}

void CpuSlabTransform::execute(const std::vector<std::complex<double>*>& ins, const std::vector<double*>& outs,
                               const TransformOptions& options) const {
  run(cast_all<const std::complex<double>*>(ins), cast_all<std::complex<double>*>(outs), options, TransformKind::c2r,
      ins);
}

void CpuSlabTransform::execute(const std::vector<std::complex<float>*>& ins, const std::vector<float*>& outs,
                               const TransformOptions& options) const {
  run(cast_all<const std::complex<float>*>(ins), cast_all<std::complex<float>*>(outs), options, TransformKind::c2r,
      ins);
}

template <class Real>
void CpuSlabTransform::run_slab(const std::complex<Real>* from, std::complex<Real>* to,
                                const TransformOptions& options) const {
  if (d_.kind == TransformKind::c2c) return slab_.execute(from, to, options);
  if (options.direction == Direction::forward) return slab_.execute(reinterpret_cast<const Real*>(from), to, options);
  slab_c2r_->execute(from, reinterpret_cast<Real*>(to), options);
}

template <class Real>
void CpuSlabTransform::run(const std::vector<const std::complex<Real>*>& ins,
                           const std::vector<std::complex<Real>*>& outs, const TransformOptions& options,
                           TransformKind kind, const std::vector<std::complex<Real>*>& scratch) const {
  using T = std::complex<Real>;
  const std::string who = "CpuSlabTransform::execute";
  require_slab_kind(d_.kind, kind, options.direction, who);
  const bool in_place = require_slab_pointers(ins, outs, d_.gpus, options, who);
  std::vector<std::vector<T>> buffers(d_.gpus, std::vector<T>(d_.local_elements()));
  SlabBuffers<T> roles{ins, outs, {}, in_place ? std::vector<T*>{} : scratch};
  for (auto& b : buffers) roles.exchange.push_back(b.data());
  const TransformOptions local = local_slab_options(options);
  for (const SlabStep& step : slab_steps(options.direction, layout_, in_place, d_.kind)) {
    const std::vector<const T*> from = roles.readable(step.from);
    const std::vector<T*>& to = roles.writable(step.to);
    if (step.kind == SlabStepKind::slab) {
      for (int g = 0; g < d_.gpus; ++g) run_slab(from[g], to[g], local);
    } else if (step.kind == SlabStepKind::column) {
      for (int g = 0; g < d_.gpus; ++g) column_.execute(from[g], to[g], local);
    } else {
      exchange(d_, step.kind == SlabStepKind::to_y_slabs, from, to);
    }
  }
}

}  // namespace fft3d
