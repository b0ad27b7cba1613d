#include "fft3d/plan_table.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <tuple>
#include <utility>

#include "fft3d/diagnostics.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"

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

struct TableFileName {
  Extents size;
  bool in_place_only = false;
  TransformKind kind = TransformKind::c2c;
};

// "<NX>x<NY>x<NZ>[-r2c|-c2r][-in-place].yaml": the size, the kind and whether the plan is for runs in place; nothing
// for another name.
std::optional<TableFileName> parse_table_file_name(std::string name) {
  const std::string yaml = ".yaml", in_place = "-in-place";
  if (!name.ends_with(yaml)) return std::nullopt;
  name.resize(name.size() - yaml.size());
  TableFileName named;
  named.in_place_only = name.ends_with(in_place);
  if (named.in_place_only) name.resize(name.size() - in_place.size());
  for (TransformKind kind : {TransformKind::r2c, TransformKind::c2r})
    if (name.ends_with(kind_suffix(kind))) {
      named.kind = kind;
      name.resize(name.size() - kind_suffix(kind).size());
      break;
    }
  if (name.empty() || name.find_first_not_of("0123456789x") != std::string::npos) return std::nullopt;
  try {
    named.size = parse_extents(name);
    check_size_limits(named.size);
    return named;
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

std::vector<TableEntry> entries_in(const fs::path& root, const std::string& arch,
                                   std::optional<TransformKind> kind) {
  std::vector<TableEntry> entries;
  std::error_code ec;
  for (const fs::directory_entry& dir : fs::directory_iterator(root, ec)) {
    if (!dir.is_directory() || (!arch.empty() && dir.path().filename() != arch)) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(dir.path(), ec)) {
      const auto named = parse_table_file_name(file.path().filename().string());
      if (!named || (kind && named->kind != *kind)) continue;
      entries.push_back(
          {dir.path().filename().string(), named->size, file.path().string(), named->in_place_only, named->kind});
    }
  }
  return entries;
}

}  // namespace

std::string kind_suffix(TransformKind kind) { return kind == TransformKind::c2c ? "" : "-" + to_string(kind); }

std::string table_file_name(const Extents& size, bool in_place, TransformKind kind, Precision precision) {
  return to_string(size) + kind_suffix(kind) + (in_place ? "-in-place" : "") +
         (precision == Precision::fp64 ? "-fp64" : "") + ".yaml";
}

std::string gpu_table_folder(const std::string& device_name) {
  std::string folder;
  for (const char c : device_name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) folder += static_cast<char>(std::tolower(u));
    else if (!folder.empty() && folder.back() != '-') folder += '-';
  }
  while (!folder.empty() && folder.back() == '-') folder.pop_back();
  return folder;
}

std::vector<GpuTableFile> gpu_table_files(const std::string& arch) {
  if (!arch.empty()) require_arch_profile(arch);
  std::vector<GpuTableFile> files;
  std::error_code ec;
  for (const std::string& dir : plan_table_dirs())
    for (const fs::directory_entry& arch_dir : fs::directory_iterator(dir, ec)) {
      if (!arch.empty() && arch_dir.path().filename() != arch) continue;
      for (const fs::directory_entry& gpu : fs::directory_iterator(arch_dir.path() / "gpus", ec))
        for (const fs::directory_entry& file : fs::directory_iterator(gpu.path(), ec))
          if (file.path().extension() == ".yaml")
            files.push_back(
                {arch_dir.path().filename().string(), gpu.path().filename().string(), file.path().string()});
    }
  const auto by_path = [](const GpuTableFile& a, const GpuTableFile& b) { return a.path < b.path; };
  std::sort(files.begin(), files.end(), by_path);
  // One directory may be named twice (FFT3D_PLANS_DIR and the build's link to the same plans/).
  files.erase(std::unique(files.begin(), files.end(),
                          [](const GpuTableFile& a, const GpuTableFile& b) { return a.path == b.path; }),
              files.end());
  return files;
}

bool arch_table_has_in_place_file(const std::string& arch, const Extents& size, TransformKind kind) {
  for (const TableEntry& entry : table_entries(arch, kind))
    if (entry.size == size && entry.in_place_only) return true;
  return false;
}

namespace {

// A plan whose natural order takes the digit-reversal pass in place but not out of place (a sorted layout whose tiles
// no cluster holds in place): measured out of place, it would pay a reorder and a copy back in place.
bool out_of_place_only(const Plan& plan) {
  const NaturalOrderPlacements placements = natural_order_placements(plan);
  return placements.out_of_place && !placements.in_place;
}

}  // namespace

std::optional<std::string> find_gpu_table_plan(const std::string& arch, const std::string& device_name,
                                               const Extents& size, bool in_place, TransformKind kind,
                                               Precision precision) {
  require_arch_profile(arch);
  const std::string folder = gpu_table_folder(device_name);
  if (folder.empty()) return std::nullopt;
  for (const std::string& dir : plan_table_dirs()) {
    const fs::path gpu = fs::path(dir) / arch / "gpus" / folder;
    std::error_code ec;
    if (!fs::is_directory(gpu, ec)) continue;
    const fs::path in_place_file = gpu / table_file_name(size, true, kind, precision);
    if (in_place && fs::is_regular_file(in_place_file, ec)) return in_place_file.string();
    if (in_place && arch_table_has_in_place_file(arch, size, kind)) return std::nullopt;
    const fs::path file = gpu / table_file_name(size, false, kind, precision);
    if (!fs::is_regular_file(file, ec)) return std::nullopt;
    if (in_place && out_of_place_only(load_plan_file(file.string()).plan)) return std::nullopt;
    return file.string();
  }
  return std::nullopt;
}

std::vector<TableEntry> table_entries(const std::string& arch, std::optional<TransformKind> kind) {
  if (!arch.empty()) require_arch_profile(arch);
  for (const std::string& dir : plan_table_dirs()) {
    std::vector<TableEntry> entries = entries_in(dir, arch, kind);
    if (entries.empty()) continue;
    std::sort(entries.begin(), entries.end(), [](const TableEntry& a, const TableEntry& b) {
      return std::tuple(a.arch, a.size.elements(), a.size.nx, a.size.ny, a.kind, a.in_place_only) <
             std::tuple(b.arch, b.size.elements(), b.size.nx, b.size.ny, b.kind, b.in_place_only);
    });
    return entries;
  }
  return {};
}

std::optional<std::string> find_table_plan(const std::string& arch, const Extents& size, bool in_place,
                                           TransformKind kind) {
  std::optional<std::string> both;
  for (const TableEntry& entry : table_entries(arch, kind)) {
    if (entry.size != size) continue;
    if (!entry.in_place_only) both = entry.path;
    else if (in_place) return entry.path;
  }
  return both;
}

}  // namespace fft3d
