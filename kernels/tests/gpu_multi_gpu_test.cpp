// The multi-GPU transform (NCCL slab decomposition) against the fp64 cuFFT Z2Z oracle of the whole volume on one
// GPU: G = 1 (the whole path, NCCL included, on one GPU) and G = the visible GPUs (the largest power of two up to
// max_slab_gpus, so that it divides the sizes); both layouts, in place and out of place, outputs poisoned with NaN
// first, out-of-place inputs unchanged, the inverse returning the input, in fp32 and fp64; and the bad input refused.
// Skipped without a GPU or without NCCL in the build; the several-GPU case skipped with fewer than 2.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "fft3d/errors.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/cuda/gpu_oracle.hpp"
#include "gpu_multi_gpu_support.hpp"

namespace fft3d::testing {
namespace {

using validate::check_cuda;
using validate::DeviceBuffer;

std::string layout_name(SlabLayout layout) { return layout == SlabLayout::natural ? "natural" : "y slabs"; }

// Forward against the oracle and the inverse back to the input, in place and out of place, on `gpus` devices.
template <class Real = float>
void check_in_chunks_of(const Extents& size, SlabLayout layout, SlabExchange exchange, int gpus,
                        std::int64_t min_chunk_bytes) {
  const std::vector<int> devices = first_devices(gpus);
  MultiGpuTransform fft({.extents = size, .devices = devices, .layout = layout, .exchange = exchange,
                         .precision = precision_of<Real>, .min_chunk_bytes = min_chunk_bytes});
  ASSERT_EQ(fft.exchange(), exchange);
  const SlabDecomposition& d = fft.decomposition();
  ASSERT_EQ(fft.gpus(), gpus);
  ASSERT_EQ(fft.local_elements(), size.elements() / gpus);
  EXPECT_GE(fft.exchange_buffer_bytes(),
            fft.local_elements() * static_cast<std::int64_t>(sizeof(std::complex<Real>)));
  const Volume x = random_volume<Real>(size.elements(), 17);
  Volume spectrum(x.size());
  validate::cufft_reference(size, x, spectrum, Direction::forward);

  for (bool in_place : {false, true}) {
    SCOPED_TRACE(to_string(size) + " over " + std::to_string(gpus) + " GPUs, " + layout_name(layout) + ", " +
                 to_string(precision_of<Real>) + ", " + exchange_name(exchange) +
                 (in_place ? ", in place" : ", out of place"));
    std::vector<DeviceBuffer> ins = allocate<Real>(devices, d.local_elements());
    upload<Real>(d, SlabLayout::natural, x, ins);
    std::vector<DeviceBuffer> outs;
    if (!in_place) {
      outs = allocate<Real>(devices, d.local_elements());
      poison(devices, outs);
    }
    std::vector<DeviceBuffer>& spectra = in_place ? ins : outs;
    fft.forward(inputs<Real>(ins), outputs<Real>(spectra));
    const Volume got = gather<Real>(d, layout, spectra);
    EXPECT_LE(relative_l2(got, spectrum), multi_gpu_tolerance<Real>) << "forward against cuFFT Z2Z fp64";
    if (!in_place) {
      EXPECT_TRUE(gather<Real>(d, SlabLayout::natural, ins) == x) << "forward wrote its input";
    }

    std::vector<DeviceBuffer> backs;
    if (!in_place) {
      backs = allocate<Real>(devices, d.local_elements());
      poison(devices, backs);
    }
    std::vector<DeviceBuffer>& back = in_place ? ins : backs;
    fft.inverse(inputs<Real>(spectra), outputs<Real>(back), Scaling::full);
    EXPECT_LE(relative_l2(gather<Real>(d, SlabLayout::natural, back), x), multi_gpu_tolerance<Real>)
        << "inverse(forward(x)) against x";
    if (!in_place) {
      EXPECT_TRUE(gather<Real>(d, layout, spectra) == got) << "inverse wrote its input";
    }
  }
}

template <class Real = float>
void check_transform(const Extents& size, SlabLayout layout, SlabExchange exchange, int gpus) {
  check_in_chunks_of<Real>(size, layout, exchange, gpus, 0);
}

void check_in_small_chunks(const Extents& size, SlabLayout layout, SlabExchange exchange, int gpus) {
  check_in_chunks_of<float>(size, layout, exchange, gpus, small_chunk_bytes);
}

using GpuMultiGpu = MultiGpuCaseTest<&check_transform<float>>;
using GpuMultiGpuSmallChunks = MultiGpuCaseTest<&check_in_small_chunks>;
using GpuMultiGpuFp64 = MultiGpuCaseTest<&check_transform<double>>;

TEST_P(GpuMultiGpu, OneGpuRunsTheWholePathNcclIncluded) { check_on(1); }
TEST_P(GpuMultiGpu, EveryVisibleGpuMatchesTheOneGpuOracle) { check_on_every_visible_gpu(); }
TEST_P(GpuMultiGpuSmallChunks, OneGpuRunsTheWholePathNcclIncluded) { check_on(1); }
TEST_P(GpuMultiGpuSmallChunks, EveryVisibleGpuMatchesTheOneGpuOracle) { check_on_every_visible_gpu(); }
TEST_P(GpuMultiGpuFp64, OneGpuRunsTheWholePathNcclIncluded) { check_on(1); }
TEST_P(GpuMultiGpuFp64, EveryVisibleGpuMatchesTheOneGpuOracle) { check_on_every_visible_gpu(); }

INSTANTIATE_TEST_SUITE_P(Sizes, GpuMultiGpu,
                         every_layout_and_exchange({{64, 64, 64}, {128, 64, 32}, {256, 256, 256}}),
                         multi_gpu_case_name);
INSTANTIATE_TEST_SUITE_P(Sizes, GpuMultiGpuSmallChunks, every_layout_and_exchange({{64, 64, 64}, {128, 64, 32}}),
                         multi_gpu_case_name);
INSTANTIATE_TEST_SUITE_P(Sizes, GpuMultiGpuFp64,
                         every_layout_and_exchange({{64, 64, 64}, {128, 64, 32}}),
                         multi_gpu_case_name);

class GpuMultiGpuPeerStores : public ::testing::Test {
 protected:
  void SetUp() override { skip_without_gpu_or_nccl(); }
};

// Blocks of an odd count of complex values (NX * NY/G = 45 on 4 GPUs) take the exchange kernel's 8-byte units.
TEST_F(GpuMultiGpuPeerStores, OddBlocksMatchTheOracle) {
  constexpr int gpus_with_odd_blocks = 4;
  check_transform(Extents{15, 12, 8}, SlabLayout::natural, SlabExchange::peer_stores,
                  std::min(several_gpus(), gpus_with_odd_blocks));
}

// The exchange alone moves every value, unchanged, to where the y-slab layout puts it, with each exchange (in fp64
// every value as two exchange units); in place is refused.
template <class Real>
void check_transpose_with_each_exchange(unsigned seed) {
  const Extents size{64, 32, 16};
  const Volume x = random_volume<Real>(size.elements(), seed);
  for (int gpus : {1, several_gpus()})
    for (SlabExchange exchange : {SlabExchange::copy_engines, SlabExchange::peer_stores, SlabExchange::nccl}) {
      SCOPED_TRACE(std::to_string(gpus) + " GPUs, " + exchange_name(exchange) + ", " +
                   to_string(precision_of<Real>));
      const std::vector<int> devices = first_devices(gpus);
      MultiGpuTransform fft({.extents = size, .devices = devices, .exchange = exchange,
                             .precision = precision_of<Real>});
      const SlabDecomposition& d = fft.decomposition();
      std::vector<DeviceBuffer> z_slabs = allocate<Real>(devices, d.local_elements());
      std::vector<DeviceBuffer> y_slabs = allocate<Real>(devices, d.local_elements());
      upload<Real>(d, SlabLayout::natural, x, z_slabs);
      poison(devices, y_slabs);
      fft.transpose_to_y_slabs(inputs<Real>(z_slabs), outputs<Real>(y_slabs));
      EXPECT_EQ(gather<Real>(d, SlabLayout::y_slabs, y_slabs), x);
      EXPECT_THROW(fft.transpose_to_y_slabs(inputs<Real>(z_slabs), outputs<Real>(z_slabs)), UsageError);
    }
}

TEST_F(GpuMultiGpuPeerStores, TransposeToYSlabsPutsEveryValueInPlaceWithEachExchange) {
  check_transpose_with_each_exchange<float>(5);
}

TEST_F(GpuMultiGpuPeerStores, Fp64TransposeToYSlabsPutsEveryValueInPlaceWithEachExchange) {
  check_transpose_with_each_exchange<double>(6);
}

class GpuMultiGpuBadInput : public ::testing::Test {
 protected:
  void SetUp() override { skip_without_gpu_or_nccl(); }
};

TEST_F(GpuMultiGpuBadInput, DevicesAndSplitsRefusedBeforeAnyLaunch) {
  const int count = validate::gpu_count();
  // A G that does not divide NY.
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 63, 64}, .devices = {0, 1}}), UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 64, 64}, .devices = {0, 0}}), UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 64, 64}, .devices = {count}}), UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 64, 64}, .devices = {}}), UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 64, 64}, .devices = {0}, .exchange_timeout_s = 0}), UsageError);
  EXPECT_THROW(MultiGpuTransform({.extents = {64, 64, 64}, .devices = {0}, .min_chunk_bytes = -1}), UsageError);
  // More devices than the machine has (where that count can divide the size: up to max_slab_gpus).
  const std::vector<int> too_many = first_devices(count + 1);
  try {
    MultiGpuTransform({.extents = {8, 840, 840}, .devices = too_many});
    ADD_FAILURE() << "no error for " << too_many.size() << " devices on a machine with " << count;
  } catch (const UsageError& e) {
    if (count < max_slab_gpus) {
      EXPECT_NE(std::string(e.what()).find("this machine has"), std::string::npos) << e.what();
    }
  }
}

