// What a plan costs: passes over memory, bytes moved and flops, per kernel and in total (for explain and reports).
#pragma once

#include <cstdint>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

struct KernelCost {
  std::int64_t bytes_read = 0;     // the whole volume, once
  std::int64_t bytes_written = 0;  // the whole volume, once
  double flops = 0;                // sub_computation_flops of its subs
};

struct PlanCost {
  std::vector<KernelCost> kernels;
  std::int64_t passes = 0;        // one read and one write of the volume per kernel
  std::int64_t bytes_moved = 0;   // all kernels' reads and writes
  double counted_flops = 0;       // the sum over kernels
  double paper_flops = 0;         // 5 N log2 N, the paper's convention for GFlops
  // Seconds at a bandwidth of `gbytes_per_second` (1e9 bytes/s): the floor of the plan.
  double floor_seconds(double gbytes_per_second) const { return bytes_moved / (gbytes_per_second * 1e9); }
};

// element_bytes: 8 for fp32 complex, 16 for fp64 complex.
PlanCost plan_cost(const Plan& plan, int element_bytes);

// The flops of one sub-computation over a volume of `elements` points, as the generated kernels compute it (the one
// formula that explain, plan_cost and the generated kernels' headers share): 5 r log2 r per radix-r butterfly (the
// paper's count), plus, when it is twiddled, one complex multiplication (6 flops) per output but the first of each
// butterfly.
double sub_computation_flops(const SubComputation& sub, std::int64_t elements);

// 5 N log2(N) for N = nx * ny * nz.
double paper_flops(const Extents& size);

}  // namespace fft3d
