#include "fft3d/plan_text.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "fft3d/checks.hpp"
#include "fft3d/limits.hpp"
#include "notation_parser.hpp"

namespace fft3d {
namespace {

// A decoded character is looked for at most this far past the previous one in the raw text (escapes and folded
// line breaks are shorter); past it, later offsets fall back to the node start, so no scalar costs a scan of the
// whole file.
constexpr std::size_t max_alignment_gap = 256;

// The raw file text, to turn byte offsets into line:column (a binary search over the line starts, found once).
class SourceText {
 public:
  SourceText(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }

  SourceLocation at(std::size_t pos) const {
    pos = std::min(pos, text_.size());
    const auto line = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos) - 1;
    return {file_, static_cast<int>(line - line_starts_.begin()) + 1, static_cast<int>(pos - *line) + 1};
  }
  SourceLocation at(const YAML::Mark& mark) const {
    if (mark.is_null()) return {file_, 0, 0};
    return {file_, mark.line + 1, mark.column + 1};
  }

  // A locator for a scalar's decoded value: aligns the value with the raw text from the node's start, so that
  // quotes, escapes and line folding are skipped over.
  detail::Locator locator(const YAML::Node& node) const {
    const std::string value = node.Scalar();
    const YAML::Mark mark = node.Mark();
    std::vector<std::size_t> raw_pos(value.size() + 1, mark.pos);
    std::size_t raw = static_cast<std::size_t>(mark.pos);
    for (std::size_t j = 0; j < value.size(); ++j) {
      std::size_t probe = raw;
      const std::size_t limit = std::min(text_.size(), raw + max_alignment_gap);
      while (probe < limit && text_[probe] != value[j]) ++probe;
      if (probe >= limit) break;  // cannot align: later offsets fall back to the node start
      raw_pos[j] = probe;
      raw = probe + 1;
    }
    if (!value.empty()) raw_pos[value.size()] = raw_pos[value.size() - 1] + 1;
    return [this, raw_pos](std::size_t offset) { return at(raw_pos[std::min(offset, raw_pos.size() - 1)]); };
  }

  const std::string& file() const { return file_; }

 private:
  std::string_view text_;
  std::string file_;
  std::vector<std::size_t> line_starts_;
};

class PlanFileParser {
 public:
  PlanFileParser(std::string_view text, const std::string& file) : source_(text, file), text_(text) {}

