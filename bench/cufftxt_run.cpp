#include "bench/cufftxt_run.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <complex>
#include <functional>
#include <memory>
#include <span>

#include "bench/cufftxt.hpp"
#include "bench/multi_gpu_devices.hpp"
#include "fft3d/errors.hpp"
#include "validate/cuda/cuda_calls.hpp"
#include "validate/plane_waves.hpp"

namespace fft3d::bench {
namespace {

constexpr int wave_count = 4;                                   // complex plane waves, as fft3d's closed-form check
constexpr int wave_pairs = 2;                                   // real ones: four waves in conjugate pairs
constexpr std::int64_t staged_values = std::int64_t{1} << 24;  // host staging, per chunk of a share

void copy(void* to, const void* from, std::size_t bytes, const char* what) {
  validate::check_cuda(cudaMemcpy(to, from, bytes, cudaMemcpyDefault), what);
}

// visit(device, first, count) over every share in chunks of at most `chunk` values (a multiple of `unit`, and each
// share a whole number of units: a real volume's padded rows).
template <class Value, class Visit>
void each_chunk(const CufftXt& xt, std::int64_t unit, Visit visit) {
  const std::int64_t chunk = std::max<std::int64_t>(unit, staged_values / unit * unit);
  for (const CufftXt::Share& share : xt.shares()) {
    if (share.first % unit != 0 || share.count % unit != 0)
      throw CudaError("cufftXt", 0, "a GPU's share is not whole rows of the padded real volume");
    for (std::int64_t done = 0; done < share.count; done += chunk)
      visit(static_cast<Value*>(share.data) + done, share.first + done, std::min(chunk, share.count - done));
  }
}

// The round trip's frame, in chunks of whole `unit`s: upload(device, first, count) writes each chunk's input, then
// the forward and the inverse run, then compare(device, first, count) gives each chunk's error against the input
// (the values over N).
template <class Value, class Upload, class Compare>
validate::ErrorReport round_trip_in_chunks(CufftXt& xt, const CufftXtRequest& r, std::int64_t unit, Upload upload,
                                           Compare compare) {
  each_chunk<Value>(xt, unit, upload);
  xt.execute(Direction::forward);
  xt.execute(Direction::inverse);
  synchronize_devices(r.devices);
  validate::ChunkedError error;
  each_chunk<Value>(xt, unit, [&](Value* device, std::int64_t first, std::int64_t count) {
    error.add(compare(device, first, count));
  });
  return error.report();
}

// Complex: plane waves, every value its own unit.
template <class Real>
validate::ErrorReport complex_round_trip(CufftXt& xt, const CufftXtRequest& r) {
  using Value = std::complex<Real>;
  const validate::PlaneWaves waves = validate::random_plane_waves(r.size, wave_count, r.seed);
  const Real scale = Real(1) / static_cast<Real>(r.size.elements());
  std::vector<Value> staged;
  return round_trip_in_chunks<Value>(
      xt, r, 1,
      [&](Value* device, std::int64_t first, std::int64_t count) {
        staged.resize(static_cast<std::size_t>(count));
        validate::plane_wave_values(waves, first, std::span<Value>(staged));
        copy(device, staged.data(), staged.size() * sizeof(Value), "cudaMemcpy (cufftXt input)");
      },
      [&](const Value* device, std::int64_t first, std::int64_t count) {
        staged.resize(static_cast<std::size_t>(count));
        copy(staged.data(), device, staged.size() * sizeof(Value), "cudaMemcpy (cufftXt output)");
        for (Value& v : staged) v *= scale;
        return validate::compare_waves(waves, first, std::span<const Value>(staged));
      });
}

// Real: padded rows of NX reals (NX/2 + 1 complex values each, the unit) from real plane waves; the padding is left
// alone. A chunk's reals are made and compared unpadded, in one call each (the closed form's cost is per call as
// well as per value).
template <class Real>
validate::ErrorReport real_round_trip(CufftXt& xt, const CufftXtRequest& r) {
  using Value = std::complex<Real>;
  const validate::PlaneWaves waves = validate::random_real_plane_waves(r.size, wave_pairs, r.seed);
  const std::int64_t nx = r.size.nx, row_values = nx / 2 + 1, pitch = 2 * row_values;
  const Real scale = Real(1) / static_cast<Real>(r.size.elements());
  std::vector<Real> staged, line;
  // (first, count) in the padded volume's complex values -> its rows' first real (unpadded) and row count.
  const auto rows_of = [&](std::int64_t first, std::int64_t count) {
    staged.resize(static_cast<std::size_t>(count * 2));
    line.resize(static_cast<std::size_t>(count / row_values * nx));
    return std::pair{first / row_values * nx, count / row_values};
  };
  return round_trip_in_chunks<Value>(
      xt, r, row_values,
      [&](Value* device, std::int64_t first, std::int64_t count) {
        const auto [real_first, rows] = rows_of(first, count);
        validate::plane_wave_reals(waves, real_first, std::span<Real>(line));
        for (std::int64_t row = 0; row < rows; ++row)
          std::copy_n(line.begin() + row * nx, nx, staged.begin() + row * pitch);
        copy(device, staged.data(), staged.size() * sizeof(Real), "cudaMemcpy (cufftXt input)");
      },
      [&](const Value* device, std::int64_t first, std::int64_t count) {
        const auto [real_first, rows] = rows_of(first, count);
        copy(staged.data(), device, staged.size() * sizeof(Real), "cudaMemcpy (cufftXt output)");
        for (std::int64_t row = 0; row < rows; ++row)
          std::transform(staged.begin() + row * pitch, staged.begin() + row * pitch + nx, line.begin() + row * nx,
                         [scale](Real v) { return v * scale; });
        return validate::compare_reals(waves, real_first, std::span<const Real>(line));
      });
}

validate::ErrorReport round_trip(CufftXt& xt, const CufftXtRequest& r) {
  const bool fp64 = r.precision == Precision::fp64;
  if (xt.kind() == TransformKind::c2c)
    return fp64 ? complex_round_trip<double>(xt, r) : complex_round_trip<float>(xt, r);
  return fp64 ? real_round_trip<double>(xt, r) : real_round_trip<float>(xt, r);
}

Direction timed_direction(const CufftXtRequest& r) {
  if (r.kind == TransformKind::c2c) return r.direction;
  return r.kind == TransformKind::r2c ? Direction::forward : Direction::inverse;
}

std::vector<void*> saved_pointers(const PerDeviceBuffers& buffers) {
  std::vector<void*> pointers;
  if (buffers.precision() == Precision::fp64)
    for (auto* p : buffers.pointers<std::complex<double>>()) pointers.push_back(p);
  else
    for (auto* p : buffers.pointers<std::complex<float>>()) pointers.push_back(p);
  return pointers;
}

// Each timed run starts from its input: the natural-format input (forward) or the shuffled output of a forward
// (inverse), copied back from a saved copy where one fits; else the opposite transform undoes the last run
// (unscaled: the values grow by N a run).
std::function<void()> restoring_input(CufftXt& xt, const CufftXtRequest& r, Direction timed,
                                      std::unique_ptr<PerDeviceBuffers>& saved) {
  const Direction opposite = timed == Direction::forward ? Direction::inverse : Direction::forward;
  if (timed == Direction::inverse) xt.execute(Direction::forward);  // the inverse's input: a forward's output
  synchronize_devices(r.devices);
  const std::vector<CufftXt::Share> shares = xt.shares();
  std::int64_t largest = 0;
  for (const auto& share : shares) largest = std::max(largest, share.count);
  try {
    saved = std::make_unique<PerDeviceBuffers>(r.devices, largest, r.precision);
  } catch (const OutOfMemory&) {
    xt.execute(timed);  // leaves the opposite's input, whose output is the timed run's
    return [&xt, opposite] { xt.execute(opposite); };
  }
  const std::size_t value_bytes = complex_value_bytes(r.precision);
  const std::vector<void*> copies = saved_pointers(*saved);
  for (std::size_t i = 0; i < shares.size(); ++i)
    copy(copies[i], shares[i].data, static_cast<std::size_t>(shares[i].count) * value_bytes,
         "cudaMemcpy (save cufftXt input)");
  return [&xt, copies, shares, value_bytes, timed] {
    for (std::size_t i = 0; i < shares.size(); ++i)
      copy(shares[i].data, copies[i], static_cast<std::size_t>(shares[i].count) * value_bytes,
           "cudaMemcpy (restore cufftXt input)");
    if (timed == Direction::forward) xt.mark_natural();
    else xt.mark_shuffled();
  };
}

}  // namespace

std::string restore_text(const CufftXtResult& result) {
  return result.input_saved ? "input restored from a saved copy before each run"
                            : "input not saved (no room): each run follows cuFFT's opposite transform";
}

CufftXtResult measure_cufftxt(const CufftXtRequest& r) {
  CufftXtResult result;
  CufftXt xt(r.size, r.devices, r.kind, r.precision);
  const Direction timed = timed_direction(r);
  const std::vector<std::size_t>& work = xt.work_area_bytes(timed);
  result.work_area_bytes = static_cast<std::int64_t>(*std::max_element(work.begin(), work.end()));
  const validate::ErrorReport error = round_trip(xt, r);
  result.round_trip_error = error.relative_l2;
  if (!error.passes(r.bound)) {
    result.failure = "round trip over the bound " + std::to_string(r.bound) + ": relative L2 " +
                     std::to_string(error.relative_l2) + (error.non_finite > 0 ? ", values not finite" : "");
    return result;
  }
  result.checked = true;
  std::unique_ptr<PerDeviceBuffers> saved;
  const std::function<void()> restore = restoring_input(xt, r, timed, saved);
  result.input_saved = saved != nullptr;
  // cuFFT's streams are its own: each timed run waits for every device, as fft3d's multi-GPU transforms do.
  const auto run = [&] {
    xt.execute(timed);
    synchronize_devices(r.devices);
  };
  result.time = time_on_devices(r.devices, run, r.warmup, r.repeats, restore);
  return result;
}

}  // namespace fft3d::bench
