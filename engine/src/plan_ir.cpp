#include "fft3d/plan_ir.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "fft3d/diagnostics.hpp"

namespace fft3d {

char axis_letter(Axis axis) { return "XYZ"[axis_index(axis)]; }
int axis_index(Axis axis) { return static_cast<int>(axis); }

std::int64_t Extents::operator[](Axis axis) const {
  switch (axis) {
    case Axis::x: return nx;
    case Axis::y: return ny;
    case Axis::z: return nz;
  }
  return 1;
}

std::int64_t Extents::elements() const {
  std::int64_t plane = 0, volume = 0;
  if (__builtin_mul_overflow(nx, ny, &plane) || __builtin_mul_overflow(plane, nz, &volume))
    throw UsageError("size " + to_string(*this) + " has more elements than fit in 64 bits");
  return volume;
}

std::string to_string(const SubComputation& sub) {
  std::ostringstream out;
  out << axis_letter(sub.axis) << '(' << sub.count << ", " << sub.radix << ", " << sub.stride << ", " << sub.span
      << ", " << (sub.twiddle ? "tw" : "no-tw") << ')';
  return out.str();
}

std::string to_string(const RealStep& step) {
  return std::string(step.kind == TransformKind::c2r ? "C2R" : "R2C") + '(' + axis_letter(step.axis) + ", " +
         std::to_string(step.length) + ')';
}

std::string to_string(const Kernel& kernel) {
  std::vector<std::string> terms;
  for (const SubComputation& sub : kernel.subs) terms.push_back(to_string(sub));
  if (kernel.real)
    terms.insert(terms.begin() + static_cast<std::ptrdiff_t>(std::min(kernel.real_position, terms.size())),
                 to_string(*kernel.real));
  std::string text;
  for (const std::string& term : terms) {
    if (!text.empty()) text += ", ";
    text += term;
  }
  return text;
}

std::string to_brace_string(const std::vector<Kernel>& kernels) {
  std::string text;
  for (const Kernel& kernel : kernels) {
    if (!text.empty()) text += ' ';
    text += '{' + to_string(kernel) + '}';
  }
  return text;
}

std::string to_string(const Extents& size) {
  return std::to_string(size.nx) + 'x' + std::to_string(size.ny) + 'x' + std::to_string(size.nz);
}

std::string to_yaml(const Plan& plan) {
  std::ostringstream out;
  out << "size: [" << plan.size.nx << ", " << plan.size.ny << ", " << plan.size.nz << "]\n";
  out << "arch: " << plan.arch << "\n";
  if (!transforms_all_axes(plan)) out << "axes: " << axes_text(plan.axes) << "\n";
  if (plan.precision != Precision::fp32) out << "precision: fp64\n";
  if (plan.batch != 1) out << "batch: " << plan.batch << "\n";
  out << "kernels:\n";
  for (const Kernel& kernel : plan.kernels) out << "  - \"" << to_string(kernel) << "\"\n";
  return out.str();
}

std::ostream& operator<<(std::ostream& out, const Plan& plan) { return out << to_yaml(plan); }
std::ostream& operator<<(std::ostream& out, const Kernel& kernel) { return out << '{' << to_string(kernel) << '}'; }
std::ostream& operator<<(std::ostream& out, const SubComputation& sub) { return out << to_string(sub); }

namespace {
std::size_t combine(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}
}  // namespace

std::size_t hash_value(const SubComputation& sub) {
  std::size_t h = std::hash<int>{}(axis_index(sub.axis));
  for (std::int64_t v : {sub.count, sub.radix, sub.stride, sub.span}) h = combine(h, std::hash<std::int64_t>{}(v));
  return combine(h, sub.twiddle ? 1 : 0);
}

std::size_t hash_value(const Kernel& kernel) {
  std::size_t h = kernel.subs.size();
  for (const SubComputation& sub : kernel.subs) h = combine(h, hash_value(sub));
  if (kernel.real)
    for (std::int64_t v : {static_cast<std::int64_t>(kernel.real->kind), static_cast<std::int64_t>(kernel.real->axis),
                           kernel.real->length, static_cast<std::int64_t>(kernel.real_position)})
      h = combine(h, std::hash<std::int64_t>{}(v));
  return h;
}

std::size_t hash_value(const Plan& plan) {
  std::size_t h = std::hash<std::string>{}(plan.arch);
  for (std::int64_t v : {plan.size.nx, plan.size.ny, plan.size.nz}) h = combine(h, std::hash<std::int64_t>{}(v));
  for (const Kernel& kernel : plan.kernels) h = combine(h, hash_value(kernel));
  if (!transforms_all_axes(plan))  // the plans of every axis keep their hash
    for (Axis axis : plan.axes) h = combine(h, std::hash<int>{}(axis_index(axis)));
  if (plan.precision != Precision::fp32) h = combine(h, 64);
  if (plan.batch != 1) h = combine(h, std::hash<std::int64_t>{}(plan.batch));
  return h;
}

std::uint64_t stable_hash(const Plan& plan) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : to_yaml(plan)) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string hash_text(std::uint64_t hash) {
  std::ostringstream text;
  text << std::hex << std::setw(16) << std::setfill('0') << hash;
  return text.str();
}

