#include "cache_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "fft3d/diagnostics.hpp"

namespace fft3d {

std::string cache_directory() {
  std::filesystem::path dir;
  if (const char* env = std::getenv("FFT3D_CACHE_DIR"); env && *env) {
    dir = env;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = std::filesystem::path(home) / ".cache" / "fft3d";
  } else {
    dir = std::filesystem::temp_directory_path() / "fft3d-cache";
  }
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw UsageError("cannot create the cache directory " + dir.string() + ": " + error.message());
  return dir.string();
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
  std::ostringstream temp;
  temp << path << ".tmp." << std::hash<std::thread::id>{}(std::this_thread::get_id());
  {
    std::ofstream file(temp.str(), std::ios::binary | std::ios::trunc);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file) throw UsageError("cannot write " + temp.str());
  }
  std::error_code error;
  std::filesystem::rename(temp.str(), path, error);
  if (error) throw UsageError("cannot write " + path + ": " + error.message());
}

}  // namespace fft3d
