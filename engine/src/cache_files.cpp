#include "cache_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "fft3d/diagnostics.hpp"

namespace fft3d {
namespace {

std::string why(int error) { return std::strerror(error); }

// Writes all of `bytes` to `fd`, retrying short writes and interrupted calls; the errno of a failure, else 0.
int write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return wrote < 0 ? errno : ENOSPC;
    done += static_cast<std::size_t>(wrote);
  }
  return 0;
}

// A path that exists and is no regular file (a device such as /dev/stdout or /dev/full, a pipe) cannot be
// replaced by a rename: it is written in place, every write checked.
void write_in_place(const std::string& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw UsageError("cannot write " + path + ": " + why(errno));
  const int error = write_all(fd, bytes);
  const int closed = ::close(fd) == 0 ? 0 : errno;
  if (error || closed) throw UsageError("cannot write " + path + ": " + why(error ? error : closed));
}

}  // namespace

std::filesystem::path cache_directory_path() {
  if (const char* env = std::getenv("FFT3D_CACHE_DIR"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache" / "fft3d";
  return std::filesystem::temp_directory_path() / "fft3d-cache";
}

std::string cache_directory() {
  const std::filesystem::path dir = cache_directory_path();
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw UsageError("cannot create the cache directory " + dir.string() + ": " + error.message());
  return dir.string();
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    write_in_place(path, bytes);
    return;
  }
  // mkstemp: a name no other process or thread holds, created with O_EXCL.
  std::string temp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw UsageError("cannot write " + path + ": cannot create a temporary file beside it: " + why(errno));
  int error = write_all(fd, bytes);
  if (!error && ::fchmod(fd, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH) != 0) error = errno;
  if (!error && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (!error && ::rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error) {
    ::unlink(temp.c_str());
    throw UsageError("cannot write " + path + ": " + why(error));
  }
}

}  // namespace fft3d
