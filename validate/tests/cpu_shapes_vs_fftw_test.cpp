// 1D and 2D shapes through the 3D engine: the default hopper plan of each small member of every axis placement
// (2^12 ... 2^16 points in 1D: Nx1x1, 1xNx1, 1x1xN; 64^2 ... 256^2 in 2D: NxNx1, 1xNxN, Nx1xN) takes the kernels
// recorded here, and the CPU backend running that plan matches FFTW in fp64, forward and inverse, natural order, in
// place and out of place.
#include <gtest/gtest.h>

#include "fft3d/cpu_transform.hpp"
#include "fft3d/planner.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {
namespace {

using Values = std::vector<std::complex<double>>;

constexpr double bound = 1e-12;
constexpr std::uint64_t seed = 20261126;

// A shape and the kernels of its default hopper plan.
struct ShapeKernels {
  Extents size;
  std::size_t kernels = 0;
};

// Small sizes keep half the GPU busy with more, smaller kernels where one would leave it idle (the cost model's
// idle-multiprocessor charge): a 4096-point X line and 64^2 with X take three.
const std::vector<ShapeKernels> small_shapes = {
    {{4096, 1, 1}, 3},   {{1, 4096, 1}, 2},   {{1, 1, 4096}, 2},     {{16384, 1, 1}, 3},  {{1, 16384, 1}, 2},
    {{1, 1, 16384}, 2},  {{65536, 1, 1}, 2},  {{1, 65536, 1}, 2},    {{1, 1, 65536}, 2},  {{64, 64, 1}, 3},
    {{1, 64, 64}, 2},    {{64, 1, 64}, 3},    {{128, 128, 1}, 2},    {{1, 128, 128}, 2},  {{128, 1, 128}, 2},
    {{256, 256, 1}, 2},  {{1, 256, 256}, 2},  {{256, 1, 256}, 2},
};

void expect_matches_fftw(const Plan& plan) {
  const CpuTransform backend(plan);
  Values in(static_cast<std::size_t>(plan.size.elements()));
  fill_random(in, seed);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    Values reference(in.size());
    fftw_reference(plan.size, in, reference, direction);
    const TransformOptions options{.direction = direction};
    Values out(in.size());
    poison(out);
    backend.execute(std::span<const std::complex<double>>(in), std::span(out), options);
    EXPECT_TRUE(compare(out, reference).passes(bound)) << to_string(plan.size) << " " << to_string(direction);
    Values data = in;
    backend.execute(std::span(data), options);
    EXPECT_TRUE(compare(data, reference).passes(bound))
        << to_string(plan.size) << " " << to_string(direction) << ", in place";
  }
}

TEST(CpuShapesAgainstFftw, SmallMembersOfEveryPlacementTakeTheirKernelsAndMatchFftw) {
  for (const ShapeKernels& shape : small_shapes) {
    const Plan plan = default_plan(shape.size, "hopper");
    EXPECT_EQ(plan.kernels.size(), shape.kernels) << to_string(shape.size) << "\n" << to_yaml(plan);
    expect_matches_fftw(plan);
  }
}

}  // namespace
}  // namespace fft3d::validate
