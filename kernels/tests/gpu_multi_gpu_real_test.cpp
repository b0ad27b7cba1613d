// The real multi-GPU transform (MultiGpuDesc::kind r2c) against the fp64 cuFFT D2Z oracle of the whole volume on
// one GPU: G = 1 (the whole path, NCCL included) and G = the visible GPUs; both layouts, every exchange, in place
// (padded rows) and out of place, fp32 and fp64, outputs poisoned with NaN first, R2C's input unchanged out of
// place, C2R returning the input; and the bad input refused. Skipped without a GPU or NCCL; the several-GPU case
// skipped with fewer than 2.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "gpu_multi_gpu_support.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/cuda/gpu_oracle.hpp"

namespace fft3d::testing {
namespace {

using validate::check_cuda;
using validate::DeviceBuffer;
using Reals = std::vector<double>;

// Random reals already rounded to Real, so that the oracle transforms exactly what the GPUs read.
template <class Real>
Reals random_reals(std::int64_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Reals v(count);
  for (double& value : v) value = static_cast<Real>(uniform(random));
  return v;
}

double reals_relative_l2(const Reals& got, const Reals& want) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num += (got[i] - want[i]) * (got[i] - want[i]);
    den += want[i] * want[i];
  }
  return std::sqrt(num / den);
}

// Row pitch of the real side in reals: NX out of place, 2*(NX/2 + 1) in place.
std::int64_t real_pitch(const SlabDecomposition& d, bool in_place) { return in_place ? 2 * d.z_slab().nx : d.size.nx; }

// The real volume's z slabs into the buffers (the padding of in-place rows left as it was), and back.
template <class Real>
void upload_reals(const SlabDecomposition& d, const Reals& x, bool in_place, std::vector<DeviceBuffer>& buffers) {
  const std::int64_t nx = d.size.nx, rows = d.size.ny * d.size.nz / d.gpus, pitch = real_pitch(d, in_place);
  std::vector<Real> local(d.local_reals(in_place), Real(0));
  for (int g = 0; g < d.gpus; ++g) {
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < nx; ++i) local[i + pitch * r] = static_cast<Real>(x[i + nx * (r + rows * g)]);
    check_cuda(cudaSetDevice(g), "cudaSetDevice");
    buffers[g].upload(local.data());
  }
}

template <class Real>
Reals gather_reals(const SlabDecomposition& d, bool in_place, const std::vector<DeviceBuffer>& buffers) {
  const std::int64_t nx = d.size.nx, rows = d.size.ny * d.size.nz / d.gpus, pitch = real_pitch(d, in_place);
  std::vector<Real> local(d.local_reals(in_place));
  Reals x(d.size.elements());
  for (int g = 0; g < d.gpus; ++g) {
    check_cuda(cudaSetDevice(g), "cudaSetDevice");
    buffers[g].download(local.data());
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < nx; ++i) x[i + nx * (r + rows * g)] = local[i + pitch * r];
  }
  return x;
}

template <class T>
std::vector<T*> pointers_of(const std::vector<DeviceBuffer>& buffers) {
  std::vector<T*> pointers;
  for (const DeviceBuffer& b : buffers) pointers.push_back(static_cast<T*>(b.get()));
  return pointers;
}

std::string layout_name(SlabLayout layout) { return layout == SlabLayout::natural ? "natural" : "y slabs"; }

// R2C against the oracle and C2R back to the input, in place and out of place, on `gpus` devices.
template <class Real>
void check_real_in_chunks_of(const Extents& size, SlabLayout layout, SlabExchange exchange, int gpus,
                             std::int64_t min_chunk_bytes) {
  using Complex = std::complex<Real>;
  const std::vector<int> devices = first_devices(gpus);
  MultiGpuTransform fft({.extents = size, .devices = devices, .layout = layout, .exchange = exchange,
                         .precision = precision_of<Real>, .kind = TransformKind::r2c,
                         .min_chunk_bytes = min_chunk_bytes});
  ASSERT_EQ(fft.kind(), TransformKind::r2c);
  const SlabDecomposition& d = fft.decomposition();
  ASSERT_EQ(fft.local_elements(), (size.nx / 2 + 1) * size.elements() / size.nx / gpus);
  const Reals x = random_reals<Real>(size.elements(), 23);
  Volume spectrum(d.spectrum().elements());
  validate::cufft_r2c_reference(size, x, spectrum);

  for (bool in_place : {false, true}) {
    SCOPED_TRACE(to_string(size) + " over " + std::to_string(gpus) + " GPUs, " + layout_name(layout) + ", " +
                 to_string(precision_of<Real>) + ", " + exchange_name(exchange) +
                 (in_place ? ", in place" : ", out of place"));
    std::vector<DeviceBuffer> reals = allocate_bytes(devices, fft.local_reals(in_place) * sizeof(Real));
    poison(devices, reals);
    upload_reals<Real>(d, x, in_place, reals);
    std::vector<DeviceBuffer> outs;
    if (!in_place) {
      outs = allocate<Real>(devices, d.local_elements());
      poison(devices, outs);
    }
    std::vector<DeviceBuffer>& spectra = in_place ? reals : outs;
    fft.execute(pointers_of<const Real>(reals), pointers_of<Complex>(spectra));
    const Volume got = gather<Real>(d, layout, spectra);
    EXPECT_LE(relative_l2(got, spectrum), multi_gpu_tolerance<Real>) << "R2C against cuFFT D2Z fp64";
    if (!in_place) {
      EXPECT_TRUE(gather_reals<Real>(d, false, reals) == x) << "R2C wrote its input";
    }

    std::vector<DeviceBuffer> backs;
    if (!in_place) {
      backs = allocate_bytes(devices, fft.local_reals(false) * sizeof(Real));
      poison(devices, backs);
    }
    std::vector<DeviceBuffer>& back = in_place ? reals : backs;
    fft.execute(pointers_of<Complex>(spectra), pointers_of<Real>(back),
                {.direction = Direction::inverse, .scaling = Scaling::full});
    EXPECT_LE(reals_relative_l2(gather_reals<Real>(d, in_place, back), x), multi_gpu_tolerance<Real>)
        << "C2R(R2C(x)) against x";
  }
}

