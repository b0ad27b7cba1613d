#include "cpu_passes.hpp"

#include <algorithm>
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

// Each column becomes the `rows`-point DFT (forward sign) of itself, by radix-2 decimation in frequency: O(r log r).
// Output m ends in row dif_output_rows[m] (bit reversal); the scatter reads it from there.
template <class Real>
void dif_radix2_columns(BatchScratch<Real>& scratch, std::int64_t rows, std::int64_t columns,
                        const RootTables<Real>& roots) {
  for (std::int64_t half = rows / 2; half >= 1; half /= 2) {
    const std::complex<Real>* w = roots.roots(2 * half);
    for (std::int64_t start = 0; start < rows; start += 2 * half) {
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
  const std::int64_t* output_rows = tables.dif_output_rows.at(sub.radix).data();
  const std::complex<Real>* twiddles = sub.twiddle ? roots.roots(sub.span) : nullptr;
  parallel_for(loops.batches(), threads, [&](std::int64_t begin, std::int64_t end) {
    BatchScratch<Real> scratch(loops.points, loops.batch_size);
    for (std::int64_t index = begin; index < end; ++index) {
      const ButterflyBatch batch = loops.batch_at(index);
      gather(data, loops, batch, scratch);
      dif_radix2_columns(scratch, loops.points, batch.count, roots);
      scatter(data, loops, batch, scratch, output_rows, twiddles);
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
