#include "cpu_passes.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_loops.hpp"
#include "fft3d/index_maps.hpp"

namespace fft3d::cpu {
namespace {

// A batch's points in scratch: row k holds point k of every butterfly of the batch, real and imaginary parts in
// separate arrays so that the loops over a row vectorize.
template <class Real>
struct BatchScratch {
  BatchScratch(std::int64_t rows, std::int64_t width)
      : width(width), re(static_cast<std::size_t>(rows * width)), im(re.size()) {}
  Real* re_row(std::int64_t row) { return re.data() + row * width; }
  Real* im_row(std::int64_t row) { return im.data() + row * width; }
  const Real* re_row(std::int64_t row) const { return re.data() + row * width; }
  const Real* im_row(std::int64_t row) const { return im.data() + row * width; }

  std::int64_t width;
  std::vector<Real> re;
  std::vector<Real> im;
};

// std::complex<Real> is layout-compatible with Real[2] ([complex.numbers]); plain Real access keeps the copy loops
// free of complex-arithmetic calls.
template <class Real>
Real* as_reals(std::complex<Real>* data) { return reinterpret_cast<Real*>(data); }

template <class Real>
void gather(const std::complex<Real>* data, const ButterflyLoops& loops, const ButterflyBatch& batch,
            BatchScratch<Real>& scratch) {
  const Real* source = reinterpret_cast<const Real*>(data);
  const std::int64_t step = 2 * loops.batch.step;
  for (std::int64_t k = 0; k < loops.points; ++k) {
    const Real* point = source + 2 * (batch.base + k * loops.point_step);
    Real* re = scratch.re_row(k);
    Real* im = scratch.im_row(k);
    for (std::int64_t b = 0; b < batch.count; ++b) {
      re[b] = point[b * step];
      im[b] = point[b * step + 1];
    }
  }
}

// The radix-2 step of a column DFT on sub-length `length` (the rows of each block of `length` rows, a half apart):
// sum and difference, the difference times w_length^i.
template <class Real>
void radix2_step(BatchScratch<Real>& scratch, std::int64_t rows, std::int64_t length, std::int64_t columns,
                 const RootTables<Real>& roots) {
  const std::int64_t half = length / 2;
  const std::complex<Real>* w = roots.roots(length);
  for (std::int64_t start = 0; start < rows; start += length) {
    for (std::int64_t i = 0; i < half; ++i) {
      const Real wr = w[i].real();
      const Real wi = w[i].imag();
      Real* ar = scratch.re_row(start + i);
      Real* ai = scratch.im_row(start + i);
      Real* cr = scratch.re_row(start + i + half);
      Real* ci = scratch.im_row(start + i + half);
      for (std::int64_t b = 0; b < columns; ++b) {
        const Real dr = ar[b] - cr[b];
        const Real di = ai[b] - ci[b];
        ar[b] += cr[b];
        ai[b] += ci[b];
        cr[b] = dr * wr - di * wi;
        ci[b] = dr * wi + di * wr;
      }
    }
  }
}

// The P-point DFT constants of an odd prime P: cos and sin of 2 pi m/P (w_P^m = cos - i sin), m < P.
template <int P, class Real>
struct OddPrimeConstants {
  explicit OddPrimeConstants(const RootTables<Real>& roots) {
    const std::complex<Real>* w = roots.roots(P);
    for (int m = 0; m < P; ++m) cosines[m] = w[m].real(), sines[m] = -w[m].imag();
  }
  std::array<Real, P> cosines{};
  std::array<Real, P> sines{};
};

// The step of odd prime P on sub-length `length`: in each block, for each i < length/P, the P-point DFT (forward
// sign) of the rows i + k*(length/P), output q to row i + q*(length/P) times w_length^(i*q). The DFT pairs the
// points k and P-k: y_q = x_0 + sum_k (x_k + x_(P-k)) cos(2 pi kq/P) - i sum_k (x_k - x_(P-k)) sin(2 pi kq/P),
// y_(P-q) the same with +i: 2(P-1) real multiplications per pair of outputs instead of 8(P-1).
template <int P, class Real>
void odd_prime_step(BatchScratch<Real>& scratch, std::int64_t rows, std::int64_t length, std::int64_t columns,
                    const RootTables<Real>& roots) {
  constexpr int pairs = (P - 1) / 2;
  const OddPrimeConstants<P, Real> constants(roots);
  const std::int64_t sub = length / P;
  const std::complex<Real>* w = roots.roots(length);
  for (std::int64_t start = 0; start < rows; start += length) {
    for (std::int64_t i = 0; i < sub; ++i) {
      std::array<Real*, P> re{};
      std::array<Real*, P> im{};
      for (int k = 0; k < P; ++k) {
        re[k] = scratch.re_row(start + i + k * sub);
        im[k] = scratch.im_row(start + i + k * sub);
      }
      for (std::int64_t b = 0; b < columns; ++b) {
        std::array<Real, pairs + 1> sum_re{}, sum_im{}, diff_re{}, diff_im{};
        for (int k = 1; k <= pairs; ++k) {
          sum_re[k] = re[k][b] + re[P - k][b];
          sum_im[k] = im[k][b] + im[P - k][b];
          diff_re[k] = re[k][b] - re[P - k][b];
          diff_im[k] = im[k][b] - im[P - k][b];
        }
        const Real x0_re = re[0][b];
        const Real x0_im = im[0][b];
        Real dc_re = x0_re, dc_im = x0_im;
        for (int k = 1; k <= pairs; ++k) dc_re += sum_re[k], dc_im += sum_im[k];
        std::array<Real, P> y_re{}, y_im{};
        y_re[0] = dc_re;
        y_im[0] = dc_im;
        for (int q = 1; q <= pairs; ++q) {
          Real a_re = x0_re, a_im = x0_im, b_re = 0, b_im = 0;
          for (int k = 1; k <= pairs; ++k) {
            const int m = k * q % P;
            a_re += sum_re[k] * constants.cosines[m];
            a_im += sum_im[k] * constants.cosines[m];
            b_re += diff_re[k] * constants.sines[m];
            b_im += diff_im[k] * constants.sines[m];
          }
          // -i * b = (b_im, -b_re)
          y_re[q] = a_re + b_im;
          y_im[q] = a_im - b_re;
          y_re[P - q] = a_re - b_im;
          y_im[P - q] = a_im + b_re;
        }
        re[0][b] = y_re[0];
        im[0][b] = y_im[0];
        for (int q = 1; q < P; ++q) {
          const std::complex<Real> t = w[i * q];
          re[q][b] = y_re[q] * t.real() - y_im[q] * t.imag();
          im[q][b] = y_re[q] * t.imag() + y_im[q] * t.real();
        }
      }
    }
  }
}

// Each column becomes the `rows`-point DFT (forward sign) of itself by the prime steps of `dft`, decimation in
// frequency: O(r * sum of the primes). Output m ends in row dft.output_rows[m]; the scatter reads it from there. A
// power-of-two radix runs radix-2 steps only.
template <class Real>
void dif_columns(BatchScratch<Real>& scratch, std::int64_t rows, std::int64_t columns, const ColumnDft& dft,
                 const RootTables<Real>& roots) {
  std::int64_t length = rows;
  for (std::int64_t p : dft.factors) {
    switch (p) {
      case 2: radix2_step(scratch, rows, length, columns, roots); break;
      case 3: odd_prime_step<3>(scratch, rows, length, columns, roots); break;
      case 5: odd_prime_step<5>(scratch, rows, length, columns, roots); break;
      case 7: odd_prime_step<7>(scratch, rows, length, columns, roots); break;
      default: throw std::logic_error("CPU backend: no column step for prime " + std::to_string(p));
    }
    length /= p;
  }
}

// Point m of each butterfly of the batch = scratch row source_rows[m], times w_span^(j*m) when `twiddles` (the
// table w_span^e) is given.
template <class Real>
void scatter(std::complex<Real>* data, const ButterflyLoops& loops, const ButterflyBatch& batch,
             const BatchScratch<Real>& scratch, const std::int64_t* source_rows, const std::complex<Real>* twiddles) {
  Real* target = as_reals(data);
  const std::int64_t step = 2 * loops.batch.step;
  for (std::int64_t m = 0; m < loops.points; ++m) {
    Real* point = target + 2 * (batch.base + m * loops.point_step);
    const Real* re = scratch.re_row(source_rows[m]);
    const Real* im = scratch.im_row(source_rows[m]);
    if (twiddles == nullptr || m == 0) {
      for (std::int64_t b = 0; b < batch.count; ++b) {
        point[b * step] = re[b];
        point[b * step + 1] = im[b];
      }
      continue;
    }
    for (std::int64_t b = 0; b < batch.count; ++b) {
      const std::complex<Real> w = twiddles[(batch.offset + b * loops.batch.offset_step) * m];
      point[b * step] = re[b] * w.real() - im[b] * w.imag();
      point[b * step + 1] = re[b] * w.imag() + im[b] * w.real();
    }
  }
}

// Rows of scratch per batch: enough butterflies for long vector loops, few enough to stay in L2.
std::int64_t max_batch_for(std::int64_t rows) { return std::clamp<std::int64_t>(8192 / rows, 1, 32); }

}  // namespace

template <class Real>
void run_sub_computation(const SubComputation& sub, const VolumeLayout& layout, const PlanTables& tables,
                         std::complex<Real>* data, int threads) {
  const ButterflyLoops loops =
      butterfly_loops(layout, sub.axis, sub.radix, sub.stride, sub.span, max_batch_for(sub.radix));
  const RootTables<Real>& roots = tables_for<Real>(tables).roots;
  const ColumnDft& dft = tables.column_dfts.at(sub.radix);
  const std::complex<Real>* twiddles = sub.twiddle ? roots.roots(sub.span) : nullptr;
  parallel_for(loops.batches(), threads, [&](std::int64_t begin, std::int64_t end) {
    BatchScratch<Real> scratch(loops.points, loops.batch_size);
    for (std::int64_t index = begin; index < end; ++index) {
      const ButterflyBatch batch = loops.batch_at(index);
      gather(data, loops, batch, scratch);
      dif_columns(scratch, loops.points, batch.count, dft, roots);
      scatter(data, loops, batch, scratch, dft.output_rows.data(), twiddles);
    }
  });
}

template <class Real>
void permute_to_natural_order(Axis axis, const VolumeLayout& layout, const PlanTables& tables,
                              std::complex<Real>* data, int threads) {
  const std::int64_t length = layout.extents[axis];
  if (length == 1) return;
  // The whole line is one "butterfly" whose transform is the identity; the scatter does the permutation.
  const ButterflyLoops loops = butterfly_loops(layout, axis, length, 1, length, max_batch_for(length));
  const std::int64_t* sources = tables.natural_order_sources[axis_index(axis)].data();
  parallel_for(loops.batches(), threads, [&](std::int64_t begin, std::int64_t end) {
    BatchScratch<Real> scratch(loops.points, loops.batch_size);
    for (std::int64_t index = begin; index < end; ++index) {
      const ButterflyBatch batch = loops.batch_at(index);
      gather(data, loops, batch, scratch);
      scatter<Real>(data, loops, batch, scratch, sources, nullptr);
    }
  });
}

template <class Real>
void conjugate_and_scale(std::complex<Real>* data, std::int64_t count, bool conjugate, Real factor, int threads) {
  const Real imaginary_factor = conjugate ? -factor : factor;
  parallel_for(count, threads, [&](std::int64_t begin, std::int64_t end) {
    Real* values = as_reals(data);
    for (std::int64_t i = begin; i < end; ++i) {
      values[2 * i] *= factor;
      values[2 * i + 1] *= imaginary_factor;
    }
  });
}

template void run_sub_computation<double>(const SubComputation&, const VolumeLayout&, const PlanTables&,
                                          std::complex<double>*, int);
template void run_sub_computation<float>(const SubComputation&, const VolumeLayout&, const PlanTables&,
                                         std::complex<float>*, int);
template void permute_to_natural_order<double>(Axis, const VolumeLayout&, const PlanTables&, std::complex<double>*,
                                               int);
template void permute_to_natural_order<float>(Axis, const VolumeLayout&, const PlanTables&, std::complex<float>*,
                                              int);
template void conjugate_and_scale<double>(std::complex<double>*, std::int64_t, bool, double, int);
template void conjugate_and_scale<float>(std::complex<float>*, std::int64_t, bool, float, int);

}  // namespace fft3d::cpu
