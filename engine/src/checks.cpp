#include "fft3d/checks.hpp"

#include <array>
#include <optional>

#include "fft3d/arch_profile.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/limits.hpp"

namespace fft3d {
namespace {

std::string axis_name(Axis axis) { return std::string(1, axis_letter(axis)); }

class PlanChecker {
 public:
  explicit PlanChecker(const ParsedPlan& parsed) : plan_(parsed.plan), at_(parsed.locations) {}

  std::vector<Diagnostic> run() {
    check_arch();
    check_size();
    check_axes();
    if (plan_.kernels.empty()) error(at_.kernels, "a plan needs at least one kernel");
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      if (plan_.kernels[k].subs.empty())
        error(kernel_at(k), "empty kernel " + std::to_string(k) + ": a kernel needs at least one sub-computation" +
                                (plan_.kernels[k].real ? " (put the real step in the kernel before or after)" : ""));
      for (std::size_t s = 0; s < plan_.kernels[k].subs.size(); ++s) check_term(k, s);
    }
    check_real_steps();
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
      const std::int64_t n = plan_.size[axis];
      if (n <= 0) {
        error(at_.size, axis_name(axis) + " length " + std::to_string(n) + " must be positive");
        all_positive = false;
      } else if (transforms(plan_, axis) && !is_supported_length(n)) {  // an untransformed axis: any length
        error(at_.size, axis_name(axis) + " length " + unsupported_length_reason(n));
      } else {
        valid_length_[axis_index(axis)] = true;
      }
    }
    if (!all_positive) return;
    const unsigned __int128 elements = static_cast<unsigned __int128>(plan_.size.nx) * plan_.size.ny * plan_.size.nz;
    if (elements > static_cast<unsigned __int128>(max_elements))
      error(at_.size, "size " + to_string(plan_.size) +
                          " has more elements than any buffer can hold (the limit is 2^58 complex values)");
    if (const std::optional<std::string> why = over_1d_limit(plan_.size)) error(at_.size, *why);
  }

  // The transformed axes: at least one, each once, in X, Y, Z order (the parser stores them so; a plan built in
  // code may not).
  void check_axes() {
    if (plan_.axes.empty()) {
      error(at_.axes, "empty axes list: a plan transforms at least one axis");
      return;
    }
    for (std::size_t i = 1; i < plan_.axes.size(); ++i)
      if (axis_index(plan_.axes[i - 1]) >= axis_index(plan_.axes[i])) {
        error(at_.axes, "axes " + axes_text(plan_.axes) + " must name each axis once, in X, Y, Z order");
        return;
      }
  }

  void check_term(std::size_t k, std::size_t s) {
    const SubComputation& sub = plan_.kernels[k].subs[s];
    const std::string term = to_string(sub) + ": ";
    const SourceLocation& where = sub_at(k, s);
    if (!transforms(plan_, sub.axis)) {  // an empty axes list is reported once, at the list
      if (plan_.axes.empty()) return;
      error(where, term + "a stage on the " + axis_name(sub.axis) + " axis, which the plan does not transform (axes: " +
                       axes_text(plan_.axes) + ")");
      return;
    }
    const std::int64_t n = stage_length(plan_, sub.axis);
    if (!valid_length_[axis_index(sub.axis)]) return;  // already reported at size
    if (n == 1) {
      error(where, term + "the " + axis_name(sub.axis) + " axis has " + length_word(sub.axis) +
                       " 1; a stage on it does nothing");
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
      error(where, term + "span " + std::to_string(sub.span) + " does not divide the " + length_text(sub.axis));
    if (n % sub.radix != 0) {
      error(where, term + "radix " + std::to_string(sub.radix) + " does not divide the " + length_text(sub.axis));
    } else if (sub.count != n / sub.radix) {
      error(where, term + "count " + std::to_string(sub.count) + " is not the " + length_text(sub.axis) +
                       " / radix " + std::to_string(sub.radix) + " = " + std::to_string(n / sub.radix));
    }
    if (sub.stride == 1 && sub.twiddle)
      error(where, term + "a stage with stride 1 has only unit twiddles: write no-tw");
    if (sub.stride > 1 && !sub.twiddle)
      error(where, term + "a stage with stride " + std::to_string(sub.stride) +
                       " > 1 needs its DIF twiddles: write tw");
  }

  // At most one real step, on X, of length NX, at a legal position of its kernel, and placed between the
  // axes' stages as its kind requires (docs/plan-language.md, "Real transforms").
  void check_real_steps() {
    std::optional<std::size_t> first;
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      const Kernel& kernel = plan_.kernels[k];
      if (!kernel.real) continue;
      const std::string term = to_string(*kernel.real) + ": ";
      if (first) {
        error(real_at(k), term + "a second real step (the first is in kernel " + std::to_string(*first) +
                                "): a plan has at most one real step");
        continue;
      }
      first = k;
      check_real_step(k);
    }
  }

