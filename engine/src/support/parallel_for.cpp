#include "parallel_for.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace fft3d {

void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t, std::int64_t)>& body) {
  const std::int64_t parts = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(count, 1));
  if (parts == 1) {
    body(0, count);
    return;
  }
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto run_part = [&](std::int64_t part) {
    try {
      body(count * part / parts, count * (part + 1) / parts);
    } catch (...) {
      const std::lock_guard lock(error_mutex);
      if (!first_error) first_error = std::current_exception();
    }
  };
  // A thread the system refuses to start ends the call with an error, after the started ones are joined (a
  // joinable std::thread destroyed unjoined terminates the process).
  std::vector<std::thread> workers;
  std::exception_ptr start_error;
  try {
    for (std::int64_t part = 1; part < parts; ++part) workers.emplace_back(run_part, part);
  } catch (const std::system_error& e) {
    start_error = std::make_exception_ptr(std::runtime_error(
        "cannot start thread " + std::to_string(workers.size() + 1) + " of " + std::to_string(parts) + ": " +
        e.what() + " (ask for fewer threads)"));
  }
  if (!start_error) run_part(0);
  for (std::thread& worker : workers) worker.join();
  if (start_error) std::rethrow_exception(start_error);
  if (first_error) std::rethrow_exception(first_error);
}

int threads_for(std::int64_t count, std::int64_t min_per_thread) {
  const std::int64_t hardware = std::max<unsigned>(1, std::thread::hardware_concurrency());
  return static_cast<int>(std::clamp<std::int64_t>(count / std::max<std::int64_t>(1, min_per_thread), 1, hardware));
}

}  // namespace fft3d
