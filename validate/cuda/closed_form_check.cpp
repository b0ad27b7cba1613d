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

// The padded real rows [first_row, first_row + rows) of the volume: reals of row r at r * pitch, pads past NX.
struct RowChunk {
  std::int64_t first_row = 0;
  std::int64_t rows = 0;
};

// Rows of `pitch` reals in a chunk: about chunk_elements complex values' worth, at least one row.
std::int64_t rows_per_chunk(std::int64_t pitch) { return std::max<std::int64_t>(1, 2 * chunk_elements / pitch); }

// visit(chunk) for chunks of the `rows` rows of `pitch` reals, rows_per_chunk(pitch) rows each (the last fewer).
template <class Visit>
void for_each_row_chunk(std::int64_t rows, std::int64_t pitch, Visit visit) {
  const std::int64_t per_chunk = rows_per_chunk(pitch);
  for (std::int64_t first = 0; first < rows; first += per_chunk)
    visit(RowChunk{first, std::min(per_chunk, rows - first)});
}

}  // namespace

ClosedFormResult check_real_in_closed_form(const PlaneWaves& waves, DeviceBuffer& data,
                                           const std::function<void()>& r2c_in_place,
                                           const std::function<void()>& scaled_c2r_in_place) {
  const Extents& size = waves.size;
  const std::int64_t nx = size.nx, rows = size.ny * size.nz, pitch = 2 * (nx / 2 + 1);
  if (data.bytes() != static_cast<std::size_t>(rows * pitch) * sizeof(float))
    throw UsageError("check_real_in_closed_form: the device buffer does not hold the padded fp32 real volume of " +
                     to_string(size));
  const std::int64_t most_rows = std::min(rows, rows_per_chunk(pitch));
  std::vector<float> padded(static_cast<std::size_t>(most_rows * pitch), 0.0f);
  std::vector<float> plain(static_cast<std::size_t>(most_rows * nx));
  const auto row_bytes = [&](std::int64_t r) { return static_cast<std::size_t>(r * pitch) * sizeof(float); };
  for_each_row_chunk(rows, pitch, [&](RowChunk chunk) {
    plane_wave_reals(waves, chunk.first_row * nx, std::span(plain).first(static_cast<std::size_t>(chunk.rows * nx)));
    for (std::int64_t r = 0; r < chunk.rows; ++r)
      std::copy_n(plain.begin() + r * nx, nx, padded.begin() + r * pitch);
    data.upload(padded.data(), row_bytes(chunk.first_row), row_bytes(chunk.rows));
  });
  ClosedFormResult result;
  r2c_in_place();
  const std::int64_t spectrum_values = rows * pitch / 2;
  result.spectrum = compare_chunks(spectrum_values, data, [&](std::int64_t first, std::span<const Complex32> values) {
    return compare_half_spectrum(waves, 1.0, first, values);
  });
  scaled_c2r_in_place();
  ChunkedError round_trip;
  for_each_row_chunk(rows, pitch, [&](RowChunk chunk) {
    data.download(padded.data(), row_bytes(chunk.first_row), row_bytes(chunk.rows));
    for (std::int64_t r = 0; r < chunk.rows; ++r)
      std::copy_n(padded.begin() + r * pitch, nx, plain.begin() + r * nx);
    round_trip.add(compare_reals(waves, chunk.first_row * nx,
                                 std::span<const float>(plain).first(static_cast<std::size_t>(chunk.rows * nx))));
  });
  result.round_trip = round_trip.report();
  return result;
}

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
