#include "kernel_cache.hpp"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "cache_files.hpp"
#include "cuda/cuda_compiler.hpp"
#include "fft3d/diagnostics.hpp"

namespace fft3d {

namespace cache {

std::string key_text(std::uint64_t key) {
  std::ostringstream text;
  text << std::hex << std::setw(16) << std::setfill('0') << key;
  return text.str();
}

std::string entry_path(std::uint64_t key, const std::string& extension) {
  return (std::filesystem::path(cache_directory()) / (key_text(key) + "." + extension)).string();
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

}  // namespace cache
}  // namespace fft3d
