#include "validate/cuda/real_check.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "fft3d/errors.hpp"

namespace fft3d::validate {
namespace {

// What the padding of an in-place R2C input's rows holds: a value no result may depend on.
template <class Real>
constexpr Real padding_value = std::numeric_limits<Real>::quiet_NaN();

std::size_t count(std::int64_t n) { return static_cast<std::size_t>(n); }
std::int64_t half_row(const Extents& size) { return size.nx / 2 + 1; }
std::int64_t half_spectrum_elements(const Extents& size) { return half_row(size) * size.ny * size.nz; }

// The arguments every check refuses, before any allocation.
const Extents& real_size(const Extents& size, TransformKind kind, std::int64_t batch) {
  if (kind == TransformKind::c2c) throw UsageError("RealCheck: a c2c transform is ForwardCheck's to check");
  if (batch < 1) throw UsageError("RealCheck: a batch of " + std::to_string(batch) + ": 1 or more volumes");
  return size;
}

// A packed batch of `batch` volumes has the layout of one volume of batch*NZ planes, on the real side (padded rows
// and all) and on the half spectrum's: the extents that the host-side layout loops walk.
Extents stacked(const Extents& size, std::int64_t batch) { return {size.nx, size.ny, size.nz * batch}; }

std::size_t input_bytes_of(const Extents& size, TransformKind kind, Placement placement, Precision precision) {
  return kind == TransformKind::r2c ? real_array_bytes(size, placement, precision)
                                    : half_spectrum_bytes(size, precision);
}
std::size_t output_bytes_of(const Extents& size, TransformKind kind, Placement placement, Precision precision) {
  return kind == TransformKind::r2c ? half_spectrum_bytes(size, precision)
                                    : real_array_bytes(size, placement, precision);
}

// `n` random reals in [-1, 1), rounded to Real (drawn in pairs; an odd n drops the last pair's second).
template <class Real>
std::vector<double> random_reals(std::int64_t n, std::uint64_t seed) {
  std::vector<std::complex<double>> pairs(count((n + 1) / 2));
  fill_random(pairs, seed);
  std::vector<double> reals(count(n));
  for (std::size_t i = 0; i < reals.size(); ++i)
    reals[i] = static_cast<Real>(i % 2 == 0 ? pairs[i / 2].real() : pairs[i / 2].imag());
  return reals;
}

// visit(k, m) for each term k of the half spectrum's planes kx = 0 and kx = NX/2 (an even NX only: an odd NX's
// column NX/2 mirrors the unstored NX/2 + 1) and its mirror m (the term at (-ky, -kz)), once per pair (k <= m;
// k == m for a self-conjugate term). These are the terms that a Hermitian spectrum stores twice.
template <class Visit>
void for_each_mirror_pair(const Extents& size, Visit visit) {
  const std::int64_t row = half_row(size);
  const std::vector<std::int64_t> planes =
      size.nx % 2 == 0 ? std::vector<std::int64_t>{0, size.nx / 2} : std::vector<std::int64_t>{0};
  for (const std::int64_t kx : planes)
    for (std::int64_t kz = 0; kz < size.nz; ++kz)
      for (std::int64_t ky = 0; ky < size.ny; ++ky) {
        const std::int64_t k = kx + row * (ky + size.ny * kz);
        const std::int64_t m = kx + row * ((size.ny - ky) % size.ny + size.ny * ((size.nz - kz) % size.nz));
        if (k <= m) visit(count(k), count(m));
      }
}

// Replaces the planes kx = 0 and kx = NX/2 by their Hermitian part: (X(k) + conj X(m)) / 2 at k, its conjugate at m.
void keep_hermitian_part(const Extents& size, std::span<std::complex<double>> spectrum) {
  for_each_mirror_pair(size, [&](std::size_t k, std::size_t m) {
    const std::complex<double> part = 0.5 * (spectrum[k] + std::conj(spectrum[m]));
    spectrum[k] = part;
    spectrum[m] = std::conj(part);
  });
}

// Adds a random anti-Hermitian part (A(m) = -conj A(k)) of magnitude up to `amplitude` on the planes kx = 0 and
// kx = NX/2: purely imaginary at the self-conjugate terms.
void add_anti_hermitian_part(const Extents& size, std::span<std::complex<double>> spectrum, std::uint64_t seed,
                             double amplitude) {
  std::vector<std::complex<double>> noise(spectrum.size());
  fill_random(noise, seed);
  for_each_mirror_pair(size, [&](std::size_t k, std::size_t m) {
    const std::complex<double> part = amplitude * 0.5 * (noise[k] - std::conj(noise[m]));
    spectrum[k] += part;
    if (m != k) spectrum[m] -= std::conj(part);
  });
}

double rms(std::span<const std::complex<double>> values) {
  long double sum = 0;
  for (const std::complex<double>& v : values) sum += std::norm(v);
  return static_cast<double>(std::sqrt(sum / static_cast<long double>(values.size())));
}

// The NX*NY*NZ reals of `got` (rows `pitch` reals apart) against `reference` (unpadded) times `scale`, with
// validate::compare's contract: peak_index is the first non-finite value if there is one (peak_error then
// infinite), else the first largest error; sums over finite values only.
template <class Real>
ErrorReport compare_reals(const Real* got, std::int64_t pitch, const Extents& size,
                          std::span<const double> reference, double scale) {
  ErrorReport report;
  long double error_norm = 0, reference_norm = 0;
  const std::int64_t rows = size.ny * size.nz;
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::int64_t x = 0; x < size.nx; ++x) {
      const std::int64_t index = row * size.nx + x;
      const double value = got[row * pitch + x];
      const double expected = reference[count(index)] * scale;
      reference_norm += static_cast<long double>(expected) * expected;
      if (!std::isfinite(value)) {
        if (report.non_finite++ == 0) {
          report.peak_index = index;
          report.peak_error = std::numeric_limits<double>::infinity();
        }
        continue;
      }
      const double error = std::abs(value - expected);
      error_norm += static_cast<long double>(error) * error;
      if (report.non_finite == 0 && error > report.peak_error) {
        report.peak_error = error;
        report.peak_index = index;
      }
    }
  report.relative_l2 = static_cast<double>(reference_norm > 0 ? std::sqrt(error_norm / reference_norm)
                                                              : std::sqrt(error_norm));
  return report;
}

double scale_of(Scaling scaling, const Extents& size) {
  return scale_factor(scaling, size.elements());
}

// visit(v, volume's span of `values`) for each of the packed volumes of `per_volume` values in `values`.
template <class T, class Visit>
void for_each_volume(std::span<T> values, std::size_t per_volume, Visit visit) {
  for (std::size_t v = 0; v * per_volume < values.size(); ++v) visit(v, values.subspan(v * per_volume, per_volume));
}

// The report of the volume with the largest relative error (a non-finite volume first), its peak_index counted from
// the batch's start, and every volume's non-finite values counted: one bad volume of many is not averaged away.
class WorstVolume {
 public:
  void add(std::size_t volume, std::size_t per_volume, ErrorReport report) {
    report.peak_index += static_cast<std::int64_t>(volume * per_volume);
    const std::int64_t non_finite = worst_.non_finite + report.non_finite;
    const bool worse = first_ || (report.non_finite > 0 && worst_.non_finite == 0) ||
                       ((report.non_finite > 0) == (worst_.non_finite > 0) && report.relative_l2 > worst_.relative_l2);
    if (worse) worst_ = report;
    worst_.non_finite = non_finite;
    first_ = false;
  }
  const ErrorReport& report() const { return worst_; }

