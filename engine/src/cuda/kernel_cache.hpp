// The on-disk kernel cache: files named by a 64-bit key, written atomically (temp file, then rename), so several
// processes may share one directory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fft3d::cache {

std::string key_text(std::uint64_t key);  // 16 hex digits
std::string entry_path(std::uint64_t key, const std::string& extension);  // <dir>/<key>.<extension>
std::optional<std::string> read_file(const std::string& path);

}  // namespace fft3d::cache
