#include "validate/oracle.hpp"

#include <unistd.h>

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "fft3d/diagnostics.hpp"
#include "fft3d/index_maps.hpp"
#include "parallel_for.hpp"

namespace fft3d::validate {
namespace {

// FFTW's planner is not thread-safe; its execute is.
std::mutex& fftw_planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

void require_size(std::size_t given, const Extents& size, const char* what) {
  if (static_cast<std::int64_t>(given) != size.elements())
    throw UsageError(std::string("validate: the ") + what + " buffer holds " + std::to_string(given) +
                     " values; size " + to_string(size) + " needs " + std::to_string(size.elements()));
}

// Moves frequency f of every line along one axis from its digit-reversed position to f. The axis's elements are
// `blocks` of `block` contiguous values (block = 1, nx or nx*ny), `length` blocks per line; the permutation
// follows its cycles with temporary storage for one block, so it needs no second volume. Work units are (line,
// column range of the block): disjoint sets of elements, so threads take them in parallel.
void permute_blocks_to_natural(std::span<std::complex<double>> data, std::int64_t block, std::int64_t length,
                               const std::vector<std::int64_t>& position_of_frequency) {
  const std::int64_t lines = static_cast<std::int64_t>(data.size()) / (block * length);
  // Columns per unit: whole blocks when there are many lines, else slices of 4096 columns (32 KB of copies per
  // cycle step) so that one long line still spreads over the threads.
  const std::int64_t slice = std::min<std::int64_t>(block, 4096);
  const std::int64_t slices = (block + slice - 1) / slice;
  const std::int64_t units = lines * slices;
  parallel_for(units, threads_for(units, std::max<std::int64_t>(1, (1 << 16) / (slice * length))),
               [&](std::int64_t first_unit, std::int64_t end_unit) {
    std::vector<std::complex<double>> saved(static_cast<std::size_t>(slice));
    std::vector<bool> placed(static_cast<std::size_t>(length));
    for (std::int64_t unit = first_unit; unit < end_unit; ++unit) {
      const std::int64_t line = unit / slices;
      const std::int64_t column = (unit % slices) * slice;
      const std::int64_t width = std::min(slice, block - column);
      auto block_at = [&](std::int64_t index) { return data.begin() + (line * length + index) * block + column; };
      std::fill(placed.begin(), placed.end(), false);
      for (std::int64_t start = 0; start < length; ++start) {
        if (placed[static_cast<std::size_t>(start)]) continue;
        std::copy(block_at(start), block_at(start) + width, saved.begin());
        std::int64_t target = start;
        for (;;) {
          placed[static_cast<std::size_t>(target)] = true;
          const std::int64_t source = position_of_frequency[static_cast<std::size_t>(target)];
          if (source == start) {
            std::copy(saved.begin(), saved.begin() + width, block_at(target));
            break;
          }
          std::copy(block_at(source), block_at(source) + width, block_at(target));
          target = source;
        }
      }
    }
  });
}

// The error sums of one fixed chunk of the buffers. Chunks have a fixed size (not one per thread), so the sums,
// reduced in chunk order, are the same on every machine whatever its thread count.
struct ChunkErrors {
  long double error_norm = 0;
  long double ref_norm = 0;
  double peak_error = 0;          // over finite values
  std::int64_t peak_index = -1;   // first occurrence of peak_error in the chunk
  std::int64_t non_finite = 0;
  std::int64_t first_non_finite = -1;
};

template <class Real>
std::complex<double> widened(std::complex<Real> value) { return {value.real(), value.imag()}; }
template <class Real>
std::complex<double> widened(Real value) { return {value, 0}; }

template <class Value, class Reference>
ChunkErrors chunk_errors(std::span<const Value> out, std::span<const Reference> ref, std::size_t begin,
                         std::size_t end) {
  ChunkErrors chunk;
  for (std::size_t i = begin; i < end; ++i) {
    const std::complex<double> value = widened(out[i]);
    if (!std::isfinite(value.real()) || !std::isfinite(value.imag())) {
      if (chunk.non_finite++ == 0) chunk.first_non_finite = static_cast<std::int64_t>(i);
      continue;
    }
    const std::complex<double> reference = widened(ref[i]);
    const double error = std::abs(value - reference);
    chunk.error_norm += static_cast<long double>(error) * error;
    chunk.ref_norm += std::norm(static_cast<std::complex<long double>>(reference));
    if (chunk.peak_index < 0 || error > chunk.peak_error) {
      chunk.peak_error = error;
      chunk.peak_index = static_cast<std::int64_t>(i);
    }
  }
  return chunk;
}

// Contract: peak_index is the first non-finite value if there is one (peak_error is then infinite), else the
// first occurrence of the largest error; sums are taken over finite values only.
template <class Value, class Reference>
ErrorReport compare_values(std::span<const Value> out, std::span<const Reference> ref) {
  if (out.size() != ref.size())
    throw UsageError("validate::compare: " + std::to_string(out.size()) + " values against a reference of " +
                     std::to_string(ref.size()));
  constexpr std::size_t chunk_size = 1 << 16;
  const std::int64_t chunks = static_cast<std::int64_t>((out.size() + chunk_size - 1) / chunk_size);
  std::vector<ChunkErrors> partial(static_cast<std::size_t>(chunks));
  parallel_for(chunks, threads_for(chunks, 4), [&](std::int64_t first, std::int64_t end) {
    for (std::int64_t c = first; c < end; ++c) {
      const std::size_t begin = static_cast<std::size_t>(c) * chunk_size;
      partial[static_cast<std::size_t>(c)] = chunk_errors(out, ref, begin, std::min(out.size(), begin + chunk_size));
    }
  });
  ErrorReport report;
  long double error_norm = 0;
  long double ref_norm = 0;
  for (const ChunkErrors& chunk : partial) {
    error_norm += chunk.error_norm;
    ref_norm += chunk.ref_norm;
    if (chunk.non_finite > 0 && report.non_finite == 0) {
      report.peak_index = chunk.first_non_finite;
      report.peak_error = std::numeric_limits<double>::infinity();
    }
    report.non_finite += chunk.non_finite;
    if (report.non_finite == 0 && chunk.peak_index >= 0 && chunk.peak_error > report.peak_error) {
      report.peak_error = chunk.peak_error;
      report.peak_index = chunk.peak_index;
    }
  }
  report.relative_l2 = ref_norm > 0 ? static_cast<double>(std::sqrt(error_norm / ref_norm))
                                    : static_cast<double>(std::sqrt(error_norm));
  return report;
}

template <class Real>
void poison_values(std::span<std::complex<Real>> data) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  std::fill(data.begin(), data.end(), std::complex<Real>(nan, nan));
}
template <class Real>
void poison_values(std::span<Real> data) {
  std::fill(data.begin(), data.end(), std::numeric_limits<Real>::quiet_NaN());
}

// splitmix64: a counter-based generator, so the values depend on the seed only, never on the platform's
// distribution implementations.
class UniformValues {
 public:
  explicit UniformValues(std::uint64_t seed) : state_(seed) {}
  double next() {  // uniform in [-1, 1)
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;  // 53 random bits onto [-1, 1)
  }