 private:
  ErrorReport worst_;
  bool first_ = true;
};

}  // namespace

std::int64_t real_row_pitch(const Extents& size, Placement placement) {
  return placement == Placement::in_place ? 2 * half_row(size) : size.nx;
}
std::size_t real_array_bytes(const Extents& size, Placement placement, Precision precision) {
  return count(real_row_pitch(size, placement) * size.ny * size.nz) * real_value_bytes(precision);
}
std::size_t half_spectrum_bytes(const Extents& size, Precision precision) {
  return count(half_spectrum_elements(size)) * complex_value_bytes(precision);
}

RealCheck::RealCheck(const Extents& size, TransformKind kind, Placement placement, std::uint64_t seed,
                     SpectrumInput spectrum, Precision precision, std::int64_t batch)
    : size_(real_size(size, kind, batch)),
      batch_(batch),
      kind_(kind),
      placement_(placement),
      precision_(precision),
      input_(input_bytes_of(stacked(size, batch), kind, placement, precision)),
      got_(output_bytes_of(stacked(size, batch), kind, placement, precision)),
      buffers_{DeviceBuffer(input_bytes_of(stacked(size, batch), kind, placement, precision)),
               DeviceBuffer(output_bytes_of(stacked(size, batch), kind, placement, precision))} {
  const bool fp64 = precision_ == Precision::fp64;
  if (kind_ == TransformKind::r2c) fp64 ? make_r2c_input<double>(seed) : make_r2c_input<float>(seed);
  else fp64 ? make_c2r_input<double>(seed, spectrum) : make_c2r_input<float>(seed, spectrum);
  restore_input();
}

template <class Real>
void RealCheck::make_r2c_input(std::uint64_t seed) {
  const Extents all = stacked(size_, batch_);
  reals_ = random_reals<Real>(all.elements(), seed);
  Real* host = reinterpret_cast<Real*>(input_.data());
  const std::int64_t pitch = real_row_pitch(all, placement_), rows = all.ny * all.nz;
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::int64_t x = 0; x < pitch; ++x)
      host[count(row * pitch + x)] =
          x < all.nx ? static_cast<Real>(reals_[count(row * all.nx + x)]) : padding_value<Real>;
  spectrum_.resize(count(half_spectrum_elements(all)));
  cufft_r2c_reference(size_, reals_, spectrum_);
}

