#include "validate/cuda/closed_form_check.hpp"

#include <algorithm>
#include <vector>

#include "fft3d/diagnostics.hpp"

namespace fft3d::validate {
namespace {

using Complex32 = std::complex<float>;
constexpr std::int64_t chunk_elements = std::int64_t{1} << 26;  // 512 MiB of fp32 complex on the host at a time

// visit(first, count) for the chunks of [0, n), in order.
template <class Visit>
void for_each_chunk(std::int64_t n, Visit visit) {
  for (std::int64_t first = 0; first < n; first += chunk_elements)
    visit(first, static_cast<std::size_t>(std::min(chunk_elements, n - first)));
}

std::size_t byte_offset(std::int64_t first) { return static_cast<std::size_t>(first) * sizeof(Complex32); }

// compare(first, values) on every chunk of the device volume.
template <class Compare>
ErrorReport compare_chunks(std::int64_t n, const DeviceBuffer& data, Compare compare) {
  std::vector<Complex32> chunk(static_cast<std::size_t>(std::min(chunk_elements, n)));
  ChunkedError error;
  for_each_chunk(n, [&](std::int64_t first, std::size_t count) {
    data.download(chunk.data(), byte_offset(first), count * sizeof(Complex32));
    error.add(compare(first, std::span<const Complex32>(chunk).first(count)));
  });
  return error.report();
}

}  // namespace

ClosedFormResult check_in_closed_form(const PlaneWaves& waves, DeviceBuffer& data,
                                      const std::function<void()>& forward_in_place,
                                      const std::function<void()>& scaled_inverse_in_place) {
  const std::int64_t n = waves.size.elements();
  if (data.bytes() != static_cast<std::size_t>(n) * sizeof(Complex32))
    throw UsageError("check_in_closed_form: the device buffer does not hold the fp32 complex volume");
  std::vector<Complex32> chunk(static_cast<std::size_t>(std::min(chunk_elements, n)));
  for_each_chunk(n, [&](std::int64_t first, std::size_t count) {
    plane_wave_values(waves, first, std::span(chunk).first(count));
    data.upload(chunk.data(), byte_offset(first), count * sizeof(Complex32));
  });
  ClosedFormResult result;
  forward_in_place();
  result.spectrum = compare_chunks(n, data, [&](std::int64_t first, std::span<const Complex32> values) {
    return compare_spectrum(waves, Direction::forward, 1.0, first, values);
  });
  scaled_inverse_in_place();
  result.round_trip = compare_chunks(n, data, [&](std::int64_t first, std::span<const Complex32> values) {
    return compare_waves(waves, first, values);
  });
  return result;
}

}  // namespace fft3d::validate
