// The passes of the CPU backend over a whole volume: one sub-computation, the permutation of one axis to natural
// order, and the elementwise conjugation and scaling. Private to the CPU backend; Real is double or float.
#pragma once

#include <complex>
#include <cstdint>

#include "cpu_loops.hpp"
#include "cpu_tables.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::cpu {

// Every butterfly of `sub` (forward sign) on the volume `layout` describes, exactly as the plan language defines
// it: a radix-point DFT over the positions g*span + j + k*stride of each line, output m stored at point m, then
// times w_span^(j*m) with `tw`.
template <class Real>
void run_sub_computation(const SubComputation& sub, const VolumeLayout& layout, const PlanTables& tables,
                         std::complex<Real>* data, int threads);

// Moves frequency f of every line along `axis` from its digit-reversed position to position f.
template <class Real>
void permute_to_natural_order(Axis axis, const VolumeLayout& layout, const PlanTables& tables,
                              std::complex<Real>* data, int threads);

// data[i] = factor * (conjugate ? conj(data[i]) : data[i]) for i < count.
template <class Real>
void conjugate_and_scale(std::complex<Real>* data, std::int64_t count, bool conjugate, Real factor, int threads);

}  // namespace fft3d::cpu