std::optional<RealStep> real_step_of(const Plan& plan) {
  for (const Kernel& kernel : plan.kernels)
    if (kernel.real) return kernel.real;
  return std::nullopt;
}

TransformKind kind_of(const Plan& plan) {
  const std::optional<RealStep> step = real_step_of(plan);
  return step ? step->kind : TransformKind::c2c;
}

bool transforms(const Plan& plan, Axis axis) {
  return std::find(plan.axes.begin(), plan.axes.end(), axis) != plan.axes.end();
}

bool transforms_all_axes(const Plan& plan) {
  return std::equal(plan.axes.begin(), plan.axes.end(), all_axes.begin(), all_axes.end());
}

std::int64_t transformed_elements(const Plan& plan) {
  std::int64_t product = 1;
  for (Axis axis : all_axes)
    if (transforms(plan, axis) && __builtin_mul_overflow(product, plan.size[axis], &product))
      throw UsageError("the transformed axes " + axes_text(plan.axes) + " of size " + to_string(plan.size) +
                       " have more elements than fit in 64 bits");
  return product;
}

std::string axes_text(const std::vector<Axis>& axes) {
  std::string text = "[";
  for (Axis axis : axes) {
    if (text.size() > 1) text += ", ";
    text += axis_letter(axis);
  }
  return text + ']';
}

bool packs_real_rows(const Plan& plan) { return real_step_of(plan) && plan.size.nx % 2 == 0; }

bool odd_real_rows(const Plan& plan) { return real_step_of(plan) && plan.size.nx % 2 != 0; }

std::int64_t real_x_stage_length(std::int64_t nx) { return nx % 2 == 0 ? nx / 2 : nx; }

std::int64_t stage_length(const Plan& plan, Axis axis) {
  const std::int64_t length = plan.size[axis];
  return axis == Axis::x && real_step_of(plan) ? real_x_stage_length(length) : length;
}

Extents stage_extents(const Plan& plan) {
  return {stage_length(plan, Axis::x), plan.size.ny, plan.size.nz};
}

Extents spectrum_extents(const Plan& plan) {
  return real_step_of(plan) ? Extents{plan.size.nx / 2 + 1, plan.size.ny, plan.size.nz} : plan.size;
}

std::vector<SubComputation> stages_of(const Plan& plan, Axis axis) {
  std::vector<SubComputation> stages;
  for (const Kernel& kernel : plan.kernels)
    for (const SubComputation& sub : kernel.subs)
      if (sub.axis == axis) stages.push_back(sub);
  return stages;
}

}  // namespace fft3d