template <class Real>
void check_real_transform(const Extents& size, SlabLayout layout, SlabExchange exchange, int gpus) {
  check_real_in_chunks_of<Real>(size, layout, exchange, gpus, 0);
}

void check_real_in_small_chunks(const Extents& size, SlabLayout layout, SlabExchange exchange, int gpus) {
  check_real_in_chunks_of<float>(size, layout, exchange, gpus, small_chunk_bytes);
}

using GpuMultiGpuReal = MultiGpuCaseTest<&check_real_transform<float>>;
using GpuMultiGpuRealSmallChunks = MultiGpuCaseTest<&check_real_in_small_chunks>;
using GpuMultiGpuRealFp64 = MultiGpuCaseTest<&check_real_transform<double>>;

TEST_P(GpuMultiGpuReal, OneGpuRunsTheWholePathNcclIncluded) { check_on(1); }
TEST_P(GpuMultiGpuReal, EveryVisibleGpuMatchesTheOneGpuOracle) { check_on_every_visible_gpu(); }
TEST_P(GpuMultiGpuRealSmallChunks, OneGpuRunsTheWholePathNcclIncluded) { check_on(1); }
TEST_P(GpuMultiGpuRealSmallChunks, EveryVisibleGpuMatchesTheOneGpuOracle) { check_on_every_visible_gpu(); }
TEST_P(GpuMultiGpuRealFp64, OneGpuRunsTheWholePathNcclIncluded) { check_on(1); }
TEST_P(GpuMultiGpuRealFp64, EveryVisibleGpuMatchesTheOneGpuOracle) { check_on_every_visible_gpu(); }

// 96x48x40: the half spectrum's rows of 49 and mixed factors; 512x512x256: the slab plan in chunks at the default
// floor (fp32, natural); the small-chunk cases: every chunked path, the row chunks included.
INSTANTIATE_TEST_SUITE_P(Sizes, GpuMultiGpuReal,
                         every_layout_and_exchange({{64, 64, 64}, {96, 48, 40}, {128, 64, 32}}),
                         multi_gpu_case_name);
INSTANTIATE_TEST_SUITE_P(Sizes, GpuMultiGpuRealSmallChunks, every_layout_and_exchange({{64, 64, 64}, {96, 48, 40}}),
                         multi_gpu_case_name);
INSTANTIATE_TEST_SUITE_P(Sizes, GpuMultiGpuRealFp64, every_layout_and_exchange({{64, 64, 64}, {96, 48, 40}}),
                         multi_gpu_case_name);
INSTANTIATE_TEST_SUITE_P(
    Chunks, GpuMultiGpuReal,
    ::testing::Combine(::testing::Values(Extents{512, 512, 256}), ::testing::Values(SlabLayout::natural),
                       ::testing::Values(SlabExchange::copy_engines, SlabExchange::peer_stores)),
    multi_gpu_case_name);

class GpuMultiGpuRealBadInput : public ::testing::Test {
 protected:
  void SetUp() override { skip_without_gpu_or_nccl(); }
};

// The other kind's data, a direction against the overload and the c2r kind are refused before any launch.
TEST_F(GpuMultiGpuRealBadInput, RefusesTheOtherKindsDataAndDirection) {
  MultiGpuTransform real({.extents = {64, 64, 64}, .devices = {0}, .kind = TransformKind::r2c});
  MultiGpuTransform complex({.extents = {64, 64, 64}, .devices = {0}});
  std::vector<DeviceBuffer> a = allocate({0}, complex.local_elements());
  std::vector<DeviceBuffer> b = allocate({0}, complex.local_elements());
  const auto reals = pointers_of<const float>(a);
  const auto spectra = pointers_of<DeviceComplex32>(b);
  EXPECT_THROW(real.forward(pointers_of<const DeviceComplex32>(a), spectra), UsageError);
  EXPECT_THROW(complex.execute(reals, spectra), UsageError);
  EXPECT_THROW(real.execute(reals, spectra, {.direction = Direction::inverse}), UsageError);
  EXPECT_THROW(real.execute(spectra, pointers_of<float>(a), {.direction = Direction::forward}), UsageError);
  EXPECT_THROW(real.execute(pointers_of<const double>(a), pointers_of<DeviceComplex64>(b)), UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 64, 64}, .devices = {0}, .kind = TransformKind::c2r}),
               UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {63, 64, 64}, .devices = {0}, .kind = TransformKind::r2c}),
               UsageError);
  EXPECT_NO_THROW(real.execute(reals, spectra));
}

}  // namespace
}  // namespace fft3d::testing
