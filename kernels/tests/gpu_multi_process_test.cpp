// One process per GPU: the parent makes NCCL's unique id and starts this test binary once per rank, passing the id,
// the rank and G in the environment; each child makes its communicator (nccl_communicator), transforms its slab of
// a plane wave and checks it in closed form (N at the wave's frequency, zero elsewhere) and by the round trip.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "fft3d/errors.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "validate/cuda/gpu_oracle.hpp"

extern char** environ;

namespace fft3d::testing {
namespace {

constexpr const char* id_variable = "FFT3D_TEST_NCCL_ID";
constexpr const char* rank_variable = "FFT3D_TEST_RANK";
constexpr const char* gpus_variable = "FFT3D_TEST_GPUS";
constexpr const char* layout_variable = "FFT3D_TEST_LAYOUT";
constexpr Extents size{128, 64, 64};
constexpr std::array<std::int64_t, 3> wave{5, 17, 42};   // the plane wave's frequency (kx, ky, kz)
constexpr double fp32_bound = 2e-6;  // relative: of the spectrum's peak N (closed form), of the input's L2 (round trip)
constexpr auto child_timeout = std::chrono::seconds(120);

using Complex = std::complex<float>;

Complex plane_wave(std::int64_t natural) {
  const std::int64_t x = natural % size.nx, y = natural / size.nx % size.ny, z = natural / (size.nx * size.ny);
  const double phase = 2 * std::numbers::pi *
                       (static_cast<double>(wave[0] * x) / size.nx + static_cast<double>(wave[1] * y) / size.ny +
                        static_cast<double>(wave[2] * z) / size.nz);
  return {static_cast<float>(std::cos(phase)), static_cast<float>(std::sin(phase))};
}

// The child's run: its rank's slab through the transform with its own communicator.
void run_rank(const std::string& id, int gpus, int rank, SlabLayout layout) {
  NcclComm comm = nccl_communicator(id, gpus, rank, rank);
  {
    MultiGpuTransform fft({.extents = size, .devices = {rank}, .layout = layout}, comm);
    ASSERT_EQ(fft.rank(), rank);
    ASSERT_EQ(fft.exchange(), SlabExchange::nccl);
    const SlabDecomposition& d = fft.decomposition();
    const std::int64_t n = d.local_elements();
    std::vector<Complex> host(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) host[i] = plane_wave(volume_index(d, SlabLayout::natural, rank, i));
    DeviceComplex32 *in = nullptr, *out = nullptr;
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&in), n * sizeof(Complex)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&out), n * sizeof(Complex)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(in, host.data(), n * sizeof(Complex), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(out, 0xff, n * sizeof(Complex)), cudaSuccess);  // NaNs
    fft.forward({in}, {out});
    std::vector<Complex> spectrum(host.size());
    ASSERT_EQ(cudaMemcpy(spectrum.data(), out, n * sizeof(Complex), cudaMemcpyDeviceToHost), cudaSuccess);
    const std::int64_t peak = wave[0] + size.nx * (wave[1] + size.ny * wave[2]);
    double worst = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const Complex expected(volume_index(d, layout, rank, i) == peak ? static_cast<float>(size.elements()) : 0.f);
      const double error = std::abs(spectrum[i] - expected);
      worst = std::isfinite(error) ? std::max(worst, error) : INFINITY;
    }
    EXPECT_LE(worst, fp32_bound * static_cast<double>(size.elements()))
        << "rank " << rank << ": largest error against the closed form (peak N = " << size.elements() << ")";
    fft.inverse({out}, {out}, Scaling::full);
    std::vector<Complex> back(host.size());
    ASSERT_EQ(cudaMemcpy(back.data(), out, n * sizeof(Complex), cudaMemcpyDeviceToHost), cudaSuccess);
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < host.size(); ++i) {
      diff += std::norm(back[i] - host[i]);
      norm += std::norm(host[i]);
    }
    EXPECT_LE(std::sqrt(diff / norm), fp32_bound) << "rank " << rank << ": round trip";
    cudaFree(in);
    cudaFree(out);
  }
  destroy_nccl_communicator(comm);
}