TEST_F(GpuMultiGpuBadInput, ExecuteRefusesWrongPointersAndDigitReversedOrder) {
  MultiGpuTransform fft({.extents = {64, 64, 64}, .devices = {0}});
  std::vector<DeviceBuffer> buffers = allocate({0}, fft.local_elements());
  const auto in = inputs(buffers);
  const auto out = outputs(buffers);
  EXPECT_THROW(fft.forward({}, out), UsageError);
  EXPECT_THROW(fft.forward({in[0], in[0]}, out), UsageError);
  EXPECT_THROW(fft.forward({nullptr}, out), UsageError);
  EXPECT_THROW(fft.execute(in, out, {.order = Order::digit_reversed}), UsageError);
  EXPECT_NO_THROW(fft.forward(in, out));
}

// Values of the other precision than the transform's are refused, each way, before any launch.
TEST_F(GpuMultiGpuBadInput, ExecuteRefusesDataOfTheOtherPrecision) {
  MultiGpuTransform fp32({.extents = {64, 64, 64}, .devices = {0}});
  MultiGpuTransform fp64({.extents = {64, 64, 64}, .devices = {0}, .precision = Precision::fp64});
  EXPECT_EQ(fp32.precision(), Precision::fp32);
  EXPECT_EQ(fp64.precision(), Precision::fp64);
  std::vector<DeviceBuffer> buffers = allocate<double>({0}, fp64.local_elements());
  EXPECT_THROW(fp32.forward(inputs<double>(buffers), outputs<double>(buffers)), UsageError);
  EXPECT_THROW(fp64.forward(inputs<float>(buffers), outputs<float>(buffers)), UsageError);
  EXPECT_THROW(fp64.transpose_to_y_slabs(inputs<float>(buffers), outputs<float>(buffers)), UsageError);
  EXPECT_NO_THROW(fp64.forward(inputs<double>(buffers), outputs<double>(buffers)));
}

}  // namespace
}  // namespace fft3d::testing
