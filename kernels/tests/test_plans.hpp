// Plans the kernel tests run: every shipped tesla/fermi plan, and small random legal plans.
#pragma once

#include <cstdint>
#include <optional>
#include <iosfwd>
#include <string>
#include <vector>

#include "lowering/kernel_spec.hpp"
#include "fft3d/plan_ir.hpp"

namespace fft3d::testing {

struct NamedPlan {
  std::string name;  // "tesla/256x256x256.yaml" or "random 7 ..."
  Plan plan;
};

// GoogleTest prints a NamedPlan parameter by its name.
void PrintTo(const NamedPlan& named, std::ostream* out);

// Every table plan (tesla, fermi, hopper) (fft3d::table_entries: $FFT3D_PLANS_DIR when set, for a GPU machine that
// carries its own copy, else the source tree's plans/), parsed with load_plan_file.
std::vector<NamedPlan> shipped_plans();
// Every real (R2C and C2R) plan of the tables, named the same way.
std::vector<NamedPlan> shipped_real_plans();

// `count` legal plans for `arch` (validate::random_legal_plan): axis lengths 1..max_length (powers of two, the
// volume over one element), radices 2..64, stages of the axes interleaved and cut into kernels at random.
// Deterministic in `seed` (with one standard library).
std::vector<NamedPlan> random_plans(int count, std::uint64_t seed, std::int64_t max_length, const std::string& arch);

// The random plans the GPU tests run: `count` per profile (tesla, fermi, hopper; seeds 23, 24, 25), keeping those
// that lower on their profile (the NVRTC test compiles the same set, which also warms the kernel cache).
std::vector<NamedPlan> gpu_random_plans(int count = 16, std::int64_t max_length = 64);

// Small hopper plans with a kernel whose tile is over one block's shared memory, so lowering spreads it over a
// cluster (distribute_tile.cpp): 2 and 8 blocks, a 2048-point line, and one whose last kernel also stores natural
// order across the cluster.
std::vector<NamedPlan> distributed_tile_plans();

// The DIF stages of an n-point axis with `radices` (execution order) as plan text, e.g. "X(4, 3, 4, 12, tw)":
// span_1 = n, stride = span / radix, count = n / radix.
std::vector<std::string> axis_stages(char axis, std::int64_t n, const std::vector<std::int64_t>& radices);

// Small plans with radices 3, 5, 7 and their products (12x10x9, 24x18x15, 48x36x20, 100x6x7, 96x7x5) in every
// kernel structure the power-of-two plans use, each for hopper and for fermi.
std::vector<NamedPlan> mixed_radix_plans();
// The benchmark sizes 96^3 ... 768^3 written by hand for hopper in the power-of-two tables' structure ({X, Y part}
// {Y rest, Z}, or a third kernel where one block cannot hold the second's tile).
std::vector<NamedPlan> mixed_bench_plans();

// The plan lowered on its own profile, or nothing where a kernel's tile is over the profile's shared memory (a
// legal plan may hold more than a block can; lowering_test checks that error by itself).
std::optional<LoweredPlan> lower_if_it_fits(const NamedPlan& named);

}  // namespace fft3d::testing