  ParsedPlan parse() {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text_));
    } catch (const YAML::Exception& e) {
      error(source_.at(e.mark), "YAML syntax: " + e.msg);
      throw PlanError(errors_);
    }
    if (!root.IsMap()) {
      error(root.IsDefined() ? source_.at(root.Mark()) : SourceLocation{source_.file(), 1, 1},
            "a plan file is a YAML map with the keys size, arch and kernels (or plan)");
      throw PlanError(errors_);
    }
    SourceLocation root_at = source_.at(root.Mark());
    parsed_.locations.size = parsed_.locations.arch = parsed_.locations.kernels = root_at;
    parsed_.locations.precision = parsed_.locations.batch = root_at;
    bool has_size = false, has_arch = false, has_kernels = false, has_axes = false;
    std::set<std::string> seen;
    for (const auto& entry : root) {
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "";
      const YAML::Node& value = entry.second;
      if (!key.empty() && !seen.insert(key).second && key != "kernels" && key != "plan") {
        error(source_.at(entry.first.Mark()), "duplicate key '" + key + "': give it once");
        continue;
      }
      if (key == "size") {
        has_size = true;
        parse_size(value);
      } else if (key == "arch") {
        has_arch = true;
        parsed_.locations.arch = source_.at(value.Mark());
        if (value.IsScalar()) {
          parsed_.plan.arch = value.Scalar();
        } else {
          error(source_.at(value.Mark()), "arch must be a name such as tesla, fermi or hopper");
        }
      } else if (key == "axes") {
        has_axes = true;
        parse_axes(value);
      } else if (key == "precision") {
        parse_precision(value);
      } else if (key == "batch") {
        parse_batch(value);
      } else if (key == "kernels" || key == "plan") {
        if (has_kernels) error(source_.at(entry.first.Mark()), "give the kernels once: either kernels: or plan:");
        has_kernels = true;
        parsed_.locations.kernels = source_.at(value.Mark());
        if (key == "kernels") {
          parse_kernel_list(value);
        } else {
          parse_brace_form(value);
        }
      } else if (key == "source") {
        if (value.IsScalar()) parsed_.source_note = value.Scalar();
      } else {
        error(source_.at(entry.first.Mark()),
              "unknown key '" + key + "': expected size, arch, axes, precision, batch, kernels, plan or source");
      }
    }
    if (!has_size) error(root_at, "missing size: [NX, NY, NZ]");
    if (!has_arch) error(root_at, "missing arch: one of tesla, fermi, hopper");
    if (!has_kernels) error(root_at, "missing kernels: (a list, one entry per kernel) or plan: (the brace form)");
    if (!has_axes) parsed_.locations.axes = parsed_.locations.kernels;
    if (!errors_.empty()) throw PlanError(errors_);
    return std::move(parsed_);
  }

 private:
  void parse_size(const YAML::Node& node) {
    parsed_.locations.size = source_.at(node.Mark());
    if (!node.IsSequence() || node.size() != 3) {
      error(source_.at(node.Mark()), "size must be a list of three lengths [NX, NY, NZ]");
      return;
    }
    std::int64_t* targets[] = {&parsed_.plan.size.nx, &parsed_.plan.size.ny, &parsed_.plan.size.nz};
    for (std::size_t i = 0; i < 3; ++i) {
      const YAML::Node& n = node[i];
      std::int64_t value = 0;
      if (!n.IsScalar() || !YAML::convert<std::int64_t>::decode(n, value)) {
        error(source_.at(n.Mark()), std::string("size entry ") + "XYZ"[i] + " '" + (n.IsScalar() ? n.Scalar() : "") +
                                        "' is not an integer that fits in 64 bits");
      } else {
        *targets[i] = value;
      }
    }
  }

  void parse_precision(const YAML::Node& node) {
    parsed_.locations.precision = source_.at(node.Mark());
    const std::string name = node.IsScalar() ? node.Scalar() : "";
    if (name == "fp32") {
      parsed_.plan.precision = Precision::fp32;
    } else if (name == "fp64") {
      parsed_.plan.precision = Precision::fp64;
    } else {
      error(source_.at(node.Mark()), "precision '" + name + "': expected fp32 or fp64");
    }
  }

  // A positive count of volumes.
  void parse_batch(const YAML::Node& node) {
    parsed_.locations.batch = source_.at(node.Mark());
    std::int64_t value = 0;
    if (!node.IsScalar() || !YAML::convert<std::int64_t>::decode(node, value) || value < 1) {
      error(source_.at(node.Mark()), "batch '" + (node.IsScalar() ? node.Scalar() : std::string()) +
                                         "': expected a positive count of volumes (1 or more)");
      return;
    }
    parsed_.plan.batch = value;
  }

  // A list of distinct letters X, Y, Z in any order, stored in X, Y, Z order (the canonical form).
  void parse_axes(const YAML::Node& node) {
    parsed_.locations.axes = source_.at(node.Mark());
    const std::string expected = "axes must be a list of the transformed axes, such as [X, Y]";
    if (!node.IsSequence()) {
      error(source_.at(node.Mark()), expected);
      return;
    }
    if (node.size() == 0) {
      error(source_.at(node.Mark()), "empty axes list: a plan transforms at least one axis (" + expected + ")");
      return;
    }
    std::array<bool, 3> listed{false, false, false};
    for (const YAML::Node& entry : node) {
      const std::string letter = entry.IsScalar() ? entry.Scalar() : "";
      const auto axis = std::find_if(all_axes.begin(), all_axes.end(),
                                     [&](Axis a) { return letter == std::string(1, axis_letter(a)); });
      if (axis == all_axes.end()) {
        error(source_.at(entry.Mark()), "unknown axis '" + letter + "' in axes: expected X, Y or Z");
      } else if (listed[axis_index(*axis)]) {
        error(source_.at(entry.Mark()), "axis " + letter + " is listed twice in axes: give each axis once");
      } else {
        listed[axis_index(*axis)] = true;
      }
    }
    parsed_.plan.axes.clear();
    for (Axis axis : all_axes)
      if (listed[axis_index(axis)]) parsed_.plan.axes.push_back(axis);
  }

  void parse_kernel_list(const YAML::Node& node) {
    if (!node.IsSequence()) {
      error(source_.at(node.Mark()), "kernels must be a list with one entry per kernel");
      return;
    }
    for (const YAML::Node& entry : node) {
      YAML::Node text;  // yaml-cpp: assigning to a Node writes into what it refers to, so rebind with reset()
      text.reset(entry);
      if (entry.IsMap()) {  // {subs: "...", ...}: room for per-kernel launch settings
        text.reset();
        for (const auto& field : entry) {
          const std::string key = field.first.IsScalar() ? field.first.Scalar() : "";
          if (key == "subs") {
            text.reset(field.second);
          } else {
            error(source_.at(field.first.Mark()), "unknown kernel setting '" + key + "': expected subs");
          }
        }
        if (!text.IsDefined() || text.IsNull()) {
          error(source_.at(entry.Mark()), "a kernel written as a map needs subs: \"X(...), Y(...)\"");
          continue;
        }
      }
      if (!text.IsScalar()) {
        error(source_.at(entry.Mark()), "a kernel is a string such as \"X(64, 4, 64, 256, tw), Y(16, 16, 1, 16, no-tw)\"");
        continue;
      }
      const std::string value = text.Scalar();
      add(detail::parse_kernel(value, 0, value.size(), source_.locator(text), errors_));
    }
  }

  void parse_brace_form(const YAML::Node& node) {
    if (!node.IsScalar()) {
      error(source_.at(node.Mark()), "plan must be a string of kernels in braces: \"{Y(...)} {X(...), Y(...)}\"");
      return;
    }
    const std::string value = node.Scalar();
    for (ParsedKernel& kernel : detail::parse_braces(value, source_.locator(node), errors_)) add(std::move(kernel));
  }

  void add(ParsedKernel kernel) {
    parsed_.plan.kernels.push_back(std::move(kernel.kernel));
    parsed_.locations.kernel.push_back(kernel.where);
    parsed_.locations.sub.push_back(std::move(kernel.locations));
    parsed_.locations.real.push_back(parsed_.plan.kernels.back().real ? kernel.real_where : kernel.where);
  }

  void error(SourceLocation where, std::string message) { errors_.push_back({std::move(where), std::move(message)}); }

  SourceText source_;
  std::string_view text_;
  ParsedPlan parsed_;
  std::vector<Diagnostic> errors_;
};

