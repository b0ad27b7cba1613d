// The files `fft3d bench` writes, from rows made here (no GPU): every CSV row has the header's fields, a row that
// failed its check writes no figure, and both files carry how each time was sampled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench_table.hpp"

namespace fft3d::bench {
namespace {

// Fields of one CSV line; quoted fields may hold commas.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

BenchRun two_rows() {
  BenchRun run;
  run.gpu.name = "Test GPU, 80GB";
  run.gpu.driver_release = "580.159.04";
  run.gpu.cuda_driver_version = 13000;
  run.order = "natural";
  run.repeats = 20;
  run.buffer_pairs = 3;
  BenchRow measured;
  measured.size = {128, 128, 128};
  measured.plan = "plans/hopper/128x128x128.yaml (the hopper table)";
  measured.passes = 2;
  measured.checked = true;
  measured.fft3d = {.median_ms = 0.04, .min_ms = 0.039, .max_ms = 0.05, .samples_ms = {}, .batch = 25,
                   .enqueue_ms = 0.004};
  measured.cufft = {.median_ms = 0.036, .min_ms = 0.035, .max_ms = 0.04, .samples_ms = {}, .batch = 28,
                   .enqueue_ms = 0.003};
  measured.fft3d_pair_ms = {0.04, 0.044, 0.039};
  measured.cufft_pair_ms = {0.036, 0.036, 0.036};
  measured.memcpy_gbs = 2500;
  measured.clocks = {.sm_mhz = 1755, .memory_mhz = 2619, .event_reasons = 0x4};  // held by the power cap
  BenchRow failed = measured;
  failed.size = {64, 64, 64};
  failed.plan = "default planner, {X64, Y64} {Z64}";
  failed.checked = false;
  failed.failure = "over the error bound";
  run.rows = {measured, failed};
  return run;
}

TEST(BenchTable, EveryCsvRowHasTheHeadersFields) {
  std::ostringstream csv;
  write_csv(two_rows(), csv);
  std::istringstream lines(csv.str());
  std::string header, measured, failed;
  std::getline(lines, header);
  std::getline(lines, measured);
  std::getline(lines, failed);
  const std::vector<std::string> names = csv_fields(header);
  ASSERT_EQ(csv_fields(measured).size(), names.size()) << measured;
  ASSERT_EQ(csv_fields(failed).size(), names.size()) << failed;
  const auto column = [&](const std::string& row, const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return csv_fields(row)[i];
    ADD_FAILURE() << "no column " << name;
    return std::string();
  };
  EXPECT_EQ(column(measured, "fft3d_batch"), "25");
  EXPECT_EQ(column(measured, "cufft_batch"), "28");
  EXPECT_EQ(column(measured, "fft3d_enqueue_us"), "4");
  EXPECT_EQ(column(measured, "speedup"), "0.9");
  EXPECT_EQ(column(measured, "gpu"), "Test GPU, 80GB");
  EXPECT_EQ(column(measured, "buffer_pairs"), "3");
  EXPECT_EQ(column(measured, "fft3d_pair_spread"), "0.125");  // (0.044 - 0.039) / 0.04
  EXPECT_EQ(column(measured, "cufft_pair_spread"), "0");
  EXPECT_EQ(column(failed, "buffer_pairs"), "");
  EXPECT_EQ(column(failed, "checked"), "0");
  EXPECT_EQ(column(failed, "fft3d_ms"), "");
  EXPECT_EQ(column(failed, "fft3d_batch"), "");
  EXPECT_EQ(column(failed, "cufft_enqueue_us"), "");
  EXPECT_EQ(column(measured, "sm_clock_mhz"), "1755");
  EXPECT_EQ(column(measured, "memory_clock_mhz"), "2619");
  EXPECT_EQ(column(measured, "clock_event_reasons"), "sw power cap");
  EXPECT_EQ(column(failed, "sm_clock_mhz"), "");
}

TEST(BenchTable, JsonAndTableSayHowTimesWereSampled) {
  std::ostringstream json, table;
  write_json(two_rows(), json);
  print_table(two_rows(), table);
  EXPECT_NE(json.str().find("\"fft3d_batch\": 25, \"cufft_batch\": 28"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"failure\": \"over the error bound\""), std::string::npos);
  EXPECT_NE(json.str().find("\"buffer_pairs\": 3,"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"fft3d_pair_ms\": [0.04, 0.044, 0.039]"), std::string::npos) << json.str();
  EXPECT_NE(table.str().find("on each of 3 input/output buffer pairs"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("   3   12.5% /  0.0%"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("back-to-back transforms"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("not measured: over the error bound"), std::string::npos);
}

// The driver's release and the clocks each size was timed at reach every output, and the table says when the driver
// held the clocks down, for the measured row only.
TEST(BenchTable, OutputsCarryTheDriverReleaseAndTheClocksOfEachSize) {
  std::ostringstream json, table;
  write_json(two_rows(), json);
  print_table(two_rows(), table);
  EXPECT_NE(json.str().find("\"driver_release\": \"580.159.04\", \"cuda_driver_version\": 13000"), std::string::npos)
      << json.str();
  EXPECT_NE(json.str().find("\"clocks_after_timing\": {\"sm_mhz\": 1755, \"memory_mhz\": 2619, "
                            "\"event_reasons\": \"sw power cap\"}"),
            std::string::npos)
      << json.str();
  EXPECT_NE(table.str().find("driver 580.159.04 (CUDA 13000)"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("%    1755  plans/hopper/128x128x128.yaml"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("note: 128x128x128 ended its timing with the clocks held by sw power cap"),
            std::string::npos)
      << table.str();
  EXPECT_EQ(table.str().find("note: 64x64x64"), std::string::npos) << table.str();

  BenchRun idle = two_rows();
  idle.rows[0].clocks.event_reasons = 0x1;  // an idle GPU between samples holds nothing
  std::ostringstream idle_table;
  print_table(idle, idle_table);
  EXPECT_EQ(idle_table.str().find("note:"), std::string::npos) << idle_table.str();
}

// Real transforms: half the paper's flops, and a floor of one read of the input plus one write of the output (4 N
// bytes of reals, 8 (NX/2+1) NY NZ bytes of half spectrum); the kind reaches every output.
TEST(BenchTable, RealRowsHaveTheirFlopsFloorAndKindInEveryOutput) {
  const Extents size{128, 64, 32};
  const double n = 128.0 * 64 * 32, half = 65.0 * 64 * 32;
  EXPECT_DOUBLE_EQ(credited_flops(TransformKind::c2c, size), 5 * n * std::log2(n));
  EXPECT_DOUBLE_EQ(credited_flops(TransformKind::r2c, size), 2.5 * n * std::log2(n));
  EXPECT_DOUBLE_EQ(credited_flops(TransformKind::c2r, size), 2.5 * n * std::log2(n));
  EXPECT_DOUBLE_EQ(floor_bytes(TransformKind::c2c, size), 16 * n);
  EXPECT_DOUBLE_EQ(floor_bytes(TransformKind::r2c, size), 4 * n + 8 * half);
  EXPECT_DOUBLE_EQ(floor_bytes(TransformKind::c2r, size), 4 * n + 8 * half);

  BenchRun run = two_rows();
  run.placement = "in place";
  BenchRow& real = run.rows[0];
  real.size = size;
  real.transform = TransformKind::c2r;
  real.memcpy_gbs = 2000;
  const double floor_ms = (4 * n + 8 * half) / (2000 * 1e6);
  EXPECT_DOUBLE_EQ(real.pass_equivalents(real.fft3d), 0.04 / floor_ms);
  EXPECT_DOUBLE_EQ(real.fft3d_gflops(), 2.5 * n * std::log2(n) / (0.04 * 1e6));
  EXPECT_DOUBLE_EQ(real.fft3d_gbs(), (4 * n + 8 * half + 2 * 8 * half) / (0.04 * 1e6));  // two passes

  std::ostringstream csv, json, table;
  write_csv(run, csv);
  write_json(run, json);
  print_table(run, table);
  std::istringstream lines(csv.str());
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  const std::vector<std::string> names = csv_fields(header), fields = csv_fields(row);
  ASSERT_EQ(fields.size(), names.size()) << row;
  EXPECT_EQ(fields[std::find(names.begin(), names.end(), "transform") - names.begin()], "c2r");
  EXPECT_EQ(fields[std::find(names.begin(), names.end(), "placement") - names.begin()], "in place");
  EXPECT_NE(json.str().find("\"transform\": \"c2r\""), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"placement\": \"in place\""), std::string::npos) << json.str();
  EXPECT_NE(table.str().find("128x64x32      c2r"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("GFlops = 2.5 N log2 N / t"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("note: 128x64x32 c2r ended its timing"), std::string::npos) << table.str();
}

// fp64 rows count 8 bytes a real and 16 a complex value, twice fp32's, in the floor, GB/s and pass-equivalents; the
// precision reaches every output.
TEST(BenchTable, Fp64RowsCountDoubleValuesAndSayTheirPrecision) {
  EXPECT_DOUBLE_EQ(real_value_bytes(Precision::fp32), 4);
  EXPECT_DOUBLE_EQ(complex_value_bytes(Precision::fp32), 8);
  EXPECT_DOUBLE_EQ(real_value_bytes(Precision::fp64), 8);
  EXPECT_DOUBLE_EQ(complex_value_bytes(Precision::fp64), 16);
  const Extents size{128, 64, 32};
  const double n = 128.0 * 64 * 32, half = 65.0 * 64 * 32;
  EXPECT_DOUBLE_EQ(floor_bytes(TransformKind::c2c, size, Precision::fp64), 32 * n);
  EXPECT_DOUBLE_EQ(floor_bytes(TransformKind::r2c, size, Precision::fp64), 8 * n + 16 * half);
  EXPECT_DOUBLE_EQ(floor_bytes(TransformKind::c2r, size, Precision::fp64), 8 * n + 16 * half);
  EXPECT_DOUBLE_EQ(complex_volume_bytes(TransformKind::r2c, size, Precision::fp64), 16 * half);

  BenchRun run = two_rows();
  BenchRow& real = run.rows[0];
  real.size = size;
  real.transform = TransformKind::r2c;
  real.precision = Precision::fp64;
  real.memcpy_gbs = 2000;
  const double floor_ms = (8 * n + 16 * half) / (2000 * 1e6);
  EXPECT_DOUBLE_EQ(real.pass_equivalents(real.fft3d), 0.04 / floor_ms);
  EXPECT_DOUBLE_EQ(real.pass_equivalents(real.cufft), 0.036 / floor_ms);
  EXPECT_DOUBLE_EQ(real.fft3d_gbs(), (8 * n + 16 * half + 2 * 16 * half) / (0.04 * 1e6));  // two passes
  EXPECT_DOUBLE_EQ(real.volume_gbs(real.cufft), (8 * n + 16 * half) / (0.036 * 1e6));
  EXPECT_DOUBLE_EQ(real.fft3d_gflops(), 2.5 * n * std::log2(n) / (0.04 * 1e6));  // flops do not depend on it

  std::ostringstream csv, json, table;
  write_csv(run, csv);
  write_json(run, json);
  print_table(run, table);
  std::istringstream lines(csv.str());
  std::string header, row, fp32_row;
  std::getline(lines, header);
  std::getline(lines, row);
  std::getline(lines, fp32_row);
  const std::vector<std::string> names = csv_fields(header), fields = csv_fields(row);
  ASSERT_EQ(fields.size(), names.size()) << row;
  ASSERT_EQ(csv_fields(fp32_row).size(), names.size()) << fp32_row;
  const auto precision_column = std::find(names.begin(), names.end(), "precision") - names.begin();
  ASSERT_LT(static_cast<std::size_t>(precision_column), names.size()) << header;
  EXPECT_EQ(fields[precision_column], "fp64");
  EXPECT_EQ(csv_fields(fp32_row)[precision_column], "fp32");
  EXPECT_NE(json.str().find("\"transform\": \"r2c\", \"precision\": \"fp64\""), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"precision\": \"fp32\""), std::string::npos) << json.str();
  EXPECT_NE(table.str().find("fp64: both libraries in double precision (cuFFT D2Z and Z2D)"), std::string::npos)
      << table.str();
  EXPECT_NE(table.str().find("(reals 8 N bytes, half spectrum 16 (NX/2+1) NY NZ bytes)"), std::string::npos)
      << table.str();
}

// An fp32 run says nothing of fp64.
TEST(BenchTable, Fp32RunsHaveNoFp64Note) {
  std::ostringstream table;
  print_table(two_rows(), table);
  EXPECT_EQ(table.str().find("fp64"), std::string::npos) << table.str();
}

TEST(ClockEventReasons, AreNamedAndUnknownBitsKeptInHex) {
  EXPECT_EQ(describe_clock_event_reasons(0), "none");
  EXPECT_EQ(describe_clock_event_reasons(0x4 | 0x40), "sw power cap, hw thermal slowdown");
  EXPECT_EQ(describe_clock_event_reasons(0x1 | 0x200), "gpu idle, 0x200");
  EXPECT_EQ(describe_clock_event_reasons(0x10000), "0x10000");
}

// Without NVML, or without a device at the bus id, the probe says why and reads nothing; it never throws.
TEST(DriverProbe, WithoutTheDeviceSaysWhyAndReadsNothing) {
  const DriverProbe probe("not-a-pci-bus-id");
  EXPECT_FALSE(probe.available());
  EXPECT_FALSE(probe.why_unavailable().empty());
  EXPECT_TRUE(probe.driver_release().empty());
  EXPECT_FALSE(probe.current_clocks().known());
  EXPECT_EQ(probe.current_clocks().memory_mhz, 0);
}

// Pooling the timings of several buffer pairs keeps every sample: the median is the pooled samples' middle one,
// not a median of medians, and min and max span all pairs.
TEST(PooledTiming, TakesEverySampleOfEveryPair) {
  const Timing fast{.median_ms = 1.0, .min_ms = 0.9, .max_ms = 1.1, .samples_ms = {0.9, 1.0, 1.1}, .batch = 2,
                    .enqueue_ms = 0.01};
  const Timing slow{.median_ms = 2.0, .min_ms = 1.9, .max_ms = 2.2, .samples_ms = {1.9, 2.0, 2.2}, .batch = 1,
                    .enqueue_ms = 0.03};
  const Timing both = pooled({fast, slow, slow});
  EXPECT_EQ(both.samples_ms.size(), 9u);
  EXPECT_DOUBLE_EQ(both.median_ms, 1.9);
  EXPECT_DOUBLE_EQ(both.min_ms, 0.9);
  EXPECT_DOUBLE_EQ(both.max_ms, 2.2);
  EXPECT_EQ(both.batch, 2);
  EXPECT_DOUBLE_EQ(both.enqueue_ms, 0.03);
  EXPECT_TRUE(std::is_sorted(both.samples_ms.begin(), both.samples_ms.end()));
  EXPECT_THROW(pooled({}), std::invalid_argument);
}

TEST(PairSpread, IsTheRangeOfThePairsMediansOverTheirMedian) {
  EXPECT_DOUBLE_EQ(pair_spread({0.8}), 0.0);
  EXPECT_DOUBLE_EQ(pair_spread({0.9, 0.8, 1.0}), 0.2 / 0.9);
  EXPECT_DOUBLE_EQ(pair_spread({}), 0.0);
}

}  // namespace
}  // namespace fft3d::bench
