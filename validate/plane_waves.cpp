#include "validate/plane_waves.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numbers>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

#include "parallel_for.hpp"

namespace fft3d::validate {
namespace {

using Complex = std::complex<double>;

// exp(+2 pi i k p / n) for p < n, the exponent reduced exactly in integers first.
std::vector<Complex> axis_phases(std::int64_t k, std::int64_t n) {
  std::vector<Complex> phases(static_cast<std::size_t>(n));
  for (std::int64_t p = 0; p < n; ++p) {
    const double angle = 2.0 * std::numbers::pi * static_cast<double>(k * p % n) / static_cast<double>(n);
    phases[static_cast<std::size_t>(p)] = {std::cos(angle), std::sin(angle)};
  }
  return phases;
}

struct WaveTables {
  std::vector<Complex> amplitude;
  std::vector<std::vector<Complex>> x, y, z;  // per wave
};

WaveTables tables_of(const PlaneWaves& waves) {
  WaveTables t;
  for (const PlaneWave& w : waves.waves) {
    t.amplitude.push_back(w.amplitude);
    t.x.push_back(axis_phases(w.kx, waves.size.nx));
    t.y.push_back(axis_phases(w.ky, waves.size.ny));
    t.z.push_back(axis_phases(w.kz, waves.size.nz));
  }
  return t;
}

Complex wave_value(const WaveTables& t, std::int64_t x, std::int64_t y, std::int64_t z) {
  Complex sum = 0;
  for (std::size_t w = 0; w < t.amplitude.size(); ++w)
    sum += t.amplitude[w] * t.x[w][static_cast<std::size_t>(x)] * t.y[w][static_cast<std::size_t>(y)] *
           t.z[w][static_cast<std::size_t>(z)];
  return sum;
}

// v rounded once to the data's precision.
template <class Real>
std::complex<Real> rounded(Complex v) {
  return {static_cast<Real>(v.real()), static_cast<Real>(v.imag())};
}

// Runs body(begin, end, error) over [0, count) on the host's threads and merges the errors.
template <class Body>
ChunkedError chunked(std::int64_t count, Body body) {
  ChunkedError total;
  std::mutex merging;
  parallel_for(count, threads_for(count, 1 << 16), [&](std::int64_t begin, std::int64_t end) {
    ChunkedError part;
    body(begin, end, part);
    const std::lock_guard<std::mutex> lock(merging);
    total.add(part);
  });
  return total;
}

}  // namespace

PlaneWaves random_plane_waves(const Extents& size, int count, std::uint64_t seed) {
  if (count < 1 || count > size.elements())
    throw std::invalid_argument("random_plane_waves: " + std::to_string(count) + " waves in " +
                                std::to_string(size.elements()) + " frequencies");
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto frequency = [&](std::int64_t n) {
    return static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(n));
  };
  PlaneWaves waves{size, {}};
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> used;
  while (static_cast<int>(waves.waves.size()) < count) {
    PlaneWave w{frequency(size.nx), frequency(size.ny), frequency(size.nz), {}};
    if (!used.insert({w.kx, w.ky, w.kz}).second) continue;
    w.amplitude = std::polar(0.5 + 0.5 * unit(random), 2.0 * std::numbers::pi * unit(random));
    waves.waves.push_back(w);
  }
  return waves;
}

PlaneWaves random_real_plane_waves(const Extents& size, int pairs, std::uint64_t seed) {
  if (pairs < 1 || 2 * static_cast<std::int64_t>(pairs) > size.elements())
    throw std::invalid_argument("random_real_plane_waves: " + std::to_string(pairs) + " pairs of waves in " +
                                to_string(size) + " (two frequencies a pair)");
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto frequency = [&](std::int64_t n) {
    return static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(n));
  };
  auto conjugate = [](std::int64_t k, std::int64_t n) { return (n - k) % n; };
  PlaneWaves waves{size, {}};
  std::set<std::tuple<std::int64_t, std::int64_t, std::int64_t>> used;
  for (int made = 0; made < pairs;) {
    PlaneWave w{frequency(size.nx), frequency(size.ny), frequency(size.nz), {}};
    const PlaneWave partner{conjugate(w.kx, size.nx), conjugate(w.ky, size.ny), conjugate(w.kz, size.nz), {}};
    const std::tuple key{w.kx, w.ky, w.kz}, partner_key{partner.kx, partner.ky, partner.kz};
    if (used.contains(key) || used.contains(partner_key)) continue;
    const Complex amplitude = std::polar(0.5 + 0.5 * unit(random), 2.0 * std::numbers::pi * unit(random));
    used.insert(key);
    ++made;
    if (key == partner_key) {  // its own conjugate: a real amplitude keeps the sum real
      w.amplitude = std::abs(amplitude);
      waves.waves.push_back(w);
      continue;
    }
    used.insert(partner_key);
    w.amplitude = amplitude;
    waves.waves.push_back(w);
    waves.waves.push_back({partner.kx, partner.ky, partner.kz, std::conj(amplitude)});
  }
  return waves;
}

