// The legality checks of a plan, each error located at the offending term.
#pragma once

#include <vector>

#include "fft3d/diagnostics.hpp"
#include "fft3d/plan_text.hpp"

namespace fft3d {

// Every error of the plan, in source order of discovery; empty when the plan is legal. Checks: values positive,
// radix * stride == span, span divides the axis length, count == N / radix, a DIF chain per axis (first span N, each
// span the previous stride, last stride 1, twiddles exactly on stages with stride > 1), radices multiplying to N,
// no missing axis and no stage on an axis of length 1, no empty kernel, a known arch, power-of-two sizes whose
// buffer can exist. Axes: at least one, each once, in X, Y, Z order; no stage on an untransformed axis, whose
// chain is not checked; a real step needs X among the axes. A real plan: at most one real step, on X, of length
// NX; X stages chain over stage_length (NX/2, or NX where NX is odd, every X stage then in the step's kernel); R2C
// after every X stage and before every Y and Z stage, C2R after every Y and Z stage and before every X stage (each
// misplaced stage is reported where it stands, saying where the step must go).
std::vector<Diagnostic> check_plan(const ParsedPlan& parsed);
// For a Plan built in code: locations are "<plan>" with kernel/term indices in the message.
std::vector<Diagnostic> check_plan(const Plan& plan);
// Throws PlanError when check_plan finds anything.
void require_legal(const Plan& plan);

// Largest element count any buffer may have: 2^62 / 16 bytes (complex fp64).
inline constexpr std::int64_t max_elements = (std::int64_t{1} << 58);

}  // namespace fft3d
