#include "fft3d/checks.hpp"

#include <array>
#include <optional>

#include "fft3d/arch_profile.hpp"
#include "fft3d/limits.hpp"

namespace fft3d {
namespace {

bool is_power_of_two(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

std::string axis_name(Axis axis) { return std::string(1, axis_letter(axis)); }

class PlanChecker {
 public:
  explicit PlanChecker(const ParsedPlan& parsed) : plan_(parsed.plan), at_(parsed.locations) {}

  std::vector<Diagnostic> run() {
    check_arch();
    check_size();
    if (plan_.kernels.empty()) error(at_.kernels, "a plan needs at least one kernel");
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      if (plan_.kernels[k].subs.empty())
        error(kernel_at(k), "empty kernel " + std::to_string(k) + ": a kernel needs at least one sub-computation");
      for (std::size_t s = 0; s < plan_.kernels[k].subs.size(); ++s) check_term(k, s);
    }
    check_chains();
    return std::move(errors_);
  }

 private:
  void check_arch() {
    if (!find_arch_profile(plan_.arch))
      error(at_.arch, "unknown arch '" + plan_.arch + "': expected one of " + arch_profile_names());
  }

  void check_size() {
    bool all_positive = true;
    for (Axis axis : all_axes) {
      const std::int64_t n = stage_length(plan_, axis);
      if (n <= 0) {
        error(at_.size, axis_name(axis) + " length " + std::to_string(n) + " must be positive");
        all_positive = false;
      } else if (!is_power_of_two(n)) {
        error(at_.size, axis_name(axis) + " length " + std::to_string(n) +
                            " is not a power of two (only power-of-two lengths are supported)");
      } else {
        valid_length_[axis_index(axis)] = true;
      }
    }
    if (!all_positive) return;
    const unsigned __int128 elements = static_cast<unsigned __int128>(plan_.size.nx) * plan_.size.ny * plan_.size.nz;
    if (elements > static_cast<unsigned __int128>(max_elements))
      error(at_.size, "size " + to_string(plan_.size) +
                          " has more elements than any buffer can hold (the limit is 2^58 complex values)");
  }

  void check_term(std::size_t k, std::size_t s) {
    const SubComputation& sub = plan_.kernels[k].subs[s];
    const std::string term = to_string(sub) + ": ";
    const SourceLocation& where = sub_at(k, s);
    const std::int64_t n = stage_length(plan_, sub.axis);
    if (!valid_length_[axis_index(sub.axis)]) return;  // already reported at size
    if (n == 1) {
      error(where, term + "the " + axis_name(sub.axis) + " axis has length 1; a stage on it does nothing");
      return;
    }
    if (sub.radix < 1 || sub.stride < 1 || sub.span < 1) {  // built in code: the parser takes positive values only
      error(where, term + "radix, stride and span must be positive");
      return;
    }
    if (sub.radix < 2) error(where, term + "radix " + std::to_string(sub.radix) + " does nothing; expected 2 or more");
    const std::optional<std::int64_t> product = checked_multiply(sub.radix, sub.stride);
    if (!product)
      error(where, term + "radix " + std::to_string(sub.radix) + " * stride " + std::to_string(sub.stride) +
                       " does not fit in 64 bits, so it is not the span " + std::to_string(sub.span));
    else if (*product != sub.span)
      error(where, term + "radix " + std::to_string(sub.radix) + " * stride " + std::to_string(sub.stride) + " = " +
                       std::to_string(*product) + ", not the span " + std::to_string(sub.span));
    if (n % sub.span != 0)
      error(where, term + "span " + std::to_string(sub.span) + " does not divide the " + axis_name(sub.axis) +
                       " length " + std::to_string(n));
    if (n % sub.radix != 0) {
      error(where, term + "radix " + std::to_string(sub.radix) + " does not divide the " + axis_name(sub.axis) +
                       " length " + std::to_string(n));
    } else if (sub.count != n / sub.radix) {
      error(where, term + "count " + std::to_string(sub.count) + " is not the " + axis_name(sub.axis) + " length " +
                       std::to_string(n) + " / radix " + std::to_string(sub.radix) + " = " +
                       std::to_string(n / sub.radix));
    }
    if (sub.stride == 1 && sub.twiddle)
      error(where, term + "a stage with stride 1 has only unit twiddles: write no-tw");
    if (sub.stride > 1 && !sub.twiddle)
      error(where, term + "a stage with stride " + std::to_string(sub.stride) +
                       " > 1 needs its DIF twiddles: write tw");
  }

  // Walks all stages in execution order, keeping the span each axis expects next.
  void check_chains() {
    std::array<std::int64_t, 3> expected{stage_length(plan_, Axis::x), plan_.size.ny, plan_.size.nz};
    std::array<std::optional<std::pair<std::size_t, std::size_t>>, 3> last;  // last stage of each axis
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      for (std::size_t s = 0; s < plan_.kernels[k].subs.size(); ++s) {
        const SubComputation& sub = plan_.kernels[k].subs[s];
        const int a = axis_index(sub.axis);
        if (!valid_length_[a] || stage_length(plan_, sub.axis) == 1) continue;
        if (sub.span != expected[a]) error(sub_at(k, s), chain_break(sub, expected, last[a].has_value()));
        expected[a] = sub.stride;
        last[a] = {{k, s}};
      }
    }
    for (Axis axis : all_axes) {
      const int a = axis_index(axis);
      const std::int64_t n = stage_length(plan_, axis);
      if (!valid_length_[a] || n == 1) continue;
      if (!last[a]) {
        error(at_.kernels, "no stage on the " + axis_name(axis) + " axis of length " + std::to_string(n) +
                               ": its radices must multiply to " + std::to_string(n));
      } else if (expected[a] != 1) {
        std::optional<std::int64_t> product = 1;
        for (const SubComputation& stage : stages_of(plan_, axis))
          product = product ? checked_multiply(*product, stage.radix) : std::nullopt;
        const auto [k, s] = *last[a];
        error(sub_at(k, s), to_string(plan_.kernels[k].subs[s]) + ": the " + axis_name(axis) +
                                " chain ends at stride " + std::to_string(expected[a]) +
                                ", expected 1: its radices multiply to " +
                                (product ? std::to_string(*product) : "more than fits in 64 bits") +
                                ", not the " + axis_name(axis) + " length " + std::to_string(n));
      }
    }
  }

