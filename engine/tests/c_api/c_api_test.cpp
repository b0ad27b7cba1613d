// The C API (fft3d/fft3d_c.h) through libfft3d_c.so, on the CPU backend: C2C, R2C and C2R in fp32 and fp64 against
// FFTW, handles from a descriptor and from a plan file, and the status and message of every kind of bad input.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "fft3d/fft3d_c.h"

extern "C" int fft3d_c_round_trip_from_c(void);

namespace {

// 16 x 8 x 6: every axis a supported length, NX even for the real kinds, X of two radices.
constexpr std::int64_t nx = 16, ny = 8, nz = 6;
constexpr std::int64_t reals = nx * ny * nz;
constexpr std::int64_t spectrum_values = (nx / 2 + 1) * ny * nz;
// Relative L2 error bounds against the fp64 oracle.
constexpr double fp32_bound = 1e-5;
constexpr double fp64_bound = 1e-12;
// What the CPU backend says while it runs one volume per transform (the batch work lifts it).
constexpr const char* one_volume_refusal = "one volume per transform so far";

fft3d_desc desc_of(fft3d_kind kind, fft3d_precision precision) {
  fft3d_desc desc = fft3d_default_desc();
  desc.nx = nx;
  desc.ny = ny;
  desc.nz = nz;
  desc.kind = kind;
  desc.precision = precision;
  return desc;
}

// A handle that is destroyed at the end of the test.
struct Handle {
  fft3d_handle handle = nullptr;
  ~Handle() { fft3d_destroy(handle); }
};

template <class Real>
std::vector<std::complex<Real>> signal(std::int64_t count) {
  std::vector<std::complex<Real>> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = {static_cast<Real>(std::sin(0.37 * static_cast<double>(i))),
                 static_cast<Real>(std::cos(0.11 * static_cast<double>(i * i % 97)))};
  return values;
}

template <class Real>
std::vector<Real> real_signal(std::int64_t count) {
  std::vector<Real> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<Real>(std::sin(0.29 * static_cast<double>(i)) + 0.5);
  return values;
}

// ||got - want||_2 / ||want||_2.
template <class Got, class Want>
double relative_l2(const std::vector<Got>& got, const std::vector<Want>& want) {
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto difference = std::complex<double>(got[i]) - std::complex<double>(want[i]);
    error += std::norm(difference);
    norm += std::norm(std::complex<double>(want[i]));
  }
  return std::sqrt(error / norm);
}

