// GPU batches against cufftPlanMany (fp64, Z2Z and D2Z, the same batch and distances): every volume of the batch,
// forward and inverse, in place and out of place, outputs poisoned with NaN first; the batch shapes' smallest
// volume (16^3) at a small batch, a mixed-radix size with a batch stride, batches of lines spread over a cluster, a
// plan that takes the reorder pass, and the bad batches refused before any launch. Skipped without a GPU.
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "fft3d/arch_profile.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "lowering/kernel_spec.hpp"
#include "lowering/tile_maps.hpp"
#include "test_plans.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "gpu_test.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "validate/oracle.hpp"

namespace fft3d::testing {
namespace {

using validate::check_cuda;
using validate::check_cufft;
using Values = std::vector<std::complex<double>>;

constexpr std::uint64_t seed = 20261126;

class GpuBatchTest : public GpuTest {};

std::size_t count(std::int64_t n) { return static_cast<std::size_t>(n); }

// cufftPlanMany's batched 3D transform of `in` in fp64: `batch` volumes `distance` values apart in and out
// (idist == odist), Z2Z (`type` CUFFT_Z2Z, in and out complex) or D2Z (in: reals, `distance` of the reals; out:
// half spectra, `out_distance` apart).
void cufft_many(const Extents& size, std::int64_t batch, int type, const void* in, std::size_t in_bytes,
                std::int64_t in_distance, void* out, std::size_t out_bytes, std::int64_t out_distance,
                Direction direction) {
  int n[3] = {static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx)};
  void* d_in = nullptr;
  void* d_out = nullptr;
  check_cuda(cudaMalloc(&d_in, in_bytes), "cudaMalloc");
  check_cuda(cudaMalloc(&d_out, out_bytes), "cudaMalloc");
  check_cuda(cudaMemcpy(d_in, in, in_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cufftHandle plan;
  // cuFFT ignores idist and odist where inembed and onembed are null (packed volumes): the embeddings are the
  // volume's own extents, so the distances hold.
  int in_embed[3] = {n[0], n[1], n[2]};
  int out_embed[3] = {n[0], n[1], type == CUFFT_Z2Z ? n[2] : n[2] / 2 + 1};
  check_cufft(cufftPlanMany(&plan, 3, n, in_embed, 1, static_cast<int>(in_distance), out_embed, 1,
                            static_cast<int>(out_distance), static_cast<cufftType>(type), static_cast<int>(batch)),
              "cufftPlanMany");
  if (type == CUFFT_Z2Z)
    check_cufft(cufftExecZ2Z(plan, static_cast<cufftDoubleComplex*>(d_in), static_cast<cufftDoubleComplex*>(d_out),
                             direction == Direction::forward ? CUFFT_FORWARD : CUFFT_INVERSE),
                "cufftExecZ2Z");
  else
    check_cufft(cufftExecD2Z(plan, static_cast<double*>(d_in), static_cast<cufftDoubleComplex*>(d_out)),
                "cufftExecD2Z");
  check_cuda(cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cufftDestroy(plan);
  cudaFree(d_in);
  cudaFree(d_out);
}

// Every volume of `engine`'s batch (`stride` apart; 0: packed) against cufftPlanMany on the same random input.
void check_c2c_batch(GpuTransform& engine, std::int64_t stride, const std::string& name) {
  const Extents size = engine.plan().size;
  const std::int64_t batch = engine.plan().batch;
  const std::int64_t volume = size.elements();
  const std::int64_t distance = stride > 0 ? stride : volume;
  const std::int64_t total = (batch - 1) * distance + volume;
  Values input(count(total));
  validate::fill_random(input, seed);
  const std::vector<std::complex<float>> in32(input.begin(), input.end());
  validate::DeviceBuffer d_in(count(total) * 8), d_out(count(total) * 8);
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    Values reference(count(total));
    cufft_many(size, batch, CUFFT_Z2Z, input.data(), reference.size() * 16, distance, reference.data(),
               reference.size() * 16, distance, direction);
    for (bool in_place : {false, true}) {
      SCOPED_TRACE(name + (direction == Direction::forward ? " forward" : " inverse") +
                   (in_place ? " in place" : " out of place"));
      d_out.poison_nan();
      DeviceComplex32* out = d_out.complex32();
      if (in_place) {
        d_out.upload(in32.data());
      } else {
        d_in.upload(in32.data());
      }
      engine.execute(in_place ? out : d_in.complex32(), out, {.direction = direction});
      check_cuda(cudaDeviceSynchronize(), "run");
      std::vector<std::complex<float>> got(count(total));
      d_out.download(got.data());
      for (std::int64_t v = 0; v < batch; ++v) {
        const validate::ErrorReport report =
            validate::compare(std::span<const std::complex<float>>(got.data() + v * distance, count(volume)),
                              std::span<const std::complex<double>>(reference.data() + v * distance, count(volume)));
        EXPECT_TRUE(report.passes(validate::fp32_error_bound))
            << "volume " << v << ": relative L2 " << report.relative_l2 << ", " << report.non_finite << " non-finite";
      }
    }
  }
}

struct BatchCase {
  Extents size;
  std::int64_t batch;
  std::int64_t stride;
};

// 16^3 is the batch targets' smallest volume (16^3 x 8192 at a small batch, and over one launch's 65535 volumes
// elsewhere); 12x10x9 a mixed-radix size with a batch stride.
TEST_F(GpuBatchTest, C2CBatchesMatchCufftPlanMany) {
  for (const BatchCase& c : {BatchCase{{16, 16, 16}, 64, 0}, BatchCase{{32, 32, 32}, 8, 0},
                             BatchCase{{64, 64, 64}, 3, 64 * 64 * 64 + 16}, BatchCase{{12, 10, 9}, 5, 1200}}) {
    GpuTransform engine(TransformDesc{.extents = c.size, .batch = c.batch, .batch_stride = c.stride});
    check_c2c_batch(engine, c.stride, to_string(c.size) + " x " + std::to_string(c.batch));
  }
}

// A batch over one launch's grid (65535 volumes in gridDim.y): two launches a kernel.
TEST_F(GpuBatchTest, ABatchOverOneLaunchMatchesCufftPlanMany) {
  GpuTransform engine(TransformDesc{.extents = {16, 16, 16}, .batch = 65536 + 3});
  check_c2c_batch(engine, 0, "16x16x16 x 65539");
}

// Lines that no block holds run spread over a cluster, their last pass exchanging in writer order
// (tile::writer_exchange): along X, along Y with a batch stride, and over 8 blocks.
TEST_F(GpuBatchTest, BatchesOfLinesSpreadOverAClusterMatchCufftPlanMany) {
  for (const BatchCase& c : {BatchCase{{32768, 1, 1}, 16, 0}, BatchCase{{1, 32768, 1}, 16, 32768 + 48},
                             BatchCase{{131072, 1, 1}, 16, 0}}) {
    GpuTransform engine(TransformDesc{.extents = c.size, .batch = c.batch, .batch_stride = c.stride});
    const LoweredPlan lowered = lower_plan(engine.plan(), *find_arch_profile("hopper"));
    EXPECT_TRUE(std::any_of(lowered.kernels.begin(), lowered.kernels.end(),
                            [](const KernelSpec& spec) { return tile::writer_exchange(spec).has_value(); }))
        << to_string(c.size) << ": no kernel exchanges in writer order";
    check_c2c_batch(engine, c.stride, to_string(c.size) + " x " + std::to_string(c.batch));
  }
}

// A plan whose natural order takes the reorder pass, in place and out of place: the four-step plan of a 1D size,
// whose X stages span its two kernels. Each volume goes through the one-volume workspace.
TEST_F(GpuBatchTest, ABatchThatTakesTheReorderPassMatchesCufftPlanMany) {
  Plan plan = parse_plan("size: [4096, 1, 1]\narch: hopper\nkernels:\n"
                         "  - \"X(64, 64, 64, 4096, tw)\"\n  - \"X(64, 64, 1, 64, no-tw)\"\n")
                  .plan;
  plan.batch = 4;  // one volume would store natural order itself (the transposed store)
  const LoweredPlan lowered = lower_plan(plan, *find_arch_profile(plan.arch));
  ASSERT_TRUE(lowered.reorders(true) && lowered.reorders(false)) << "the four-step plan must take the reorder pass";
  GpuTransform engine(plan, "four-step 4096");
  EXPECT_EQ(engine.workspace_bytes(), plan.size.elements() * 8) << "one volume's workspace, whatever the batch";
  check_c2c_batch(engine, 0, "four-step 4096 x 4");
}

// cuFFT's idist != odist: every volume of `engine`'s batch read `in_stride` apart and written `out_stride` apart, out
// of place, both directions, against cufftPlanMany with the same distances; the values between the output's volumes
// stay as they were (NaN). In place with two strides is refused.
void check_own_output_stride(GpuTransform& engine, std::int64_t in_stride, std::int64_t out_stride) {
  const Extents size = engine.plan().size;
  const std::int64_t batch = engine.plan().batch, volume = size.elements();
  const std::int64_t in_total = (batch - 1) * in_stride + volume, out_total = (batch - 1) * out_stride + volume;
  Values input(count(in_total));
  validate::fill_random(input, seed);
  const std::vector<std::complex<float>> in32(input.begin(), input.end());
  validate::DeviceBuffer d_in(count(in_total) * 8), d_out(count(out_total) * 8);
  d_in.upload(in32.data());
  for (Direction direction : {Direction::forward, Direction::inverse}) {
    SCOPED_TRACE(direction == Direction::forward ? "forward" : "inverse");
    Values reference(count(out_total));
    cufft_many(size, batch, CUFFT_Z2Z, input.data(), input.size() * 16, in_stride, reference.data(),
               reference.size() * 16, out_stride, direction);
    d_out.poison_nan();
    engine.execute(d_in.complex32(), d_out.complex32(), {.direction = direction});
    check_cuda(cudaDeviceSynchronize(), "run");
    std::vector<std::complex<float>> got(count(out_total));
    d_out.download(got.data());
    for (std::int64_t v = 0; v < batch; ++v) {
      const validate::ErrorReport report = validate::compare(
          std::span<const std::complex<float>>(got.data() + v * out_stride, count(volume)),
          std::span<const std::complex<double>>(reference.data() + v * out_stride, count(volume)));
      EXPECT_TRUE(report.passes(validate::fp32_error_bound))
          << "volume " << v << ": relative L2 " << report.relative_l2 << ", " << report.non_finite << " non-finite";
    }
    for (std::int64_t v = 0; v + 1 < batch; ++v)
      EXPECT_TRUE(std::isnan(got[count(v * out_stride + volume)].real())) << "a store past volume " << v;
  }
  EXPECT_THROW(engine.execute(d_out.complex32(), d_out.complex32()), UsageError);
}

// Through the descriptor (TransformDesc::output_batch_stride) and through set_batch_strides.
TEST_F(GpuBatchTest, ABatchWithItsOwnStrideInEachBufferMatchesCufftPlanMany) {
  const Extents size{32, 32, 16};
  const std::int64_t batch = 5, volume = size.elements(), in_stride = volume + 96, out_stride = 2 * volume;
  GpuTransform from_desc(TransformDesc{
      .extents = size, .batch = batch, .batch_stride = in_stride, .output_batch_stride = out_stride});
  check_own_output_stride(from_desc, in_stride, out_stride);
  GpuTransform engine(TransformDesc{.extents = size, .batch = batch});
  engine.set_batch_strides(out_stride, in_stride);
  check_own_output_stride(engine, out_stride, in_stride);
  EXPECT_THROW(engine.set_batch_strides(volume - 1, 0), UsageError);
  GpuTransform real(TransformDesc{.extents = size, .kind = TransformKind::r2c, .batch = 2});
  EXPECT_THROW(real.set_batch_strides(volume, volume), UsageError);
}

// `reals` (a packed batch) filled with random values, and their half spectra by cufftPlanMany D2Z in fp64.
Values random_reals_and_spectra(const Extents& size, std::int64_t batch, std::uint64_t random_seed,
                                std::vector<double>& reals) {
  const std::int64_t spectrum = (size.nx / 2 + 1) * size.ny * size.nz;
  validate::fill_random(reals, random_seed);
  Values spectra(count(spectrum * batch));
  cufft_many(size, batch, CUFFT_D2Z, reals.data(), reals.size() * 8, size.elements(), spectra.data(),
             spectra.size() * 16, spectrum, Direction::forward);
  return spectra;
}

// R2C batches (packed) against cufftPlanMany D2Z, out of place.
TEST_F(GpuBatchTest, R2CBatchesMatchCufftPlanMany) {
  for (const Extents& size : {Extents{16, 16, 16}, Extents{32, 32, 32}}) {
    const std::int64_t batch = 5;
    GpuTransform engine(TransformDesc{.extents = size, .kind = TransformKind::r2c, .batch = batch});
    const std::int64_t spectrum = (size.nx / 2 + 1) * size.ny * size.nz;
    std::vector<double> reals(count(size.elements() * batch));
    const Values reference = random_reals_and_spectra(size, batch, seed, reals);
    const std::vector<float> reals32(reals.begin(), reals.end());
    validate::DeviceBuffer d_in(reals32.size() * 4), d_out(reference.size() * 8);
    d_in.upload(reals32.data());
    d_out.poison_nan();
    engine.execute(static_cast<const float*>(d_in.get()), d_out.complex32());
    check_cuda(cudaDeviceSynchronize(), "run");
    std::vector<std::complex<float>> got(reference.size());
    d_out.download(got.data());
    for (std::int64_t v = 0; v < batch; ++v) {
      const validate::ErrorReport report =
          validate::compare(std::span<const std::complex<float>>(got.data() + v * spectrum, count(spectrum)),
                            std::span<const std::complex<double>>(reference.data() + v * spectrum, count(spectrum)));
      EXPECT_TRUE(report.passes(validate::fp32_error_bound)) << to_string(size) << " volume " << v << ": "
                                                             << report.relative_l2;
    }
  }
}

// C2R batches of a plan of several kernels out of place, whose Nyquist column lives between the kernels in the
// workspace, a plane a volume, up to NX/2 + 1 volumes a launch (8x16x8 x 7: two launches): the reals whose D2Z made
// their spectrum come back (times N, unscaled), and the spectrum is left as it was.
void check_c2r_batch_of_several_kernels(const Extents& size, std::int64_t batch, std::uint64_t seed) {
  SCOPED_TRACE(to_string(size) + " x " + std::to_string(batch));
  Plan plan = real_whole_axes_plan(size, "hopper", TransformKind::c2r);
  ASSERT_GT(plan.kernels.size(), 1u);
  plan.batch = batch;
  GpuTransform engine(plan, "whole-axes C2R");
  const std::int64_t planes = std::min(batch, size.nx / 2 + 1);
  EXPECT_EQ(engine.workspace_bytes(), planes * size.ny * size.nz * 8) << "a Nyquist plane a volume of one launch";
  std::vector<double> reals(count(size.elements() * batch));
  const Values reference = random_reals_and_spectra(size, batch, seed, reals);
  const std::vector<std::complex<float>> spectra(reference.begin(), reference.end());
  validate::DeviceBuffer d_in(spectra.size() * 8), d_out(reals.size() * 4);
  d_in.upload(spectra.data());
  d_out.poison_nan();
  engine.execute(d_in.complex32(), static_cast<float*>(d_out.get()), {.direction = Direction::inverse});
  check_cuda(cudaDeviceSynchronize(), "run");
  std::vector<float> got(reals.size());
  d_out.download(got.data());
  for (std::int64_t v = 0; v < batch; ++v) {
    std::vector<double> want(reals.begin() + v * size.elements(), reals.begin() + (v + 1) * size.elements());
    for (double& value : want) value *= static_cast<double>(size.elements());
    const validate::ErrorReport report =
        validate::compare(std::span<const float>(got.data() + v * size.elements(), count(size.elements())), want);
    EXPECT_TRUE(report.passes(validate::fp32_error_bound)) << "volume " << v << ": " << report.relative_l2;
  }
  std::vector<std::complex<float>> after(spectra.size());
  d_in.download(after.data());
  EXPECT_TRUE(after == spectra) << "C2R out of place wrote its input";
}

TEST_F(GpuBatchTest, C2RBatchesOfSeveralKernelsOutOfPlaceReturnTheReals) {
  check_c2r_batch_of_several_kernels({32, 16, 8}, 5, seed);
  check_c2r_batch_of_several_kernels({8, 16, 8}, 7, seed + 1);
}

TEST_F(GpuBatchTest, BadBatchesAreRefusedBeforeAnyLaunch) {
  EXPECT_THROW(GpuTransform(TransformDesc{.extents = {16, 16, 16}, .batch = 0}), UsageError);
  EXPECT_THROW(GpuTransform(TransformDesc{.extents = {16, 16, 16}, .batch = 2, .batch_stride = 100}), UsageError);
  EXPECT_THROW(GpuTransform(TransformDesc{.extents = {512, 512, 512}, .batch = 100000}), OutOfMemory);
  EXPECT_THROW(GpuTransform(TransformDesc{.extents = {16, 16, 16}, .batch = std::int64_t{1} << 60}), UsageError);
}

}  // namespace
}  // namespace fft3d::testing