namespace {

// out[i] = convert(x(first + i)) for the elements of `out`, on the host's threads.
template <class T, class Convert>
void fill_with_waves(const PlaneWaves& waves, std::int64_t first, std::span<T> out, Convert convert) {
  const WaveTables t = tables_of(waves);
  const Extents& n = waves.size;
  parallel_for(static_cast<std::int64_t>(out.size()), threads_for(static_cast<std::int64_t>(out.size()), 1 << 16),
               [&](std::int64_t begin, std::int64_t end) {
                 for (std::int64_t i = begin; i < end; ++i) {
                   const std::int64_t e = first + i;
                   out[static_cast<std::size_t>(i)] =
                       convert(wave_value(t, e % n.nx, e / n.nx % n.ny, e / (n.nx * n.ny)));
                 }
               });
}

template <class Real>
void values_of(const PlaneWaves& waves, std::int64_t first, std::span<std::complex<Real>> out) {
  fill_with_waves(waves, first, out, [](Complex v) { return rounded<Real>(v); });
}

}  // namespace

void ChunkedError::add(const ChunkedError& other) {
  difference_squared_ += other.difference_squared_;
  reference_squared_ += other.reference_squared_;
  peak_.non_finite += other.peak_.non_finite;
  if (other.peak_.peak_error > peak_.peak_error) {
    peak_.peak_error = other.peak_.peak_error;
    peak_.peak_index = other.peak_.peak_index;
  }
}

void ChunkedError::add(std::int64_t index, Complex actual, Complex expected) {
  reference_squared_ += std::norm(expected);
  if (!std::isfinite(actual.real()) || !std::isfinite(actual.imag())) {
    ++peak_.non_finite;
    return;
  }
  difference_squared_ += std::norm(actual - expected);
  const double error = std::abs(actual - expected);
  if (error > peak_.peak_error) {
    peak_.peak_error = error;
    peak_.peak_index = index;
  }
}

ErrorReport ChunkedError::report() const {
  ErrorReport report = peak_;
  report.relative_l2 = reference_squared_ > 0 ? std::sqrt(difference_squared_ / reference_squared_) : 0.0;
  return report;
}

