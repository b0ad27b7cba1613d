// Where this machine keeps what fft3d computed for it: compiled kernels (cuda/kernel_cache.cpp) and wisdom (measured
// plans, wisdom.hpp). Files there are written atomically, so several processes may share the directory.
#pragma once

#include <filesystem>
#include <string>

#include "fft3d/file_writes.hpp"

namespace fft3d {

// $FFT3D_CACHE_DIR, else ~/.cache/fft3d, else a directory under the system's temporary one. Creates nothing: a
// reader needs no writable directory.
std::filesystem::path cache_directory_path();
// cache_directory_path(), created on demand; throws UsageError when it cannot be created.
std::string cache_directory();

}  // namespace fft3d