 private:
  std::uint64_t state_;
};

// Runs and destroys an FFTW plan that `make` creates under the planner lock.
template <class MakePlan>
void run_fftw(const Extents& size, MakePlan make) {
  fftw_plan plan;
  {
    const std::lock_guard lock(fftw_planner_mutex());
    plan = make();
  }
  if (plan == nullptr) throw UsageError("validate: FFTW could not plan a transform of size " + to_string(size));
  fftw_execute(plan);
  const std::lock_guard lock(fftw_planner_mutex());
  fftw_destroy_plan(plan);
}

// Multiplies by the scaling's factor for `transformed` values (the volume, or the product of a subset of axes'
// lengths): 1/N for full, 1/sqrt(N) for ortho.
template <class Value>
void scale_values(std::span<Value> values, std::int64_t transformed, Scaling scaling) {
  if (scaling == Scaling::none) return;
  const double factor = scale_factor(scaling, transformed);
  for (Value& value : values) value *= factor;
}

template <class Value>
void scale_values(std::span<Value> values, const Extents& size, Scaling scaling) {
  scale_values(values, size.elements(), scaling);
}

// One FFTW guru dimension per axis of `size`: its length and its stride (X contiguous), for input and output alike.
fftw_iodim64 iodim_of(const Extents& size, Axis axis) {
  const std::int64_t stride = axis == Axis::x ? 1 : axis == Axis::y ? size.nx : size.nx * size.ny;
  return {static_cast<std::ptrdiff_t>(size[axis]), static_cast<std::ptrdiff_t>(stride),
          static_cast<std::ptrdiff_t>(stride)};
}

void require_count(std::size_t given, std::int64_t needed, const Extents& size, const char* what) {
  if (static_cast<std::int64_t>(given) != needed)
    throw UsageError(std::string("validate: the ") + what + " buffer holds " + std::to_string(given) +
                     " values; size " + to_string(size) + " needs " + std::to_string(needed));
}

std::int64_t half_spectrum_elements(const Extents& size) { return (size.nx / 2 + 1) * size.ny * size.nz; }

}  // namespace

