// The table and CSV of `fft3d bench --gpus G` (bench/multi_gpu_bench.hpp).
#include <iomanip>
#include <sstream>

#include "bench/multi_gpu_bench.hpp"

namespace fft3d::bench {
namespace {

constexpr double bytes_per_mib = 1024.0 * 1024.0;

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

// Fields a row prints when it was not timed are empty.
std::string timed(const MultiGpuRow& row, double value, int digits) { return row.checked ? fixed(value, digits) : ""; }
std::string bandwidth(const MultiGpuRow& row, double value) { return row.checked && value > 0 ? fixed(value, 1) : ""; }

std::string csv_quoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

void print_multi_gpu_table(const MultiGpuRun& run, std::ostream& out) {
  out << run.gpus << " x " << run.gpu.name << " (driver CUDA " << run.gpu.cuda_driver_version << ")\n"
      << "times: median of the samples, ms, CUDA events on every GPU (the slowest GPU's time); pass-eq: the median "
         "over one read+write of a GPU's local volume at memcpy speed; GB/s: local bytes per GPU over the time "
         "(bus: the bytes that cross to other GPUs); extra: device memory per GPU beyond the data\n";
  const auto w = [&](int width) -> std::ostream& { return out << std::left << std::setw(width); };
  w(8) << "library" << std::setw(48) << "case" << std::setw(16) << "size" << std::setw(4) << "G" << std::setw(10)
       << "median" << std::setw(10) << "min" << std::setw(10) << "max" << std::setw(9) << "pass-eq" << std::setw(9)
       << "GB/s" << std::setw(9) << "bus GB/s" << std::setw(11) << "extra MiB" << std::setw(11) << "check L2"
       << "note\n";
  for (const MultiGpuRow& row : run.rows) {
    w(8) << row.library << std::setw(48) << row.variant << std::setw(16) << to_string(row.size) << std::setw(4)
         << row.gpus << std::setw(10) << timed(row, row.time.median_ms, 3) << std::setw(10)
         << timed(row, row.time.min_ms, 3) << std::setw(10) << timed(row, row.time.max_ms, 3) << std::setw(9)
         << timed(row, row.pass_equivalents, 2) << std::setw(9) << bandwidth(row, row.gbs) << std::setw(9)
         << bandwidth(row, row.bus_gbs) << std::setw(11)
         << (row.extra_bytes_per_gpu > 0 ? fixed(static_cast<double>(row.extra_bytes_per_gpu) / bytes_per_mib, 0) : "")
         << std::setw(11) << (row.error > 0 ? (std::ostringstream() << std::scientific << std::setprecision(2)
                                                                     << row.error).str()
                                             : "")
         << (row.checked ? "" : "not timed: " + row.failure) << "\n";
  }
}

void write_multi_gpu_csv(const MultiGpuRun& run, std::ostream& out) {
  out << "library,case,nx,ny,nz,gpus,checked,median_ms,min_ms,max_ms,samples,pass_equivalents,gbs,bus_gbs,"
         "extra_bytes_per_gpu,check_relative_l2,gpu,failure\n";
  for (const MultiGpuRow& row : run.rows)
    out << row.library << ',' << csv_quoted(row.variant) << ',' << row.size.nx << ',' << row.size.ny << ','
        << row.size.nz << ',' << row.gpus << ',' << (row.checked ? 1 : 0) << ',' << timed(row, row.time.median_ms, 4)
        << ',' << timed(row, row.time.min_ms, 4) << ',' << timed(row, row.time.max_ms, 4) << ','
        << row.time.samples_ms.size() << ',' << timed(row, row.pass_equivalents, 3) << ','
        << bandwidth(row, row.gbs) << ',' << bandwidth(row, row.bus_gbs) << ',' << row.extra_bytes_per_gpu << ','
        << row.error << ',' << csv_quoted(run.gpu.name) << ',' << csv_quoted(row.failure) << '\n';
}

}  // namespace fft3d::bench
