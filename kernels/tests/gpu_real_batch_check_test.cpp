// validate::RealCheck over a batch of packed volumes (what `fft3d bench --transform r2c --batch B` checks before it
// times): fft3d's real batches pass it in both directions and placements, and a batch with one volume wrong, or one
// volume left unwritten, fails it with the report pointing into that volume. Skipped without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "fft3d/gpu_transform.hpp"
#include "gpu_test.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/cuda/real_check.hpp"

namespace fft3d::testing {
namespace {

using validate::RealCheck;

constexpr std::uint64_t seed = 20261127;

class GpuRealBatchCheck : public GpuTest {};

// fft3d's run of `check`'s kind on `check`'s own buffers, then `after(run)` (a deliberate fault, or nothing).
void run_fft3d(GpuTransform& engine, RealCheck& check, const std::function<void(const validate::RealRun&)>& after) {
  const validate::RealRun run = check.run();
  if (check.kind() == TransformKind::c2r)
    engine.execute(run.spectrum_in(), run.reals_out(), {.direction = Direction::inverse});
  else engine.execute(run.reals_in(), run.spectrum_out());
  validate::check_cuda(cudaDeviceSynchronize(), "fft3d's real batch");
  after(run);
}

// Bytes of one volume of the output's layout.
std::size_t output_volume_bytes(const RealCheck& check) {
  return check.output_bytes() / static_cast<std::size_t>(check.batch());
}

TEST_F(GpuRealBatchCheck, Fft3dRealBatchesPassInEveryDirectionAndPlacement) {
  const std::int64_t batch = 5;
  for (const Extents& size : {Extents{16, 8, 8}, Extents{32, 32, 32}})
    for (const TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
      for (const Placement placement : {Placement::out_of_place, Placement::in_place}) {
        SCOPED_TRACE(to_string(size) + " " + to_string(kind) + " " + to_string(placement));
        GpuTransform engine(TransformDesc{.extents = size, .kind = kind, .batch = batch, .placement = placement});
        RealCheck check(size, kind, placement, seed, validate::SpectrumInput::hermitian, Precision::fp32, batch);
                const validate::ErrorReport report = check.check([&] { run_fft3d(engine, check, [](auto&) {}); });
        EXPECT_TRUE(report.passes(validate::fp32_error_bound)) << report.relative_l2 << ", " << report.non_finite
                                                               << " not finite";
        if (kind == TransformKind::c2r && placement == Placement::out_of_place) {
          EXPECT_TRUE(check.input_unchanged());
        }
      }
}

// An odd NX (RealStep): batches in both placements where a volume holds an even count of reals; out of place an
// odd count would misalign the next volume's rows, so GpuTransform refuses it by name.
TEST_F(GpuRealBatchCheck, OddNxBatchesPassAndAnOddVolumeOutOfPlaceIsRefused) {
  const std::int64_t batch = 3;
  for (const TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    for (const Placement placement : {Placement::out_of_place, Placement::in_place}) {
      SCOPED_TRACE(to_string(kind) + " " + to_string(placement));
      const Extents size{15, 12, 10};
      GpuTransform engine(TransformDesc{.extents = size, .kind = kind, .batch = batch, .placement = placement});
      RealCheck check(size, kind, placement, seed, validate::SpectrumInput::hermitian, Precision::fp32, batch);
      const validate::ErrorReport report = check.check([&] { run_fft3d(engine, check, [](auto&) {}); });
      EXPECT_TRUE(report.passes(validate::fp32_error_bound)) << report.relative_l2 << ", " << report.non_finite
                                                             << " not finite";
    }
  const Extents odd_volume{15, 5, 7};
  GpuTransform engine(TransformDesc{.extents = odd_volume, .kind = TransformKind::r2c, .batch = batch});
  RealCheck check(odd_volume, TransformKind::r2c, Placement::out_of_place, seed, validate::SpectrumInput::hermitian,
                  Precision::fp32, batch);
  const validate::RealRun run = check.run();
  EXPECT_THROW(engine.execute(run.reals_in(), run.spectrum_out()), UsageError);
}

// One volume's output replaced by its neighbour's: every other volume is right, and the report is the wrong one's.
TEST_F(GpuRealBatchCheck, OneWrongVolumeOfTheBatchFailsAndIsNamed) {
  const Extents size{16, 8, 8};
  const std::int64_t batch = 6, wrong = 4;
  for (const TransformKind kind : {TransformKind::r2c, TransformKind::c2r}) {
    SCOPED_TRACE(to_string(kind));
    GpuTransform engine(TransformDesc{.extents = size, .kind = kind, .batch = batch});
    RealCheck check(size, kind, Placement::out_of_place, seed, validate::SpectrumInput::hermitian, Precision::fp32,
                    batch);
    const std::size_t volume = output_volume_bytes(check);
    const validate::ErrorReport report = check.check([&] {
      run_fft3d(engine, check, [&](const validate::RealRun& run) {
        char* out = static_cast<char*>(run.out);
        validate::check_cuda(cudaMemcpy(out + wrong * volume, out + (wrong - 1) * volume, volume,
                                        cudaMemcpyDeviceToDevice),
                             "copy a neighbour's volume over one");
      });
    });
    EXPECT_FALSE(report.passes(validate::fp32_error_bound));
    EXPECT_GT(report.relative_l2, 0.1) << "a whole wrong volume, not one volume's error averaged over six";
    const std::int64_t per_volume = kind == TransformKind::r2c ? (size.nx / 2 + 1) * size.ny * size.nz
                                                               : size.elements();
    EXPECT_EQ(report.peak_index / per_volume, wrong) << "the peak lies in the wrong volume";
  }
}

// The last volume left as poisoned: its NaN values are counted and the report is that volume's.
TEST_F(GpuRealBatchCheck, AnUnwrittenVolumeIsCountedAsNotFinite) {
  const Extents size{16, 8, 8};
  const std::int64_t batch = 3;
  GpuTransform engine(TransformDesc{.extents = size, .kind = TransformKind::r2c, .batch = batch - 1});
  RealCheck check(size, TransformKind::r2c, Placement::out_of_place, seed, validate::SpectrumInput::hermitian,
                  Precision::fp32, batch);
  const validate::ErrorReport report = check.check([&] { run_fft3d(engine, check, [](auto&) {}); });
  const std::int64_t per_volume = (size.nx / 2 + 1) * size.ny * size.nz;
  EXPECT_EQ(report.non_finite, per_volume);
  EXPECT_EQ(report.peak_index / per_volume, batch - 1);
  EXPECT_FALSE(report.passes(validate::fp32_error_bound));
}

}  // namespace
}  // namespace fft3d::testing