  void check_real_step(std::size_t k) {
    const Kernel& kernel = plan_.kernels[k];
    const RealStep& step = *kernel.real;
    const std::string term = to_string(step) + ": ";
    const SourceLocation where = real_at(k);
    if (step.kind == TransformKind::c2c) error(where, term + "a real step is R2C or C2R");
    if (step.axis != Axis::x) error(where, term + "a real step must be on X (the contiguous axis)");
    if (!transforms(plan_, Axis::x))
      error(where, term + "a real step needs X among the transformed axes (axes: " + axes_text(plan_.axes) + ")");
    if (step.length != plan_.size.nx)
      error(where, term + "the step's length " + std::to_string(step.length) + " is not the X length " +
                       std::to_string(plan_.size.nx) + " (NX, the reals per row)");
    if (kernel.real_position > kernel.subs.size()) {
      error(where, term + "the step stands after sub-computation " + std::to_string(kernel.real_position) +
                       " of a kernel of " + std::to_string(kernel.subs.size()));
      return;
    }
    // A step off X or of no real kind has no place to be in: its order errors would only repeat that.
    if (step.kind != TransformKind::c2c && step.axis == Axis::x) {
      check_real_order(k);
      if (plan_.size.nx % 2 != 0) check_odd_rows_in_step_kernel(k);
    }
  }

