// Files the library and its tools write (plans, wisdom, kernel cache entries, reports): whole or not at all.
#pragma once

#include <string>

namespace fft3d {

// Writes `bytes` to a temporary file of a unique name (mkstemp) beside `path`, checks every write, fsync and close,
// and renames it over `path`: a reader sees the old file or the whole new one, never a part. A `path` that exists
// and is no regular file (a device, a pipe) is written in place instead, every write checked. Throws UsageError
// naming the path and the system's reason when anything fails; no temporary file is left behind.
void write_file_atomically(const std::string& path, const std::string& bytes);

}  // namespace fft3d
