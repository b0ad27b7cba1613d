// R2C and C2R on the CPU: the plan's X stages on the packed rows, the real step, the Y and Z stages on the half
// spectrum's NX/2 + 1 columns (an odd NX: the X stages on whole rows of NX complex values, a z plane at a time).
// The volume is transformed where it lies in the output buffer; in place the padded real rows are the half
// spectrum's rows.
#include <algorithm>
#include <vector>

#include "cpu_passes.hpp"
#include "cpu_real.hpp"
#include "parallel_for.hpp"

namespace fft3d::cpu {
namespace {

// Copies `rows` rows of `width` values from `from` (rows `from_pitch` apart) to `to` (rows `to_pitch` apart).
template <class Value>
void copy_rows(const Value* from, std::int64_t from_pitch, Value* to, std::int64_t to_pitch, std::int64_t width,
               std::int64_t rows, int threads) {
  parallel_for(rows, threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) std::copy_n(from + r * from_pitch, width, to + r * to_pitch);
  });
}

// The plan's stages on X (`on_x`) or on Y and Z (otherwise), in plan order, over `layout`, then those axes'
// permutations to natural order.
template <class Real>
void run_stages(const Plan& plan, bool on_x, const VolumeLayout& layout, const PlanTables& tables,
                std::complex<Real>* data, int threads) {
  for (const Kernel& kernel : plan.kernels)
    for (const SubComputation& sub : kernel.subs)
      if ((sub.axis == Axis::x) == on_x) run_sub_computation<Real>(sub, layout, tables, data, threads);
  for (Axis axis : plan.axes)  // an untransformed axis has no stages to put in order
    if ((axis == Axis::x) == on_x) permute_to_natural_order<Real>(axis, layout, tables, data, threads);
}

// The inverse as conj(forward(conj(x))), as the C2C inverse runs: the same stages and the same rounding.
template <class Real>
void run_inverse_stages(const Plan& plan, bool on_x, const VolumeLayout& layout, const PlanTables& tables,
                        std::complex<Real>* data, Real factor, int threads) {
  const std::int64_t count = layout.row_pitch * layout.extents.ny * layout.extents.nz;
  conjugate_and_scale<Real>(data, count, true, Real(1), threads);
  run_stages(plan, on_x, layout, tables, data, threads);
  conjugate_and_scale<Real>(data, count, true, factor, threads);
}

// R2C of an odd NX (RealStep): each z plane's rows as NX complex values (x, 0), the X stages on them, and
// frequencies 0 .. NX/2 of each row into `out`'s rows; then the Y and Z stages there. In place a plane's reals are
// all read before its rows are written (the same bytes).
template <class Real>
void run_odd_r2c(const Plan& plan, const PlanTables& tables, const Real* in, std::int64_t in_pitch,
                 std::complex<Real>* out, Real factor, int threads) {
  const Extents& size = plan.size;
  const std::int64_t pitch = size.nx / 2 + 1;
  std::vector<std::complex<Real>> plane(static_cast<std::size_t>(size.nx * size.ny));
  const VolumeLayout plane_layout({size.nx, size.ny, 1}, size.nx);
  for (std::int64_t z = 0; z < size.nz; ++z) {
    parallel_for(size.ny, threads, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t r = begin; r < end; ++r)
        for (std::int64_t x = 0; x < size.nx; ++x)
          plane[static_cast<std::size_t>(r * size.nx + x)] = {in[(z * size.ny + r) * in_pitch + x], Real(0)};
    });
    run_stages(plan, true, plane_layout, tables, plane.data(), threads);
    copy_rows(plane.data(), size.nx, out + z * size.ny * pitch, pitch, pitch, size.ny, threads);
  }
  run_stages(plan, false, VolumeLayout({pitch, size.ny, size.nz}, pitch), tables, out, threads);
  if (factor != Real(1)) conjugate_and_scale<Real>(out, pitch * size.ny * size.nz, false, factor, threads);
}

