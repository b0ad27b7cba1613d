#include "bench/multi_gpu_check.hpp"

#include <algorithm>
#include <vector>

#include "fft3d/errors.hpp"

namespace fft3d::bench {
namespace {

constexpr std::int64_t chunk_elements = std::int64_t{1} << 26;  // 512 MiB of fp32 complex on the host at a time
using Complex64 = std::complex<double>;

int gpus_of(const PerDeviceBuffers& buffers, const Extents& size) {
  const int gpus = static_cast<int>(buffers.count());
  if (gpus < 1 || buffers.elements() * gpus != size.elements())
    throw UsageError("multi-GPU check: the buffers do not hold the volume " + to_string(size) + " in equal shares");
  return gpus;
}

// compare(natural_offset, values) on every chunk of the distributed volume (Value: the buffers' complex type),
// merged.
template <class Value, class Compare>
validate::ErrorReport compare_chunks(const PerDeviceBuffers& buffers, const Extents& size, SlabLayout layout,
                                     Compare compare) {
  std::vector<Value> chunk;
  validate::ChunkedError error;
  for_each_chunk(size, gpus_of(buffers, size), layout, chunk_elements,
                 [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                   chunk.resize(static_cast<std::size_t>(count));
                   buffers.download(g, chunk.data(), local, count);
                   error.add(compare(natural, std::span<const Value>(chunk)));
                 });
  return error.report();
}

template <class Value>
void scatter_values(std::span<const Complex64> volume, const Extents& size, SlabLayout layout,
                    PerDeviceBuffers& buffers) {
  std::vector<Value> chunk;
  for_each_chunk(size, gpus_of(buffers, size), layout, chunk_elements,
                 [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                   const auto first = volume.begin() + natural;
                   chunk.assign(first, first + count);
                   buffers.upload(g, chunk.data(), local, count);
                 });
}

template <class Value>
void gather_values(const PerDeviceBuffers& buffers, const Extents& size, SlabLayout layout,
                   std::span<Complex64> volume) {
  std::vector<Value> chunk;
  for_each_chunk(size, gpus_of(buffers, size), layout, chunk_elements,
                 [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                   chunk.resize(static_cast<std::size_t>(count));
                   buffers.download(g, chunk.data(), local, count);
                   std::copy(chunk.begin(), chunk.end(), volume.begin() + natural);
                 });
}

}  // namespace

void scatter(std::span<const Complex64> volume, const Extents& size, SlabLayout layout, PerDeviceBuffers& buffers) {
  if (buffers.precision() == Precision::fp64) return scatter_values<Complex64>(volume, size, layout, buffers);
  scatter_values<Complex32>(volume, size, layout, buffers);
}

void gather(const PerDeviceBuffers& buffers, const Extents& size, SlabLayout layout, std::span<Complex64> volume) {
  if (buffers.precision() == Precision::fp64) return gather_values<Complex64>(buffers, size, layout, volume);
  gather_values<Complex32>(buffers, size, layout, volume);
}

namespace {

template <class Value>
validate::ClosedFormResult closed_form_of(const validate::PlaneWaves& waves, SlabLayout layout,
                                          PerDeviceBuffers& input, const std::function<void()>& forward,
                                          const PerDeviceBuffers& spectrum,
                                          const std::function<void()>& scaled_inverse,
                                          const PerDeviceBuffers& returned) {
  const Extents& size = waves.size;
  std::vector<Value> chunk;
  for_each_chunk(size, gpus_of(input, size), SlabLayout::natural, chunk_elements,
                 [&](std::size_t g, std::int64_t local, std::int64_t natural, std::int64_t count) {
                   chunk.resize(static_cast<std::size_t>(count));
                   validate::plane_wave_values(waves, natural, std::span<Value>(chunk));
                   input.upload(g, chunk.data(), local, count);
                 });
  validate::ClosedFormResult result;
  forward();
  result.spectrum =
      compare_chunks<Value>(spectrum, size, layout, [&](std::int64_t first, std::span<const Value> values) {
        return validate::compare_spectrum(waves, Direction::forward, 1.0, first, values);
      });
  scaled_inverse();
  result.round_trip =
      compare_chunks<Value>(returned, size, SlabLayout::natural, [&](std::int64_t first, std::span<const Value> values) {
        return validate::compare_waves(waves, first, values);
      });
  return result;
}

}  // namespace

validate::ClosedFormResult check_distributed_in_closed_form(const validate::PlaneWaves& waves, SlabLayout layout,
                                                            PerDeviceBuffers& input,
                                                            const std::function<void()>& forward,
                                                            const PerDeviceBuffers& spectrum,
                                                            const std::function<void()>& scaled_inverse,
                                                            const PerDeviceBuffers& returned) {
  for (const PerDeviceBuffers* buffers : {static_cast<const PerDeviceBuffers*>(&spectrum), &returned})
    if (buffers->precision() != input.precision())
      throw UsageError("the closed-form check (plane waves): input, spectrum and returned buffers of one precision");
  if (input.precision() == Precision::fp64)
    return closed_form_of<Complex64>(waves, layout, input, forward, spectrum, scaled_inverse, returned);
  return closed_form_of<Complex32>(waves, layout, input, forward, spectrum, scaled_inverse, returned);
}

}  // namespace fft3d::bench