void fftw_reference(const Extents& size, std::span<const std::complex<double>> in,
                    std::span<std::complex<double>> out, Direction direction, Scaling scaling) {
  require_size(in.size(), size, "input");
  require_size(out.size(), size, "output");
  // FFTW takes a non-const input; FFTW_PRESERVE_INPUT (out of place) and FFTW_ESTIMATE (no trial runs) keep it
  // untouched.
  auto* source = reinterpret_cast<fftw_complex*>(const_cast<std::complex<double>*>(in.data()));
  auto* target = reinterpret_cast<fftw_complex*>(out.data());
  const int sign = direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD;
  const unsigned flags = FFTW_ESTIMATE | (source == target ? 0u : FFTW_PRESERVE_INPUT);
  // Row-major dims, slowest first: (nz, ny, nx) makes X the contiguous axis.
  run_fftw(size, [&] {
    return fftw_plan_dft_3d(static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx), source,
                            target, sign, flags);
  });
  scale_values(out, size, scaling);
}

void fftw_axes_reference(const Extents& size, const std::vector<Axis>& axes, std::span<const std::complex<double>> in,
                         std::span<std::complex<double>> out, Direction direction, Scaling scaling) {
  require_size(in.size(), size, "input");
  require_size(out.size(), size, "output");
  std::vector<fftw_iodim64> dims, batch;  // both slowest first, as FFTW's row-major convention lists them
  std::int64_t transformed = 1;
  for (Axis axis : {Axis::z, Axis::y, Axis::x}) {
    const auto listed = std::count(axes.begin(), axes.end(), axis);
    if (listed > 1) throw UsageError("validate: axis " + std::string(1, axis_letter(axis)) + " listed twice in axes");
    (listed == 1 ? dims : batch).push_back(iodim_of(size, axis));
    if (listed == 1) transformed *= size[axis];
  }
  if (dims.empty()) throw UsageError("validate: the DFT over no axis: name at least one of X, Y, Z");
  auto* source = reinterpret_cast<fftw_complex*>(const_cast<std::complex<double>*>(in.data()));
  auto* target = reinterpret_cast<fftw_complex*>(out.data());
  const int sign = direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD;
  const unsigned flags = FFTW_ESTIMATE | (source == target ? 0u : FFTW_PRESERVE_INPUT);
  run_fftw(size, [&] {
    return fftw_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(batch.size()),
                                batch.data(), source, target, sign, flags);
  });
  scale_values(out, transformed, scaling);
}

void fftw_r2c_reference(const Extents& size, std::span<const double> in, std::span<std::complex<double>> out,
                        Scaling scaling) {
  require_count(in.size(), size.elements(), size, "real input");
  require_count(out.size(), half_spectrum_elements(size), size, "half-spectrum output");
  // FFTW_PRESERVE_INPUT is the default of out-of-place r2c; FFTW_ESTIMATE makes no trial runs on the buffers.
  auto* source = const_cast<double*>(in.data());
  auto* target = reinterpret_cast<fftw_complex*>(out.data());
  run_fftw(size, [&] {
    return fftw_plan_dft_r2c_3d(static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx),
                                source, target, FFTW_ESTIMATE);
  });
  scale_values(out, size, scaling);
}

void fftw_c2r_reference(const Extents& size, std::span<const std::complex<double>> in, std::span<double> out,
                        Scaling scaling) {
  require_count(in.size(), half_spectrum_elements(size), size, "half-spectrum input");
  require_count(out.size(), size.elements(), size, "real output");
  std::vector<std::complex<double>> copy(in.begin(), in.end());
  auto* source = reinterpret_cast<fftw_complex*>(copy.data());
  run_fftw(size, [&] {
    return fftw_plan_dft_c2r_3d(static_cast<int>(size.nz), static_cast<int>(size.ny), static_cast<int>(size.nx),
                                source, out.data(), FFTW_ESTIMATE);
  });
  scale_values(out, size, scaling);
}