namespace {

// (element index, expected value) of a transform's nonzero elements.
using Spikes = std::vector<std::pair<std::int64_t, Complex>>;

// The elements [first, first + actual.size()) against `spikes` there and zero elsewhere.
template <class Real>
ChunkedError spikes_error(Spikes spikes, std::int64_t first, std::span<const std::complex<Real>> actual) {
  std::sort(spikes.begin(), spikes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return chunked(static_cast<std::int64_t>(actual.size()), [&](std::int64_t begin, std::int64_t end, ChunkedError& error) {
    auto spike = std::lower_bound(spikes.begin(), spikes.end(), first + begin,
                                  [](const auto& s, std::int64_t index) { return s.first < index; });
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int64_t e = first + i;
      Complex expected = 0;
      if (spike != spikes.end() && spike->first == e) expected = (spike++)->second;
      const std::complex<Real> value = actual[static_cast<std::size_t>(i)];
      error.add(e, {value.real(), value.imag()}, expected);
    }
  });
}

template <class Real>
ChunkedError spectrum_error(const PlaneWaves& waves, Direction direction, double scale, std::int64_t first,
                            std::span<const std::complex<Real>> actual) {
  const Extents& n = waves.size;
  Spikes spikes;
  for (const PlaneWave& w : waves.waves) {
    auto at = [&](std::int64_t k, std::int64_t length) {
      return direction == Direction::forward ? k : (length - k) % length;
    };
    const std::int64_t index = at(w.kx, n.nx) + n.nx * (at(w.ky, n.ny) + n.ny * at(w.kz, n.nz));
    spikes.push_back({index, w.amplitude * static_cast<double>(n.elements()) * scale});
  }
  return spikes_error(std::move(spikes), first, actual);
}

// The forward transform's spikes with an X frequency of at most NX/2, at their half-spectrum index.
template <class Real>
ChunkedError half_spectrum_error(const PlaneWaves& waves, double scale, std::int64_t first,
                                 std::span<const std::complex<Real>> actual) {
  const Extents& n = waves.size;
  const std::int64_t half_width = n.nx / 2 + 1;
  Spikes spikes;
  for (const PlaneWave& w : waves.waves)
    if (w.kx < half_width)
      spikes.push_back({w.kx + half_width * (w.ky + n.ny * w.kz),
                        w.amplitude * static_cast<double>(n.elements()) * scale});
  return spikes_error(std::move(spikes), first, actual);
}

template <class Real>
void reals_of(const PlaneWaves& waves, std::int64_t first, std::span<Real> out) {
  fill_with_waves(waves, first, out, [](Complex v) { return static_cast<Real>(v.real()); });
}

// The elements [first, first + actual.size()) against expected(x(n)), the input as the data's precision holds it.
template <class T, class Expected>
ChunkedError error_against_waves(const PlaneWaves& waves, std::int64_t first, std::span<const T> actual,
                                 Expected expected_of) {
  const WaveTables t = tables_of(waves);
  const Extents& n = waves.size;
  return chunked(static_cast<std::int64_t>(actual.size()), [&](std::int64_t begin, std::int64_t end, ChunkedError& error) {
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int64_t e = first + i;
      const T expected = expected_of(wave_value(t, e % n.nx, e / n.nx % n.ny, e / (n.nx * n.ny)));
      const T value = actual[static_cast<std::size_t>(i)];
      error.add(e, Complex(value), Complex(expected));
    }
  });
}

template <class Real>
ChunkedError reals_error(const PlaneWaves& waves, std::int64_t first, std::span<const Real> actual) {
  return error_against_waves(waves, first, actual, [](Complex v) { return static_cast<Real>(v.real()); });
}

template <class Real>
ChunkedError waves_error(const PlaneWaves& waves, std::int64_t first, std::span<const std::complex<Real>> actual) {
  return error_against_waves(waves, first, actual, [](Complex v) { return rounded<Real>(v); });
}

}  // namespace

void plane_wave_values(const PlaneWaves& waves, std::int64_t first, std::span<std::complex<float>> out) {
  values_of(waves, first, out);
}
void plane_wave_values(const PlaneWaves& waves, std::int64_t first, std::span<std::complex<double>> out) {
  values_of(waves, first, out);
}
ChunkedError compare_spectrum(const PlaneWaves& waves, Direction direction, double scale, std::int64_t first,
                              std::span<const std::complex<float>> actual) {
  return spectrum_error(waves, direction, scale, first, actual);
}
ChunkedError compare_spectrum(const PlaneWaves& waves, Direction direction, double scale, std::int64_t first,
                              std::span<const std::complex<double>> actual) {
  return spectrum_error(waves, direction, scale, first, actual);
}
ChunkedError compare_waves(const PlaneWaves& waves, std::int64_t first, std::span<const std::complex<float>> actual) {
  return waves_error(waves, first, actual);
}
ChunkedError compare_waves(const PlaneWaves& waves, std::int64_t first, std::span<const std::complex<double>> actual) {
  return waves_error(waves, first, actual);
}

void plane_wave_reals(const PlaneWaves& waves, std::int64_t first, std::span<float> out) {
  reals_of(waves, first, out);
}
void plane_wave_reals(const PlaneWaves& waves, std::int64_t first, std::span<double> out) {
  reals_of(waves, first, out);
}
ChunkedError compare_half_spectrum(const PlaneWaves& waves, double scale, std::int64_t first,
                                   std::span<const std::complex<float>> actual) {
  return half_spectrum_error(waves, scale, first, actual);
}
ChunkedError compare_half_spectrum(const PlaneWaves& waves, double scale, std::int64_t first,
                                   std::span<const std::complex<double>> actual) {
  return half_spectrum_error(waves, scale, first, actual);
}
ChunkedError compare_reals(const PlaneWaves& waves, std::int64_t first, std::span<const float> actual) {
  return reals_error(waves, first, actual);
}
ChunkedError compare_reals(const PlaneWaves& waves, std::int64_t first, std::span<const double> actual) {
  return reals_error(waves, first, actual);
}

}  // namespace fft3d::validate
