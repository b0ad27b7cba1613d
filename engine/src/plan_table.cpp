#include "fft3d/plan_table.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace fft3d {

namespace fs = std::filesystem;

namespace {

// Where a table directory lies relative to the running executable's folder: a build tree holds one beside its
// executables (the build links plans/ there), an installed bin/ has share/ beside it.
const char* const executable_relative_plans_dirs[] = {"share/fft3d/plans", "../share/fft3d/plans"};

// The running executable's folder; empty where the platform does not say.
fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

}  // namespace

std::vector<std::string> plan_table_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("FFT3D_PLANS_DIR"); env && *env) dirs.emplace_back(env);
  // Resolved, so that a build tree names the source tree's files (the ones to edit), not its link to them.
  if (const fs::path exe = executable_dir(); !exe.empty())
    for (const char* relative : executable_relative_plans_dirs) {
      std::error_code ec;
      const fs::path dir = fs::canonical(exe / relative, ec);
      if (!ec) dirs.push_back(dir);
    }
  dirs.emplace_back(FFT3D_INSTALLED_PLANS_DIR);
  return dirs;
}

namespace {

std::vector<TableEntry> entries_in(const fs::path& root, const std::string& arch) {
  static const std::regex name(R"((\d+)x(\d+)x(\d+)(-in-place)?\.yaml)");
  std::vector<TableEntry> entries;
  std::error_code ec;
  for (const fs::directory_entry& dir : fs::directory_iterator(root, ec)) {
    if (!dir.is_directory() || (!arch.empty() && dir.path().filename() != arch)) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(dir.path(), ec)) {
      std::smatch m;
      const std::string filename = file.path().filename().string();
      if (!std::regex_match(filename, m, name)) continue;
      entries.push_back({dir.path().filename().string(), {std::stoll(m[1]), std::stoll(m[2]), std::stoll(m[3])},
                         file.path().string(), m[4].matched});
    }
  }
  return entries;
}

}  // namespace

std::vector<TableEntry> table_entries(const std::string& arch) {
  for (const std::string& dir : plan_table_dirs()) {
    std::vector<TableEntry> entries = entries_in(dir, arch);
    if (entries.empty()) continue;
    std::sort(entries.begin(), entries.end(), [](const TableEntry& a, const TableEntry& b) {
      return std::tuple(a.arch, a.size.elements(), a.size.nx, a.size.ny, a.in_place_only) <
             std::tuple(b.arch, b.size.elements(), b.size.nx, b.size.ny, b.in_place_only);
    });
    return entries;
  }
  return {};
}

std::optional<std::string> find_table_plan(const std::string& arch, const Extents& size, bool in_place) {
  std::optional<std::string> both;
  for (const TableEntry& entry : table_entries(arch)) {
    if (entry.size != size) continue;
    if (!entry.in_place_only) both = entry.path;
    else if (in_place) return entry.path;
  }
  return both;
}

}  // namespace fft3d
