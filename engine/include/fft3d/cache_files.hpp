// Where this machine keeps what fft3d computed for it: compiled kernels (cuda/kernel_cache.cpp) and wisdom (measured
// plans, wisdom.hpp). Files there are written atomically, so several processes may share the directory.
#pragma once

#include <filesystem>
#include <string>

namespace fft3d {

// $FFT3D_CACHE_DIR, else ~/.cache/fft3d, else a directory under the system's temporary one. Creates nothing: a
// reader needs no writable directory.
std::filesystem::path cache_directory_path();
// cache_directory_path(), created on demand; throws UsageError when it cannot be created.
std::string cache_directory();
// Writes `bytes` to a temporary file of a unique name (mkstemp) beside `path`, checks every write, fsync and close,
// and renames it over `path`: a reader sees the old file or the whole new one, never a part. A `path` that exists
// and is no regular file (a device, a pipe) is written in place instead, every write checked. Throws UsageError
// naming the path and the system's reason when anything fails; no temporary file is left behind.
void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace fft3d