template <class Real>
std::vector<std::complex<double>> fftw_c2c(const std::vector<std::complex<Real>>& in) {
  std::vector<std::complex<double>> data(in.begin(), in.end()), out(data.size());
  fftw_plan plan = fftw_plan_dft_3d(nz, ny, nx, reinterpret_cast<fftw_complex*>(data.data()),
                                    reinterpret_cast<fftw_complex*>(out.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return out;
}

template <class Real>
std::vector<std::complex<double>> fftw_r2c(const std::vector<Real>& in) {
  std::vector<double> data(in.begin(), in.end());
  std::vector<std::complex<double>> out(static_cast<std::size_t>(spectrum_values));
  fftw_plan plan = fftw_plan_dft_r2c_3d(nz, ny, nx, data.data(), reinterpret_cast<fftw_complex*>(out.data()),
                                        FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return out;
}

template <class Real>
constexpr fft3d_precision precision_of() {
  return sizeof(Real) == sizeof(double) ? FFT3D_FP64 : FFT3D_FP32;
}

template <class Real>
constexpr double bound_of() {
  return sizeof(Real) == sizeof(double) ? fp64_bound : fp32_bound;
}

template <class Real>
void check_c2c() {
  Handle fft;
  const fft3d_desc desc = desc_of(FFT3D_C2C, precision_of<Real>());
  ASSERT_EQ(fft3d_create_cpu(&fft.handle, &desc, 0), FFT3D_SUCCESS) << fft3d_last_error();
  const auto in = signal<Real>(reals);
  const auto original = in;
  std::vector<std::complex<Real>> out(in.size()), back(in.size());
  ASSERT_EQ(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr), FFT3D_SUCCESS)
      << fft3d_last_error();
  EXPECT_EQ(in, original) << "out of place, the input is never written";
  EXPECT_LT(relative_l2(out, fftw_c2c(in)), bound_of<Real>());
  ASSERT_EQ(fft3d_execute(fft.handle, out.data(), back.data(), FFT3D_INVERSE, FFT3D_SCALING_FULL, nullptr),
            FFT3D_SUCCESS);
  EXPECT_LT(relative_l2(back, in), bound_of<Real>());
  // In place: in == out.
  ASSERT_EQ(fft3d_execute(fft.handle, back.data(), back.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
            FFT3D_SUCCESS);
  EXPECT_LT(relative_l2(back, fftw_c2c(in)), bound_of<Real>());
  // Ortho: the unscaled sums times 1/sqrt(N).
  std::vector<std::complex<Real>> ortho(in.size(), std::complex<Real>(std::nan(""), 0));
  ASSERT_EQ(fft3d_execute(fft.handle, in.data(), ortho.data(), FFT3D_FORWARD, FFT3D_SCALING_ORTHO, nullptr),
            FFT3D_SUCCESS)
      << fft3d_last_error();
  std::vector<std::complex<double>> expected = fftw_c2c(in);
  const double factor = 1.0 / std::sqrt(static_cast<double>(in.size()));
  for (std::complex<double>& v : expected) v *= factor;
  EXPECT_LT(relative_l2(ortho, expected), bound_of<Real>());
}

template <class Real>
void check_real() {
  Handle r2c, c2r;
  const fft3d_desc r2c_desc = desc_of(FFT3D_R2C, precision_of<Real>());
  const fft3d_desc c2r_desc = desc_of(FFT3D_C2R, precision_of<Real>());
  ASSERT_EQ(fft3d_create_cpu(&r2c.handle, &r2c_desc, 0), FFT3D_SUCCESS) << fft3d_last_error();
  ASSERT_EQ(fft3d_create_cpu(&c2r.handle, &c2r_desc, 0), FFT3D_SUCCESS) << fft3d_last_error();
  const auto in = real_signal<Real>(reals);
  std::vector<std::complex<Real>> spectrum(static_cast<std::size_t>(spectrum_values));
  std::vector<Real> back(in.size());
  ASSERT_EQ(fft3d_execute(r2c.handle, in.data(), spectrum.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
            FFT3D_SUCCESS)
      << fft3d_last_error();
  EXPECT_LT(relative_l2(spectrum, fftw_r2c(in)), bound_of<Real>());
  ASSERT_EQ(fft3d_execute(c2r.handle, spectrum.data(), back.data(), FFT3D_INVERSE, FFT3D_SCALING_FULL, nullptr),
            FFT3D_SUCCESS)
      << fft3d_last_error();
  EXPECT_LT(relative_l2(back, in), bound_of<Real>());
}

TEST(CApi, C2cFp32AgainstFftw) { check_c2c<float>(); }
TEST(CApi, C2cFp64AgainstFftw) { check_c2c<double>(); }
TEST(CApi, RealFp32AgainstFftw) { check_real<float>(); }
TEST(CApi, RealFp64AgainstFftw) { check_real<double>(); }

TEST(CApi, HeaderIsCAndRunsFromC) { EXPECT_EQ(fft3d_c_round_trip_from_c(), 0) << fft3d_last_error(); }

TEST(CApi, QueriesDescribeTheHandle) {
  Handle fft;
  const fft3d_desc desc = desc_of(FFT3D_R2C, FFT3D_FP64);
  ASSERT_EQ(fft3d_create_cpu(&fft.handle, &desc, 2), FFT3D_SUCCESS) << fft3d_last_error();
  EXPECT_STREQ(fft3d_last_error(), "");
  fft3d_desc got{};
  ASSERT_EQ(fft3d_get_desc(fft.handle, &got), FFT3D_SUCCESS);
  EXPECT_EQ(got.nx, nx);
  EXPECT_EQ(got.nz, nz);
  EXPECT_EQ(got.kind, FFT3D_R2C);
  EXPECT_EQ(got.precision, FFT3D_FP64);
  EXPECT_EQ(got.batch, 1);
  fft3d_backend backend = FFT3D_BACKEND_GPU;
  int device = 0;
  ASSERT_EQ(fft3d_get_backend(fft.handle, &backend, &device), FFT3D_SUCCESS);
  EXPECT_EQ(backend, FFT3D_BACKEND_CPU);
  EXPECT_EQ(device, -1);
  size_t bytes = 1;
  ASSERT_EQ(fft3d_get_workspace_size(fft.handle, FFT3D_OUT_OF_PLACE, &bytes), FFT3D_SUCCESS);
  EXPECT_EQ(bytes, 0u);
  const char* text = nullptr;
  ASSERT_EQ(fft3d_get_plan_text(fft.handle, &text), FFT3D_SUCCESS);
  EXPECT_NE(std::string(text).find("size: [16, 8, 6]"), std::string::npos) << text;
  EXPECT_EQ(fft3d_api_version(), FFT3D_C_API_VERSION);
}

TEST(CApi, PlanFileGivesItsTransform) {
  Handle from_desc, from_file;
  const fft3d_desc desc = desc_of(FFT3D_C2C, FFT3D_FP64);
  ASSERT_EQ(fft3d_create_cpu(&from_desc.handle, &desc, 0), FFT3D_SUCCESS) << fft3d_last_error();
  const char* text = nullptr;
  ASSERT_EQ(fft3d_get_plan_text(from_desc.handle, &text), FFT3D_SUCCESS);
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "fft3d_c_api_test_plan.yaml";
  // The plan text names its precision where the engine keeps it in the plan; otherwise it is added.
  const std::string plan_text = text;
  std::ofstream(path) << plan_text << (plan_text.find("precision: fp64") == std::string::npos ? "precision: fp64\n" : "");
  ASSERT_EQ(fft3d_create_cpu_from_file(&from_file.handle, path.c_str(), 0), FFT3D_SUCCESS) << fft3d_last_error();
  std::filesystem::remove(path);
  fft3d_desc got{};
  ASSERT_EQ(fft3d_get_desc(from_file.handle, &got), FFT3D_SUCCESS);
  EXPECT_EQ(got.nx, nx);
  EXPECT_EQ(got.ny, ny);
  EXPECT_EQ(got.kind, FFT3D_C2C);
  EXPECT_EQ(got.precision, FFT3D_FP64);
  const auto in = signal<double>(reals);
  std::vector<std::complex<double>> out(in.size());
  ASSERT_EQ(fft3d_execute(from_file.handle, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
            FFT3D_SUCCESS);
  EXPECT_LT(relative_l2(out, fftw_c2c(in)), fp64_bound);
}

// Each of `batch` packed input volumes of `in` against FFTW, its output `out_stride` values apart in `out`.
void expect_every_volume_transformed(const std::vector<std::complex<double>>& in,
                                     const std::vector<std::complex<double>>& out, std::int64_t batch,
                                     std::int64_t out_stride) {
  for (std::int64_t volume = 0; volume < batch; ++volume) {
    const auto first = in.begin() + volume * reals;
    const std::vector<std::complex<double>> one(first, first + reals);
    const auto at = out.begin() + volume * out_stride;
    EXPECT_LT(relative_l2(std::vector<std::complex<double>>(at, at + reals), fftw_c2c(one)), fp64_bound)
        << "volume " << volume;
  }
}

// Batches: volumes one after another, each its own transform. Needs the CPU backend's batches.
TEST(CApi, BatchRunsEveryVolume) {
  constexpr std::int64_t batch = 3;
  Handle fft;
  fft3d_desc desc = desc_of(FFT3D_C2C, FFT3D_FP64);
  desc.batch = batch;
  const fft3d_status status = fft3d_create_cpu(&fft.handle, &desc, 0);
  if (status == FFT3D_ERROR_USAGE && std::string(fft3d_last_error()).find(one_volume_refusal) != std::string::npos)
    GTEST_SKIP() << "needs the CPU backend's batches: " << fft3d_last_error();
  ASSERT_EQ(status, FFT3D_SUCCESS) << fft3d_last_error();
  const auto in = signal<double>(batch * reals);
  std::vector<std::complex<double>> out(in.size());
  ASSERT_EQ(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
            FFT3D_SUCCESS)
      << fft3d_last_error();
  expect_every_volume_transformed(in, out, batch, reals);
}

// cufftPlanMany's odist (fft3d_desc.output_batch_stride): the output's volumes twice a volume apart, the handle's
// descriptor keeps it, and the values between them are left as they were.
TEST(CApi, ABatchWritesItsOutputStrideApart) {
  constexpr std::int64_t batch = 2, out_stride = 2 * reals;
  Handle fft;
  fft3d_desc desc = desc_of(FFT3D_C2C, FFT3D_FP64);
  desc.batch = batch;
  desc.output_batch_stride = out_stride;
  ASSERT_EQ(fft3d_create_cpu(&fft.handle, &desc, 0), FFT3D_SUCCESS) << fft3d_last_error();
  fft3d_desc got{};
  ASSERT_EQ(fft3d_get_desc(fft.handle, &got), FFT3D_SUCCESS);
  EXPECT_EQ(got.output_batch_stride, out_stride);
  const auto in = signal<double>(batch * reals);
  const std::complex<double> kept(-7.0, 7.0);
  std::vector<std::complex<double>> out(static_cast<std::size_t>((batch - 1) * out_stride + reals), kept);
  ASSERT_EQ(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
            FFT3D_SUCCESS)
      << fft3d_last_error();
  expect_every_volume_transformed(in, out, batch, out_stride);
  EXPECT_EQ(out[static_cast<std::size_t>(reals)], kept) << "a value between the output's volumes was written";
}

// The status of `status`, and that the message names `needle`.
void expect_error(fft3d_status status, fft3d_status expected, const std::string& needle) {
  EXPECT_EQ(status, expected) << fft3d_status_name(status) << ": " << fft3d_last_error();
  EXPECT_NE(std::string(fft3d_last_error()).find(needle), std::string::npos)
      << "message '" << fft3d_last_error() << "' should name '" << needle << "'";
}

TEST(CApi, BadDescriptorsAreUsageErrors) {
  fft3d_handle handle = reinterpret_cast<fft3d_handle>(1);
  fft3d_desc real_prime = desc_of(FFT3D_R2C, FFT3D_FP32);
  real_prime.nx = 22;
  expect_error(fft3d_create_cpu(&handle, &real_prime, 0), FFT3D_ERROR_USAGE, "11");
  EXPECT_EQ(handle, nullptr) << "a failed creation leaves a NULL handle";
  fft3d_desc odd = desc_of(FFT3D_R2C, FFT3D_FP32);  // an odd NX is a real transform like any other
  odd.nx = 15;
  ASSERT_EQ(fft3d_create_cpu(&handle, &odd, 0), FFT3D_SUCCESS) << fft3d_last_error();
  fft3d_destroy(handle);
  fft3d_desc prime = desc_of(FFT3D_C2C, FFT3D_FP32);
  prime.ny = 11;
  expect_error(fft3d_create_cpu(&handle, &prime, 0), FFT3D_ERROR_USAGE, "11");
  fft3d_desc empty = desc_of(FFT3D_C2C, FFT3D_FP32);
  empty.nz = 0;
  expect_error(fft3d_create_cpu(&handle, &empty, 0), FFT3D_ERROR_USAGE, "at least 1");
  fft3d_desc kind = desc_of(FFT3D_C2C, FFT3D_FP32);
  kind.kind = static_cast<fft3d_kind>(7);
  expect_error(fft3d_create_cpu(&handle, &kind, 0), FFT3D_ERROR_USAGE, "fft3d_desc.kind = 7");
  expect_error(fft3d_create_cpu(&handle, nullptr, 0), FFT3D_ERROR_USAGE, "fft3d_desc is NULL");
  const fft3d_desc good = desc_of(FFT3D_C2C, FFT3D_FP32);
  expect_error(fft3d_create_cpu(nullptr, &good, 0), FFT3D_ERROR_USAGE, "handle pointer is NULL");
}

TEST(CApi, BadPlanFilesArePlanOrUsageErrors) {
  fft3d_handle handle = nullptr;
  expect_error(fft3d_create_cpu_from_file(&handle, "/nonexistent/plan.yaml", 0), FFT3D_ERROR_USAGE,
               "/nonexistent/plan.yaml");
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "fft3d_c_api_test_bad_plan.yaml";
  std::ofstream(path) << "size: [256, 256, 256]\narch: tesla\nkernels:\n  - \"Z(16, 16, 16, 156, tw)\"\n";
  expect_error(fft3d_create_cpu_from_file(&handle, path.c_str(), 0), FFT3D_ERROR_PLAN, ":4:");
  std::filesystem::remove(path);
  expect_error(fft3d_create_cpu_from_file(&handle, nullptr, 0), FFT3D_ERROR_USAGE, "path is NULL");
}

TEST(CApi, BadExecutionsAreUsageErrors) {
  Handle fft;
  const fft3d_desc desc = desc_of(FFT3D_R2C, FFT3D_FP32);
  ASSERT_EQ(fft3d_create_cpu(&fft.handle, &desc, 0), FFT3D_SUCCESS) << fft3d_last_error();
  std::vector<float> in(reals);
  std::vector<std::complex<float>> out(spectrum_values);
  expect_error(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_INVERSE, FFT3D_SCALING_NONE, nullptr),
               FFT3D_ERROR_USAGE, "");
  expect_error(fft3d_execute(fft.handle, nullptr, out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
               FFT3D_ERROR_USAGE, "NULL data pointer");
  int stream = 0;
  expect_error(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, &stream),
               FFT3D_ERROR_USAGE, "no stream");
  expect_error(fft3d_execute(fft.handle, in.data(), out.data(), static_cast<fft3d_direction>(2), FFT3D_SCALING_NONE,
                             nullptr),
               FFT3D_ERROR_USAGE, "direction = 2");
  expect_error(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_FORWARD, static_cast<fft3d_scaling>(3), nullptr),
               FFT3D_ERROR_USAGE, "scaling = 3");
  expect_error(fft3d_execute(nullptr, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
               FFT3D_ERROR_USAGE, "handle is NULL");
  expect_error(fft3d_set_workspace(fft.handle, out.data(), 64), FFT3D_ERROR_USAGE, "GPU handles");
  // A success clears the message.
  ASSERT_EQ(fft3d_execute(fft.handle, in.data(), out.data(), FFT3D_FORWARD, FFT3D_SCALING_NONE, nullptr),
            FFT3D_SUCCESS);
  EXPECT_STREQ(fft3d_last_error(), "");
  EXPECT_EQ(fft3d_destroy(nullptr), FFT3D_SUCCESS);
}

TEST(CApi, MessagesArePerThread) {
  fft3d_handle handle = nullptr;
  expect_error(fft3d_create_cpu(&handle, nullptr, 0), FFT3D_ERROR_USAGE, "NULL");
  std::string other_thread = "unset";
  std::thread([&] { other_thread = fft3d_last_error(); }).join();
  EXPECT_EQ(other_thread, "");
  EXPECT_STRNE(fft3d_last_error(), "");
}

TEST(CApi, GpuHandlesFailCleanlyWithoutAGpu) {
  Handle fft;
  const fft3d_desc desc = desc_of(FFT3D_C2C, FFT3D_FP32);
  const fft3d_status status = fft3d_create_gpu(&fft.handle, &desc, FFT3D_CURRENT_DEVICE);
  if (status == FFT3D_SUCCESS) GTEST_SKIP() << "a GPU is present: the GPU handles are tested from Python";
  EXPECT_TRUE(status == FFT3D_ERROR_GPU_UNAVAILABLE || status == FFT3D_ERROR_CUDA) << fft3d_status_name(status);
  EXPECT_STRNE(fft3d_last_error(), "");
  EXPECT_EQ(fft.handle, nullptr);
}

TEST(CApi, StatusNames) {
  EXPECT_STREQ(fft3d_status_name(FFT3D_ERROR_OUT_OF_MEMORY), "FFT3D_ERROR_OUT_OF_MEMORY");
  EXPECT_STREQ(fft3d_status_name(static_cast<fft3d_status>(99)), "FFT3D_STATUS_UNKNOWN");
}

}  // namespace