template <class Real>
void RealCheck::make_c2r_input(std::uint64_t seed, SpectrumInput spectrum) {
  const Extents all = stacked(size_, batch_);
  const std::size_t per_volume = count(half_spectrum_elements(size_));
  std::vector<std::complex<double>> half(count(half_spectrum_elements(all)));
  cufft_r2c_reference(size_, random_reals<Real>(all.elements(), seed), half);
  for_each_volume(std::span(half), per_volume, [&](std::size_t v, std::span<std::complex<double>> volume) {
    keep_hermitian_part(size_, volume);
    if (spectrum == SpectrumInput::non_hermitian_x_planes)
      add_anti_hermitian_part(size_, volume, seed + 1 + v, rms(volume));
  });
  std::complex<Real>* host = reinterpret_cast<std::complex<Real>*>(input_.data());
  for (std::size_t i = 0; i < half.size(); ++i) {
    host[i] = std::complex<Real>(half[i]);
    half[i] = std::complex<double>(host[i]);
  }
  // What the reference transforms: the Hermitian part of what the GPU reads.
  for_each_volume(std::span(half), per_volume,
                  [&](std::size_t, std::span<std::complex<double>> volume) { keep_hermitian_part(size_, volume); });
  reals_.resize(count(all.elements()));
  cufft_c2r_reference(size_, half, reals_);
}

RealRun RealCheck::run(const RealBuffers& buffers) const {
  if (placement_ == Placement::in_place) return {buffers.out.get(), buffers.out.get()};
  return {buffers.in.get(), buffers.out.get()};
}

ErrorReport RealCheck::check(const std::function<void()>& transform, Scaling scaling) {
  return check(buffers_, transform, scaling);
}

ErrorReport RealCheck::check(RealBuffers& buffers, const std::function<void()>& transform, Scaling scaling) {
  if (buffers.in.bytes() != input_bytes() || buffers.out.bytes() != output_bytes())
    throw UsageError("RealCheck::check: buffers of another check's layout");
  if (placement_ == Placement::in_place) buffers.out.copy_from(buffers.in);
  else buffers.out.poison_nan();
  transform();
  buffers.out.download(got_.data());
  return precision_ == Precision::fp64 ? compare_output<double>(scaling) : compare_output<float>(scaling);
}

template <class Real>
ErrorReport RealCheck::compare_output(Scaling scaling) const {
  const double scale = scale_of(scaling, size_);
  if (kind_ == TransformKind::c2r) return compare_real_volumes(reinterpret_cast<const Real*>(got_.data()), scale);
  const std::span<const std::complex<Real>> got(reinterpret_cast<const std::complex<Real>*>(got_.data()),
                                                spectrum_.size());
  std::vector<std::complex<double>> scaled;  // the reference times `scale`, where that is not 1
  if (scaling != Scaling::none) {
    scaled = spectrum_;
    for (std::complex<double>& value : scaled) value *= scale;
  }
  const std::span<const std::complex<double>> reference = scaling == Scaling::none ? spectrum_ : scaled;
  const std::size_t per_volume = count(half_spectrum_elements(size_));
  WorstVolume worst;
  for_each_volume(got, per_volume, [&](std::size_t v, std::span<const std::complex<Real>> volume) {
    worst.add(v, per_volume, compare(volume, reference.subspan(v * per_volume, per_volume)));
  });
  return worst.report();
}

template <class Real>
ErrorReport RealCheck::compare_real_volumes(const Real* got, double scale) const {
  const std::int64_t pitch = real_row_pitch(size_, placement_);
  const std::size_t per_volume = count(size_.elements());
  const std::size_t got_per_volume = count(pitch * size_.ny * size_.nz);
  WorstVolume worst;
  for_each_volume(std::span(reals_), per_volume, [&](std::size_t v, std::span<const double> reference) {
    worst.add(v, per_volume, compare_reals(got + v * got_per_volume, pitch, size_, reference, scale));
  });
  return worst.report();
}

ErrorReport RealCheck::check_round_trip(const std::function<void(float* reals_back)>& transforms) {
  if (kind_ != TransformKind::r2c || precision_ != Precision::fp32)
    throw UsageError("RealCheck::check_round_trip: an fp32 R2C check's");
  std::optional<DeviceBuffer> own;  // out of place: the reals come back into a buffer of their own
  if (placement_ == Placement::in_place) {
    buffers_.out.copy_from(buffers_.in);
  } else {
    buffers_.out.poison_nan();
    own.emplace(buffers_.in.bytes());
    own->poison_nan();
  }
  DeviceBuffer& back = own ? *own : buffers_.out;
  transforms(static_cast<float*>(back.get()));
  std::vector<std::complex<float>> values(back.bytes() / sizeof(std::complex<float>));
  back.download(values.data());
  return compare_real_volumes(reinterpret_cast<const float*>(values.data()), 1.0);
}

bool RealCheck::input_unchanged(const RealBuffers& buffers) const {
  std::vector<std::byte> now(input_.size());
  buffers.in.download(now.data());
  return std::memcmp(now.data(), input_.data(), input_bytes()) == 0;
}

void RealCheck::restore_input(RealBuffers& buffers) const { buffers.in.upload(input_.data()); }

RealBuffers RealCheck::make_buffers() const {
  RealBuffers buffers{DeviceBuffer(input_bytes()), DeviceBuffer(output_bytes())};
  restore_input(buffers);
  return buffers;
}

}  // namespace fft3d::validate