  std::string chain_break(const SubComputation& sub, const std::array<std::int64_t, 3>& expected, bool has_previous) {
    const int a = axis_index(sub.axis);
    std::string text = to_string(sub) + ": ";
    if (!has_previous) {
      text += "the first " + axis_name(sub.axis) + " stage must have span " + std::to_string(expected[a]) + " (the " +
              axis_name(sub.axis) + " length), got " + std::to_string(sub.span);
    } else if (expected[a] == 1) {
      text += "the " + axis_name(sub.axis) + " chain is already complete (the previous " + axis_name(sub.axis) +
              " stage has stride 1), so this stage is one too many";
    } else {
      text += "span " + std::to_string(sub.span) + " does not continue the " + axis_name(sub.axis) +
              " chain: the previous " + axis_name(sub.axis) + " stage has stride " + std::to_string(expected[a]);
    }
    // A stage written with the wrong axis letter (the paper's §4.1 writes a Z kernel's second stage as Y(...)).
    for (Axis other : all_axes) {
      const int b = axis_index(other);
      if (other == sub.axis || !valid_length_[b] || expected[b] == 1) continue;
      SubComputation renamed = sub;
      renamed.axis = other;
      if (sub.radix > 0 && sub.span == expected[b] && renamed.count == stage_length(plan_, other) / sub.radix)
        text += "; did you mean " + to_string(renamed) + "? it would continue the " + axis_name(other) + " chain";
    }
    return text;
  }

  SourceLocation kernel_at(std::size_t k) const {
    if (k < at_.kernel.size()) return at_.kernel[k];
    return {"<plan kernel " + std::to_string(k) + ">", 0, 0};
  }
  SourceLocation sub_at(std::size_t k, std::size_t s) const {
    if (k < at_.sub.size() && s < at_.sub[k].size()) return at_.sub[k][s];
    return {"<plan kernel " + std::to_string(k) + " term " + std::to_string(s) + ">", 0, 0};
  }

  void error(SourceLocation where, std::string message) { errors_.push_back({std::move(where), std::move(message)}); }

  const Plan& plan_;
  const PlanLocations& at_;
  std::array<bool, 3> valid_length_{false, false, false};
  std::vector<Diagnostic> errors_;
};

}  // namespace

std::vector<Diagnostic> check_plan(const ParsedPlan& parsed) { return PlanChecker(parsed).run(); }

std::vector<Diagnostic> check_plan(const Plan& plan) {
  ParsedPlan parsed;
  parsed.plan = plan;
  const SourceLocation unknown{"<plan>", 0, 0};
  parsed.locations.size = parsed.locations.arch = parsed.locations.kernels = unknown;
  return check_plan(parsed);
}

void require_legal(const Plan& plan) {
  std::vector<Diagnostic> errors = check_plan(plan);
  if (!errors.empty()) throw PlanError(std::move(errors));
}

}  // namespace fft3d
