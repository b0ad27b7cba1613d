// Where this machine keeps what fft3d computed for it: compiled kernels (cuda/kernel_cache.cpp) and wisdom (measured
// plans, wisdom.hpp). Files there are written atomically, so several processes may share the directory.
#pragma once

#include <string>

namespace fft3d {

// $FFT3D_CACHE_DIR, else ~/.cache/fft3d, else a directory under the system's temporary one (created on demand).
std::string cache_directory();
// Writes `bytes` to a temporary file beside `path` and renames it over `path`. Throws UsageError when it cannot.
void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace fft3d