// Starts this binary as rank `rank` of the child test; returns its pid.
pid_t start_rank(const std::string& id, int gpus, int rank, SlabLayout layout) {
  const std::string layout_name = layout == SlabLayout::natural ? "natural" : "y_slabs";
  std::vector<std::string> env{std::string(id_variable) + "=" + id,
                               std::string(rank_variable) + "=" + std::to_string(rank),
                               std::string(gpus_variable) + "=" + std::to_string(gpus),
                               std::string(layout_variable) + "=" + layout_name, "NCCL_NVLS_ENABLE=0"};
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe", filter = "--gtest_filter=GpuMultiProcessChild.*";
  std::vector<char*> argv{exe.data(), filter.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0) return -1;
  return pid;
}

// Waits for every child with the timeout (killing the rest once it passes); true when all exited with 0.
bool all_passed(std::vector<pid_t> pids) {
  const auto deadline = std::chrono::steady_clock::now() + child_timeout;
  bool passed = true;
  while (!pids.empty()) {
    for (auto it = pids.begin(); it != pids.end();) {
      int status = 0;
      if (waitpid(*it, &status, WNOHANG) == *it) {
        passed = passed && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        it = pids.erase(it);
      } else {
        ++it;
      }
    }
    if (!pids.empty() && std::chrono::steady_clock::now() > deadline) {
      for (pid_t pid : pids) kill(pid, SIGKILL);
      for (pid_t pid : pids) waitpid(pid, nullptr, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return passed;
}

TEST(GpuMultiProcessChild, RunsItsRankWhenStartedByTheParent) {
  const char* id = std::getenv(id_variable);
  if (!id) GTEST_SKIP() << "a child of GpuMultiProcess.EachRankInItsOwnProcess: runs only when started by it";
  const std::string layout = std::getenv(layout_variable);
  run_rank(id, std::atoi(std::getenv(gpus_variable)), std::atoi(std::getenv(rank_variable)),
           layout == "natural" ? SlabLayout::natural : SlabLayout::y_slabs);
}

TEST(GpuMultiProcess, EachRankInItsOwnProcessMatchesTheClosedForm) {
  const int gpus = validate::gpu_count();
  if (gpus < 1) GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped";
  std::string id;
  try {
    id = nccl_unique_id_text();
  } catch (const GpuUnavailable& e) {
    GTEST_SKIP() << e.what();
  }
  const int g = gpus >= 2 ? 2 : 1;
  for (SlabLayout layout : {SlabLayout::natural, SlabLayout::y_slabs}) {
    std::vector<pid_t> pids;
    for (int rank = 0; rank < g; ++rank) {
      pids.push_back(start_rank(id, g, rank, layout));
      ASSERT_GT(pids.back(), 0) << "posix_spawn failed";
    }
    EXPECT_TRUE(all_passed(pids)) << g << " processes, layout "
                                  << (layout == SlabLayout::natural ? "natural" : "y_slabs")
                                  << ": a rank failed or timed out (its output above)";
    if (layout == SlabLayout::natural) id = nccl_unique_id_text();  // a fresh id for the next clique
  }
}

TEST(GpuMultiProcess, MalformedIdAndRankAreRefused) {
  if (validate::gpu_count() < 1) GTEST_SKIP() << "no CUDA GPU visible: GPU tests skipped";
  try {
    nccl_unique_id_text();
  } catch (const GpuUnavailable& e) {
    GTEST_SKIP() << e.what();
  }
  EXPECT_THROW(nccl_communicator("12ab", 2, 0, 0), UsageError);
  EXPECT_THROW(nccl_communicator(std::string(256, 'z'), 2, 0, 0), UsageError);
  EXPECT_THROW(nccl_communicator(std::string(256, '0'), 2, 2, 0), UsageError);
}

}  // namespace
}  // namespace fft3d::testing
