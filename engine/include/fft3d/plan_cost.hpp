// What a plan costs: passes over memory, bytes moved and flops, per kernel and in total (for explain and reports).
#pragma once

#include <cstdint>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// A real plan's kernels move the data in the size it has where they run: before an R2C step (after a C2R step) the
// real volume (NX/2 complex values per row: NX reals), after an R2C step (before a C2R step) the half spectrum.
struct KernelCost {
  std::int64_t bytes_read = 0;     // the whole volume (or the real volume or half spectrum), once
  std::int64_t bytes_written = 0;  // the same
  double flops = 0;                // sub_computation_flops of its subs, and the real step's real_step_flops
};

struct PlanCost {
  std::vector<KernelCost> kernels;
  std::int64_t passes = 0;        // one read and one write of the volume per kernel
  std::int64_t bytes_moved = 0;   // all kernels' reads and writes
  double counted_flops = 0;       // the sum over kernels
  double paper_flops = 0;         // 5 N log2 N, the paper's convention for GFlops (2.5 N log2 N for a real plan,
                                  // FFTW's and cuFFT's count of real transforms)
  std::int64_t real_bytes = 0;     // a real plan's real volume, NX*NY*NZ reals (0 for c2c)
  std::int64_t spectrum_bytes = 0; // a real plan's half spectrum, (NX/2+1)*NY*NZ complex values (0 for c2c)
  // Seconds at a bandwidth of `gbytes_per_second` (1e9 bytes/s): the floor of the plan.
  double floor_seconds(double gbytes_per_second) const { return bytes_moved / (gbytes_per_second * 1e9); }
};

// element_bytes: 8 for fp32 complex, 16 for fp64 complex (a real value is half of it). X stages of a real plan run
// over its stage extents (NX/2, NY, NZ), its Y and Z stages over the half spectrum's (NX/2+1, NY, NZ).
PlanCost plan_cost(const Plan& plan, int element_bytes);

// The real step's flops per value of the half spectrum: Z[k] +- conj Z[NX/2-k] (4), the difference times
// -(i/2) w^k (one complex multiplication, 6), the halving of the sum (2) and the last sum (2).
inline constexpr double real_step_flops_per_value = 14.0;

// The flops of one sub-computation over a volume of `elements` points, as the generated kernels compute it (the one
// formula that explain, plan_cost and the generated kernels' headers share): 5 r log2 r per radix-r butterfly (the
// paper's count), plus, when it is twiddled, one complex multiplication (6 flops) per output but the first of each
// butterfly.
double sub_computation_flops(const SubComputation& sub, std::int64_t elements);

// 5 N log2(N) for N = nx * ny * nz.
double paper_flops(const Extents& size);

}  // namespace fft3d
