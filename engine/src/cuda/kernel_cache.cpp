#include "kernel_cache.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <thread>

#include "fft3d/cuda_compiler.hpp"
#include "fft3d/diagnostics.hpp"

namespace fft3d {

std::string kernel_cache_directory() {
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
  if (error) throw UsageError("cannot create the kernel cache directory " + dir.string() + ": " + error.message());
  return dir.string();
}

namespace cache {

std::string key_text(std::uint64_t key) {
  std::ostringstream text;
  text << std::hex << std::setw(16) << std::setfill('0') << key;
  return text.str();
}

std::string entry_path(std::uint64_t key, const std::string& extension) {
  return (std::filesystem::path(kernel_cache_directory()) / (key_text(key) + "." + extension)).string();
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

void write_file_atomically(const std::string& path, const std::string& bytes) {
  std::ostringstream temp;
  temp << path << ".tmp." << std::hash<std::thread::id>{}(std::this_thread::get_id());
  {
    std::ofstream file(temp.str(), std::ios::binary | std::ios::trunc);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file) throw UsageError("cannot write " + temp.str());
  }
  std::filesystem::rename(temp.str(), path);
}

}  // namespace cache
}  // namespace fft3d