namespace {

// A real transform's guru dimensions over `axes` (transformed) and the rest (batch), slowest first: the real side's
// strides (X contiguous, rows of NX) and the half spectrum's (rows of NX/2 + 1), in the order `real_to_complex`
// says; and the product of the transformed lengths.
struct RealDims {
  std::vector<fftw_iodim64> dims, batch;
  std::int64_t transformed = 1;
};
RealDims real_dims(const Extents& size, const std::vector<Axis>& axes, bool real_to_complex) {
  if (std::count(axes.begin(), axes.end(), Axis::x) != 1)
    throw UsageError("validate: a real DFT over some axes needs X among them, once (the halved axis)");
  const std::int64_t half = size.nx / 2 + 1;
  RealDims d;
  for (Axis axis : {Axis::z, Axis::y, Axis::x}) {
    const auto listed = std::count(axes.begin(), axes.end(), axis);
    if (listed > 1) throw UsageError("validate: axis " + std::string(1, axis_letter(axis)) + " listed twice in axes");
    const std::int64_t reals = axis == Axis::x ? 1 : axis == Axis::y ? size.nx : size.nx * size.ny;
    const std::int64_t values = axis == Axis::x ? 1 : axis == Axis::y ? half : half * size.ny;
    const fftw_iodim64 dim{static_cast<std::ptrdiff_t>(size[axis]),
                           static_cast<std::ptrdiff_t>(real_to_complex ? reals : values),
                           static_cast<std::ptrdiff_t>(real_to_complex ? values : reals)};
    (listed == 1 ? d.dims : d.batch).push_back(dim);
    if (listed == 1) d.transformed *= size[axis];
  }
  return d;
}

}  // namespace

void fftw_axes_r2c_reference(const Extents& size, const std::vector<Axis>& axes, std::span<const double> in,
                             std::span<std::complex<double>> out, Scaling scaling) {
  require_count(in.size(), size.elements(), size, "real input");
  require_count(out.size(), half_spectrum_elements(size), size, "half-spectrum output");
  const RealDims d = real_dims(size, axes, true);
  auto* source = const_cast<double*>(in.data());
  auto* target = reinterpret_cast<fftw_complex*>(out.data());
  run_fftw(size, [&] {
    return fftw_plan_guru64_dft_r2c(static_cast<int>(d.dims.size()), d.dims.data(), static_cast<int>(d.batch.size()),
                                    d.batch.data(), source, target, FFTW_ESTIMATE);
  });
  scale_values(out, d.transformed, scaling);
}

void fftw_axes_c2r_reference(const Extents& size, const std::vector<Axis>& axes,
                             std::span<const std::complex<double>> in, std::span<double> out, Scaling scaling) {
  require_count(in.size(), half_spectrum_elements(size), size, "half-spectrum input");
  require_count(out.size(), size.elements(), size, "real output");
  const RealDims d = real_dims(size, axes, false);
  std::vector<std::complex<double>> copy(in.begin(), in.end());  // FFTW's c2r overwrites its input
  auto* source = reinterpret_cast<fftw_complex*>(copy.data());
  run_fftw(size, [&] {
    return fftw_plan_guru64_dft_c2r(static_cast<int>(d.dims.size()), d.dims.data(), static_cast<int>(d.batch.size()),
                                    d.batch.data(), source, out.data(), FFTW_ESTIMATE);
  });
  scale_values(out, d.transformed, scaling);
}

void to_natural_order(const Plan& plan, std::span<std::complex<double>> data) {
  require_size(data.size(), plan.size, "data");
  std::int64_t block = 1;
  for (Axis axis : all_axes) {
    const std::vector<std::int64_t> radices = radices_of(plan, axis);
    if (!radices.empty()) permute_blocks_to_natural(data, block, plan.size[axis], digit_reversed_positions(radices));
    block *= plan.size[axis];
  }
}

ErrorReport compare(std::span<const std::complex<double>> out, std::span<const std::complex<double>> ref) {
  return compare_values(out, ref);
}

ErrorReport compare(std::span<const std::complex<float>> out, std::span<const std::complex<double>> ref) {
  return compare_values(out, ref);
}

ErrorReport compare(std::span<const double> out, std::span<const double> ref) { return compare_values(out, ref); }

ErrorReport compare(std::span<const float> out, std::span<const double> ref) { return compare_values(out, ref); }

std::int64_t host_memory_bytes() {
  return static_cast<std::int64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::int64_t>(sysconf(_SC_PAGE_SIZE));
}

void fill_random(std::span<std::complex<double>> data, std::uint64_t seed) {
  UniformValues uniform(seed);
  for (std::complex<double>& value : data) {
    const double re = uniform.next();
    value = {re, uniform.next()};
  }
}

void fill_random(std::span<double> data, std::uint64_t seed) {
  UniformValues uniform(seed);
  for (double& value : data) value = uniform.next();
}

void poison(std::span<std::complex<double>> data) { poison_values(data); }
void poison(std::span<std::complex<float>> data) { poison_values(data); }
void poison(std::span<double> data) { poison_values(data); }
void poison(std::span<float> data) { poison_values(data); }

}  // namespace fft3d::validate
