#include "bench/bench_table.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "fft3d/transform.hpp"

namespace fft3d::bench {
namespace {

constexpr double paper_flops_per_n_log2_n = 5.0;          // c2c: the paper's formula
constexpr double real_flops_share = 0.5;                  // r2c and c2r: half of c2c's

// JSON strings here are plan names and GPU names: escape what JSON requires.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

std::string json_numbers(const std::vector<double>& values) {
  std::ostringstream list;
  list << std::setprecision(6) << "[";
  for (std::size_t i = 0; i < values.size(); ++i) list << (i ? ", " : "") << values[i];
  return list.str() + "]";
}

bool is_real(TransformKind transform) { return transform != TransformKind::c2c; }

double half_spectrum_elements(const Extents& size) {
  return static_cast<double>(size.nx / 2 + 1) * static_cast<double>(size.ny) * static_cast<double>(size.nz);
}

// Bytes over milliseconds, in GB/s.
double gbytes_per_second(double bytes, double ms) { return bytes / (ms * 1e6); }

// The notes above the table: each precision's bytes per value, and how real rows are counted.
void print_notes(const BenchRun& run, std::ostream& out) {
  const auto real_row = std::find_if(run.rows.begin(), run.rows.end(),
                                     [](const BenchRow& row) { return is_real(row.transform); });
  const auto fp64_row = std::find_if(run.rows.begin(), run.rows.end(),
                                     [](const BenchRow& row) { return row.precision == Precision::fp64; });
  if (fp64_row != run.rows.end())
    out << "fp64: both libraries in double precision (cuFFT " << (is_real(fp64_row->transform) ? "D2Z and Z2D" : "Z2Z")
        << "); GB/s and pass-eq count " << real_value_bytes(Precision::fp64) << " bytes a real and "
        << complex_value_bytes(Precision::fp64) << " a complex value\n";
  if (real_row == run.rows.end()) return;
  const Precision precision = real_row->precision;
  out << "r2c and c2r: GFlops = 2.5 N log2 N / t; pass-eq = t over one read of the input and one write of the "
         "output (reals " << real_value_bytes(precision) << " N bytes, half spectrum " << complex_value_bytes(precision)
      << " (NX/2+1) NY NZ bytes) at memcpy speed; cuFFT's C2R samples run on the input its earlier runs overwrote, "
         "restored after its timing\n";
}

}  // namespace

double credited_flops(TransformKind transform, const Extents& size) {
  const double n = static_cast<double>(size.elements());
  return (is_real(transform) ? real_flops_share : 1.0) * paper_flops_per_n_log2_n * n * std::log2(n);
}

double floor_bytes(TransformKind transform, const Extents& size, Precision precision) {
  const double n = static_cast<double>(size.elements());
  if (!is_real(transform)) return 2.0 * complex_value_bytes(precision) * n;
  return real_value_bytes(precision) * n + complex_value_bytes(precision) * half_spectrum_elements(size);
}

double complex_volume_bytes(TransformKind transform, const Extents& size, Precision precision) {
  return complex_value_bytes(precision) *
         (is_real(transform) ? half_spectrum_elements(size) : static_cast<double>(size.elements()));
}

double BenchRow::fft3d_gflops() const { return static_cast<double>(batch) * credited_flops(transform, size) / (fft3d.median_ms * 1e6); }
double BenchRow::cufft_gflops() const { return static_cast<double>(batch) * credited_flops(transform, size) / (cufft.median_ms * 1e6); }
double BenchRow::fft3d_gbs() const {
  const double later_passes = std::max(passes - 1, 0) * 2.0 * complex_volume_bytes(transform, size, precision);
  return gbytes_per_second(static_cast<double>(batch) * (floor_bytes(transform, size, precision) + later_passes),
                           fft3d.median_ms);
}
double BenchRow::volume_gbs(const Timing& t) const {
  return gbytes_per_second(static_cast<double>(batch) * floor_bytes(transform, size, precision), t.median_ms);
}
double BenchRow::pass_equivalents(const Timing& t) const {
  return t.median_ms / (static_cast<double>(batch) * floor_bytes(transform, size, precision) / (memcpy_gbs * 1e6));
}

double pair_spread(const std::vector<double>& pair_ms) {
  if (pair_ms.size() < 2) return 0;
  std::vector<double> sorted = pair_ms;
  std::sort(sorted.begin(), sorted.end());
  return (sorted.back() - sorted.front()) / sorted[sorted.size() / 2];
}

void print_table(const BenchRun& run, std::ostream& out) {
  out << "GPU " << run.gpu.name << ", " << run.gpu.multiprocessors << " SMs, peak clocks " << run.gpu.sm_clock_mhz
      << " MHz SM and " << run.gpu.memory_clock_mhz << " MHz memory, driver " << run.gpu.driver_release << " (CUDA "
      << run.gpu.cuda_driver_version << "), CUDA runtime " << run.gpu.runtime_version << "; " << run.order
      << " order, median of " << run.repeats
      << " samples on each of " << run.buffer_pairs << " input/output buffer pairs (pooled; the pair spread is the "
      << "range of the pairs' medians over their median), each sample of back-to-back transforms lasting at least "
      << batched_sample_ms << " ms; SM MHz: the clock right after a size's last sample; " << run.placement << "\n";
  print_notes(run, out);
  out << "\n";
  out << std::left << std::setw(15) << "size" << std::setw(5) << "kind" << std::right << std::setw(7) << "passes"
      << std::setw(11) << "fft3d ms" << std::setw(11) << "cuFFT ms" << std::setw(9) << "speedup" << std::setw(10)
      << "GFlops" << std::setw(10)
      << "cuFFT GF" << std::setw(11) << "GB/s" << std::setw(11) << "memcpy" << std::setw(14) << "pass-eq f/c"
      << std::setw(20) << "pairs, spread f/c" << std::setw(8) << "SM MHz" << "  plan\n";
  out << std::fixed;
  for (const BenchRow& row : run.rows) {
    out << std::left << std::setw(15) << to_string(row.size) << std::setw(5) << to_string(row.transform) << std::right
        << std::setw(7) << row.passes;
    if (!row.checked) {
      out << "  not measured: " << row.failure << "\n";
      continue;
    }
    out << std::setprecision(3) << std::setw(11) << row.fft3d.median_ms << std::setw(11) << row.cufft.median_ms
        << std::setprecision(2) << std::setw(9) << row.cufft.median_ms / row.fft3d.median_ms << std::setprecision(0)
        << std::setw(10) << row.fft3d_gflops() << std::setw(10) << row.cufft_gflops() << std::setw(11)
        << row.fft3d_gbs() << std::setw(11) << row.memcpy_gbs << std::setprecision(2) << std::setw(8)
        << row.pass_equivalents(row.fft3d) << " / " << std::setw(4) << row.pass_equivalents(row.cufft)
        << std::setw(4) << row.fft3d_pair_ms.size() << std::setprecision(1) << std::setw(7)
        << 100 * pair_spread(row.fft3d_pair_ms) << "% / " << std::setw(4) << 100 * pair_spread(row.cufft_pair_ms)
        << "%" << std::setw(8) << (row.clocks.known() ? std::to_string(row.clocks.sm_mhz) : "-") << "  " << row.plan
        << "\n";
  }
  for (const BenchRow& row : run.rows)
    if (row.checked && row.clocks.held())
      out << "note: " << to_string(row.size) << (is_real(row.transform) ? " " + to_string(row.transform) : "")
          << " ended its timing with the clocks held by "
          << describe_clock_event_reasons(row.clocks.event_reasons) << "\n";
}

void write_csv(const BenchRun& run, std::ostream& out) {
  out << "nx,ny,nz,transform,plan,passes,checked,fft3d_rel_l2,cufft_rel_l2,fft3d_ms,fft3d_min_ms,fft3d_max_ms,cufft_ms,"
         "cufft_min_ms,cufft_max_ms,speedup,fft3d_gflops,cufft_gflops,fft3d_gbs,fft3d_volume_gbs,cufft_volume_gbs,"
         "memcpy_gbs,fft3d_pass_equivalents,cufft_pass_equivalents,gpu,order,placement,fft3d_batch,cufft_batch,"
         "fft3d_enqueue_us,cufft_enqueue_us,buffer_pairs,fft3d_pair_spread,cufft_pair_spread,sm_clock_mhz,"
         "memory_clock_mhz,clock_event_reasons,precision\n";
  out << std::setprecision(6);
  for (const BenchRow& r : run.rows) {
    out << r.size.nx << ',' << r.size.ny << ',' << r.size.nz << ',' << to_string(r.transform) << ",\"" << r.plan
        << "\"," << r.passes << ','
        << (r.checked ? 1 : 0) << ',' << r.fft3d_l2 << ',' << r.cufft_l2;
    if (r.checked) {
      out << ',' << r.fft3d.median_ms << ',' << r.fft3d.min_ms << ',' << r.fft3d.max_ms << ',' << r.cufft.median_ms
          << ',' << r.cufft.min_ms << ',' << r.cufft.max_ms << ',' << r.cufft.median_ms / r.fft3d.median_ms << ','
          << r.fft3d_gflops() << ',' << r.cufft_gflops() << ',' << r.fft3d_gbs() << ',' << r.volume_gbs(r.fft3d)
          << ',' << r.volume_gbs(r.cufft) << ',' << r.memcpy_gbs << ',' << r.pass_equivalents(r.fft3d) << ','
          << r.pass_equivalents(r.cufft);
    } else {
      out << ",,,,,,,,,,,,,,,";
    }
    out << ",\"" << run.gpu.name << "\"," << run.order << ",\"" << run.placement << "\",";
    if (r.checked)
      out << r.fft3d.batch << ',' << r.cufft.batch << ',' << r.fft3d.enqueue_ms * 1e3 << ','
          << r.cufft.enqueue_ms * 1e3 << ',' << r.fft3d_pair_ms.size() << ',' << pair_spread(r.fft3d_pair_ms) << ','
          << pair_spread(r.cufft_pair_ms) << ',' << r.clocks.sm_mhz << ',' << r.clocks.memory_mhz << ",\""
          << describe_clock_event_reasons(r.clocks.event_reasons) << '"';
    else
      out << ",,,,,,,,,";
    out << ',' << to_string(r.precision) << "\n";
  }
}

void write_json(const BenchRun& run, std::ostream& out) {
  out << std::setprecision(6) << "{\n  \"gpu\": {\"name\": " << json_string(run.gpu.name)
      << ", \"multiprocessors\": " << run.gpu.multiprocessors << ", \"memory_gib\": " << run.gpu.memory_gib
      << ", \"sm_clock_mhz\": " << run.gpu.sm_clock_mhz << ", \"memory_clock_mhz\": " << run.gpu.memory_clock_mhz
      << ", \"driver_release\": " << json_string(run.gpu.driver_release) << ", \"cuda_driver_version\": "
      << run.gpu.cuda_driver_version << ", \"cuda_runtime_version\": "
      << run.gpu.runtime_version << "},\n  \"order\": " << json_string(run.order) << ",\n  \"placement\": "
      << json_string(run.placement) << ",\n  \"repeats\": "
      << run.repeats << ",\n  \"buffer_pairs\": " << run.buffer_pairs << ",\n  \"results\": [\n";
  for (std::size_t i = 0; i < run.rows.size(); ++i) {
    const BenchRow& r = run.rows[i];
    out << "    {\"size\": [" << r.size.nx << ", " << r.size.ny << ", " << r.size.nz << "], \"transform\": "
        << json_string(to_string(r.transform)) << ", \"precision\": " << json_string(to_string(r.precision))
        << ", \"plan\": "
        << json_string(r.plan) << ", \"passes\": " << r.passes << ", \"checked\": " << (r.checked ? "true" : "false");
    if (r.checked) {
      out << ", \"fft3d_rel_l2\": " << r.fft3d_l2 << ", \"cufft_rel_l2\": " << r.cufft_l2 << ", \"fft3d_ms\": "
          << r.fft3d.median_ms << ", \"cufft_ms\": " << r.cufft.median_ms << ", \"speedup\": "
          << r.cufft.median_ms / r.fft3d.median_ms << ", \"fft3d_gflops\": " << r.fft3d_gflops()
          << ", \"cufft_gflops\": " << r.cufft_gflops() << ", \"fft3d_gbs\": " << r.fft3d_gbs()
          << ", \"memcpy_gbs\": " << r.memcpy_gbs << ", \"fft3d_pass_equivalents\": " << r.pass_equivalents(r.fft3d)
          << ", \"cufft_pass_equivalents\": " << r.pass_equivalents(r.cufft) << ", \"fft3d_batch\": " << r.fft3d.batch
          << ", \"cufft_batch\": " << r.cufft.batch << ", \"fft3d_enqueue_us\": " << r.fft3d.enqueue_ms * 1e3
          << ", \"cufft_enqueue_us\": " << r.cufft.enqueue_ms * 1e3 << ", \"fft3d_pair_ms\": "
          << json_numbers(r.fft3d_pair_ms) << ", \"cufft_pair_ms\": " << json_numbers(r.cufft_pair_ms)
          << ", \"clocks_after_timing\": {\"sm_mhz\": " << r.clocks.sm_mhz << ", \"memory_mhz\": "
          << r.clocks.memory_mhz << ", \"event_reasons\": "
          << json_string(describe_clock_event_reasons(r.clocks.event_reasons)) << "}";
    } else {
      out << ", \"failure\": " << json_string(r.failure);
    }
    out << "}" << (i + 1 < run.rows.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

}  // namespace fft3d::bench