detail::Locator column_locator(const SourceLocation& where) {
  return [where](std::size_t offset) {
    SourceLocation at = where;
    if (at.line > 0) at.column += static_cast<int>(offset);
    return at;
  };
}

}  // namespace

ParsedKernel parse_kernel_text(std::string_view text, const SourceLocation& where, std::vector<Diagnostic>& errors) {
  return detail::parse_kernel(text, 0, text.size(), column_locator(where), errors);
}

std::vector<ParsedKernel> parse_brace_text(std::string_view text, const SourceLocation& where,
                                           std::vector<Diagnostic>& errors) {
  return detail::parse_braces(text, column_locator(where), errors);
}

ParsedPlan parse_plan_syntax(std::string_view yaml_text, const std::string& file) {
  return PlanFileParser(yaml_text, file).parse();
}

ParsedPlan parse_plan(std::string_view yaml_text, const std::string& file) {
  ParsedPlan parsed = parse_plan_syntax(yaml_text, file);
  std::vector<Diagnostic> errors = check_plan(parsed);
  if (!errors.empty()) throw PlanError(std::move(errors));
  return parsed;
}

ParsedPlan load_plan_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw UsageError(path + ": error: a directory, not a plan file (give a .yaml file inside it)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": error: cannot open the plan file");
  // Read in chunks up to one byte past the limit: an endless file (/dev/zero) is refused as soon as it is too long.
  constexpr std::size_t chunk = std::size_t{1} << 16;
  std::string text;
  while (in && static_cast<std::int64_t>(text.size()) <= max_plan_file_bytes) {
    const std::size_t had = text.size();
    text.resize(had + chunk);
    in.read(text.data() + had, static_cast<std::streamsize>(chunk));
    text.resize(had + static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw UsageError(path + ": error: cannot read the plan file");
  if (static_cast<std::int64_t>(text.size()) > max_plan_file_bytes)
    throw UsageError(path + ": error: over " + std::to_string(max_plan_file_bytes) +
                     " bytes, the largest plan file read (a plan of thousands of kernels fits many times over)");
  return parse_plan(text, path);
}

}  // namespace fft3d