// C2R of an odd NX (RealStep): the inverse Y and Z stages on the half spectrum (a copy out of place, so that `in`
// is only read), then each z plane's rows filled to NX values (frequency NX - k the conjugate of k), the inverse X
// stages on them, and their real parts into `out`'s rows.
template <class Real>
void run_odd_c2r(const Plan& plan, const PlanTables& tables, const std::complex<Real>* in, Real* out,
                 std::int64_t out_pitch, Real factor, int threads) {
  const Extents& size = plan.size;
  const std::int64_t half = size.nx / 2;
  const std::int64_t pitch = half + 1;
  const std::int64_t rows = size.ny * size.nz;
  const bool in_place = static_cast<const void*>(in) == static_cast<const void*>(out);
  std::vector<std::complex<Real>> copy(static_cast<std::size_t>(in_place ? 0 : pitch * rows));
  std::complex<Real>* work = in_place ? reinterpret_cast<std::complex<Real>*>(out) : copy.data();
  if (!in_place) std::copy_n(in, pitch * rows, work);
  run_inverse_stages(plan, false, VolumeLayout({pitch, size.ny, size.nz}, pitch), tables, work, Real(1), threads);
  std::vector<std::complex<Real>> plane(static_cast<std::size_t>(size.nx * size.ny));
  const VolumeLayout plane_layout({size.nx, size.ny, 1}, size.nx);
  for (std::int64_t z = 0; z < size.nz; ++z) {
    parallel_for(size.ny, threads, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t r = begin; r < end; ++r) {
        const std::complex<Real>* row = work + (z * size.ny + r) * pitch;
        std::complex<Real>* full = plane.data() + r * size.nx;
        full[0] = row[0];
        for (std::int64_t k = 1; k <= half; ++k) {
          full[k] = row[k];
          full[size.nx - k] = std::conj(row[k]);
        }
      }
    });
    run_inverse_stages(plan, true, plane_layout, tables, plane.data(), factor, threads);
    parallel_for(size.ny, threads, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t r = begin; r < end; ++r)
        for (std::int64_t x = 0; x < size.nx; ++x)
          out[(z * size.ny + r) * out_pitch + x] = plane[static_cast<std::size_t>(r * size.nx + x)].real();
    });
  }
}

}  // namespace

template <class Real>
void run_r2c(const Plan& plan, const PlanTables& tables, const Real* in, std::int64_t in_pitch,
             std::complex<Real>* out, Real factor, int threads) {
  if (odd_real_rows(plan)) return run_odd_r2c(plan, tables, in, in_pitch, out, factor, threads);
  const Extents& size = plan.size;
  const std::int64_t half = size.nx / 2;
  const std::int64_t pitch = half + 1;
  const std::int64_t rows = size.ny * size.nz;
  // The packed rows x[2n] + i x[2n+1] are the real rows read as complex values.
  Real* out_reals = reinterpret_cast<Real*>(out);
  if (in != out_reals) copy_rows(in, in_pitch, out_reals, 2 * pitch, size.nx, rows, threads);
  run_stages(plan, true, VolumeLayout({half, size.ny, size.nz}, pitch), tables, out, threads);
  r2c_step<Real>({out, pitch, out + half, pitch, rows, half}, tables_for<Real>(tables).roots, threads);
  run_stages(plan, false, VolumeLayout({pitch, size.ny, size.nz}, pitch), tables, out, threads);
  if (factor != Real(1)) conjugate_and_scale<Real>(out, pitch * rows, false, factor, threads);
}

template <class Real>
void run_c2r(const Plan& plan, const PlanTables& tables, const std::complex<Real>* in, Real* out,
             std::int64_t out_pitch, Real factor, int threads) {
  if (odd_real_rows(plan)) return run_odd_c2r(plan, tables, in, out, out_pitch, factor, threads);
  const Extents& size = plan.size;
  const std::int64_t half = size.nx / 2;
  const std::int64_t pitch = half + 1;
  const std::int64_t rows = size.ny * size.nz;
  auto* work = reinterpret_cast<std::complex<Real>*>(out);
  const std::int64_t work_pitch = out_pitch / 2;
  const bool in_place = static_cast<const void*>(in) == static_cast<const void*>(out);
  // Out of place the unpadded output rows hold the first NX/2 columns and a plane of NY x NZ values the Nyquist
  // column, so that `in` is never written.
  std::vector<std::complex<Real>> nyquist_plane(static_cast<std::size_t>(in_place ? 0 : rows));
  std::complex<Real>* last = in_place ? work + half : nyquist_plane.data();
  const std::int64_t last_pitch = in_place ? pitch : 1;
  if (!in_place) {
    copy_rows(in, pitch, work, work_pitch, half, rows, threads);
    copy_rows(in + half, pitch, last, last_pitch, std::int64_t{1}, rows, threads);
    run_inverse_stages(plan, false, VolumeLayout({1, size.ny, size.nz}, 1), tables, last, Real(1), threads);
  }
  const std::int64_t columns = in_place ? pitch : half;
  run_inverse_stages(plan, false, VolumeLayout({columns, size.ny, size.nz}, work_pitch), tables, work, Real(1),
                     threads);
  c2r_step<Real>({work, work_pitch, last, last_pitch, rows, half}, tables_for<Real>(tables).roots, threads);
  // The inverse X DFT of the NX/2 values leaves (x[2n], x[2n+1]) as (Re, Im): the real rows themselves.
  run_inverse_stages(plan, true, VolumeLayout({half, size.ny, size.nz}, work_pitch), tables, work, factor, threads);
}

template void run_r2c<double>(const Plan&, const PlanTables&, const double*, std::int64_t, std::complex<double>*,
                              double, int);
template void run_r2c<float>(const Plan&, const PlanTables&, const float*, std::int64_t, std::complex<float>*, float,
                             int);
template void run_c2r<double>(const Plan&, const PlanTables&, const std::complex<double>*, double*, std::int64_t,
                              double, int);
template void run_c2r<float>(const Plan&, const PlanTables&, const std::complex<float>*, float*, std::int64_t, float,
                             int);

}  // namespace fft3d::cpu