  // An odd NX: every X stage in the step's kernel (RealStep: the X intermediate of NX complex values a row has no
  // room in the real rows between kernels).
  void check_odd_rows_in_step_kernel(std::size_t real_kernel) {
    const RealStep& step = *plan_.kernels[real_kernel].real;
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      if (k == real_kernel) continue;
      for (std::size_t s = 0; s < plan_.kernels[k].subs.size(); ++s) {
        const SubComputation& sub = plan_.kernels[k].subs[s];
        if (sub.axis != Axis::x) continue;
        error(sub_at(k, s), to_string(sub) + ": an X stage in kernel " + std::to_string(k) + ", but " +
                                to_string(step) + " is in kernel " + std::to_string(real_kernel) + ": with NX = " +
                                std::to_string(plan_.size.nx) +
                                " odd, every X stage runs in the step's kernel (its rows of NX complex values have "
                                "no room in the real rows between kernels); move this stage there");
      }
    }
  }

  // Every stage on the wrong side of the step: an error at the stage, saying where the step must go.
  void check_real_order(std::size_t real_kernel) {
    const Kernel& holder = plan_.kernels[real_kernel];
    const RealStep& step = *holder.real;
    const bool r2c = step.kind == TransformKind::r2c;
    const std::string name = r2c ? "R2C" : "C2R";
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      for (std::size_t s = 0; s < plan_.kernels[k].subs.size(); ++s) {
        const SubComputation& sub = plan_.kernels[k].subs[s];
        const bool before = k < real_kernel || (k == real_kernel && s < holder.real_position);
        const bool on_x = sub.axis == Axis::x;
        const bool must_be_before = r2c == on_x;  // R2C: X stages before; C2R: Y and Z stages before
        if (before == must_be_before) continue;
        const std::string rule = r2c ? "the R2C step must follow every X stage and precede every Y and Z stage"
                                     : "the C2R step must follow every Y and Z stage and precede every X stage";
        error(sub_at(k, s), to_string(sub) + ": " + (on_x ? "an X" : std::string("a ") + axis_name(sub.axis)) +
                                " stage " + (before ? "before " : "after ") + to_string(step) + ": " + rule +
                                "; move " + name + " " + (before ? "before" : "after") + " this stage");
      }
    }
  }

  // Walks all stages in execution order, keeping the span each axis expects next.
  void check_chains() {
    const Extents lengths = stage_extents(plan_);
    std::array<std::int64_t, 3> expected{lengths.nx, lengths.ny, lengths.nz};
    std::array<std::optional<std::pair<std::size_t, std::size_t>>, 3> last;  // last stage of each axis
    for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
      for (std::size_t s = 0; s < plan_.kernels[k].subs.size(); ++s) {
        const SubComputation& sub = plan_.kernels[k].subs[s];
        const int a = axis_index(sub.axis);
        if (!valid_length_[a] || lengths[sub.axis] == 1 || !transforms(plan_, sub.axis)) continue;
        if (sub.span != expected[a]) error(sub_at(k, s), chain_break(sub, expected, last[a].has_value()));
        expected[a] = sub.stride;
        last[a] = {{k, s}};
      }
    }
    for (Axis axis : all_axes) {
      const int a = axis_index(axis);
      const std::int64_t n = lengths[axis];
      if (!valid_length_[a] || n == 1 || !transforms(plan_, axis)) continue;
      if (!last[a]) {
        error(at_.kernels, "no stage on the " + axis_name(axis) + " axis of " + length_word(axis) + " " +
                               std::to_string(n) + ": its radices must multiply to " + std::to_string(n));
      } else if (expected[a] != 1) {
        std::optional<std::int64_t> product = 1;
        for (const SubComputation& stage : stages_of(plan_, axis))
          product = product ? checked_multiply(*product, stage.radix) : std::nullopt;
        const auto [k, s] = *last[a];
        error(sub_at(k, s), to_string(plan_.kernels[k].subs[s]) + ": the " + axis_name(axis) +
                                " chain ends at stride " + std::to_string(expected[a]) +
                                ", expected 1: its radices multiply to " +
                                (product ? std::to_string(*product) : "more than fits in 64 bits") +
                                ", not the " + length_text(axis));
      }
    }
  }

  std::string chain_break(const SubComputation& sub, const std::array<std::int64_t, 3>& expected, bool has_previous) {
    const int a = axis_index(sub.axis);
    std::string text = to_string(sub) + ": ";
    if (!has_previous) {
      text += "the first " + axis_name(sub.axis) + " stage must have span " + std::to_string(expected[a]) + " (the " +
              axis_name(sub.axis) + " " + length_word(sub.axis) + "), got " + std::to_string(sub.span);
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
      if (other == sub.axis || !valid_length_[b] || expected[b] == 1 || !transforms(plan_, other)) continue;
      SubComputation renamed = sub;
      renamed.axis = other;
      if (sub.radix > 0 && sub.span == expected[b] && renamed.count == stage_length(plan_, other) / sub.radix)
        text += "; did you mean " + to_string(renamed) + "? it would continue the " + axis_name(other) + " chain";
    }
    return text;
  }

  // The X stages of a real plan of even NX transform NX/2 complex values: their length is stage_length, not the X
  // length (an odd NX's X stages transform NX).
  bool halved(Axis axis) const { return axis == Axis::x && packs_real_rows(plan_); }
  // "length" or "stage length (NX/2)": what a stage's values are checked against.
  std::string length_word(Axis axis) const { return halved(axis) ? "stage length (NX/2)" : "length"; }
  // "Z length 256" or "X stage length (NX/2) 128".
  std::string length_text(Axis axis) const {
    return axis_name(axis) + " " + length_word(axis) + " " + std::to_string(stage_length(plan_, axis));
  }

  SourceLocation kernel_at(std::size_t k) const {
    if (k < at_.kernel.size()) return at_.kernel[k];
    return {"<plan kernel " + std::to_string(k) + ">", 0, 0};
  }
  SourceLocation real_at(std::size_t k) const { return k < at_.real.size() ? at_.real[k] : kernel_at(k); }
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
  parsed.locations.size = parsed.locations.arch = parsed.locations.axes = parsed.locations.kernels = unknown;
  return check_plan(parsed);
}

void require_legal(const Plan& plan) {
  std::vector<Diagnostic> errors = check_plan(plan);
  if (!errors.empty()) throw PlanError(std::move(errors));
}

}  // namespace fft3d
