// A check that needs no oracle: an input whose transform is known in closed form. For volumes whose fp64 oracle fits
// neither the host nor the GPU (2048^3: 128 GiB in fp64), the input is a sum of a few plane waves with random
// frequencies and amplitudes,
//   x(n) = sum_w a_w exp(+2 pi i (kx_w x / NX + ky_w y / NY + kz_w z / NZ)),
// whose forward DFT (sign -1) is N a_w at (kx_w, ky_w, kz_w) and zero elsewhere, and whose inverse DFT (sign +1) is
// N a_w at (-k_w mod N). Every output element is compared, spikes and zeros alike. Everything works on chunks of the
// volume (linear index x + NX*(y + NY*z)), so a volume never has to fit in host memory at once.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "fft3d/plan_ir.hpp"
#include "fft3d/transform.hpp"
#include "validate/oracle.hpp"

namespace fft3d::validate {

struct PlaneWave {
  std::int64_t kx = 0, ky = 0, kz = 0;
  std::complex<double> amplitude;
};

struct PlaneWaves {
  Extents size;
  std::vector<PlaneWave> waves;
};

// `count` waves at distinct random frequencies, amplitudes of modulus in [0.5, 1) at random phases, from a seed.
// @pre 1 <= count <= size.elements().
PlaneWaves random_plane_waves(const Extents& size, int count, std::uint64_t seed);

// x(n) for the elements [first, first + out.size()), computed in fp64 and rounded once to the data's precision.
void plane_wave_values(const PlaneWaves& waves, std::int64_t first, std::span<std::complex<float>> out);
void plane_wave_values(const PlaneWaves& waves, std::int64_t first, std::span<std::complex<double>> out);

// The running error of a chunked comparison; report() gives what compare() gives for a whole volume.
class ChunkedError {
 public:
  void add(const ChunkedError& other);
  void add(std::int64_t index, std::complex<double> actual, std::complex<double> expected);
  ErrorReport report() const;

 private:
  double difference_squared_ = 0, reference_squared_ = 0;
  ErrorReport peak_;
};

// The elements [first, first + actual.size()) of the transform of `waves` in `direction`, times `scale`,
// against the closed form (spikes).
ChunkedError compare_spectrum(const PlaneWaves& waves, Direction direction, double scale, std::int64_t first,
                              std::span<const std::complex<float>> actual);
ChunkedError compare_spectrum(const PlaneWaves& waves, Direction direction, double scale, std::int64_t first,
                              std::span<const std::complex<double>> actual);
// The elements [first, first + actual.size()) against the input itself, as plane_wave_values rounds it (the
// round trip's check).
ChunkedError compare_waves(const PlaneWaves& waves, std::int64_t first, std::span<const std::complex<float>> actual);
ChunkedError compare_waves(const PlaneWaves& waves, std::int64_t first, std::span<const std::complex<double>> actual);

// Real transforms (R2C): plane waves in conjugate pairs, whose sum
//   x(n) = sum_w a_w exp(+2 pi i k_w·n / N) + conj(a_w) exp(-2 pi i k_w·n / N)
// is real; its forward DFT is N a_w at k_w, N conj(a_w) at -k_w (mod N) and zero elsewhere, and the half spectrum
// (NX/2 + 1, NY, NZ) keeps the spikes whose X frequency is at most NX/2. Every element is compared, in chunks of the
// half spectrum's natural order (x + (NX/2 + 1)*(y + NY*z)) or of the reals' (x + NX*(y + NY*z)).

// `pairs` conjugate pairs of waves at distinct random frequencies (a frequency that is its own conjugate, k = -k mod
// N, takes one wave of real amplitude instead), amplitudes of modulus in [0.5, 1), from a seed: a PlaneWaves whose
// values are real. @pre 1 <= pairs and 2 * pairs <= size.elements() (any NX: an odd one's half spectrum keeps the
// X frequencies 0 .. (NX - 1)/2, as for an even one 0 .. NX/2).
PlaneWaves random_real_plane_waves(const Extents& size, int pairs, std::uint64_t seed);

// The real values x(n) for the elements [first, first + out.size()), rounded once to the data's precision.
void plane_wave_reals(const PlaneWaves& waves, std::int64_t first, std::span<float> out);
void plane_wave_reals(const PlaneWaves& waves, std::int64_t first, std::span<double> out);

// The elements [first, first + actual.size()) of the half spectrum of the forward transform of `waves`, times
// `scale`, against the closed form (spikes).
ChunkedError compare_half_spectrum(const PlaneWaves& waves, double scale, std::int64_t first,
                                   std::span<const std::complex<float>> actual);
ChunkedError compare_half_spectrum(const PlaneWaves& waves, double scale, std::int64_t first,
                                   std::span<const std::complex<double>> actual);

// The reals [first, first + actual.size()) against the input itself, as plane_wave_reals rounds it (the round
// trip's check).
ChunkedError compare_reals(const PlaneWaves& waves, std::int64_t first, std::span<const float> actual);
ChunkedError compare_reals(const PlaneWaves& waves, std::int64_t first, std::span<const double> actual);

}  // namespace fft3d::validate
