// The data flow of a slab-decomposed transform (docs/multi-gpu.md): which local plan or exchange runs, from which
// buffer into which, shared by the GPU transform and its CPU model so that CI checks the flow the GPUs run.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "fft3d/errors.hpp"

#include "fft3d/slab_decomposition.hpp"
#include "fft3d/transform.hpp"

namespace fft3d {

// Every GPU's three buffers: the caller's input and output (one buffer in place: the steps then name it `out`) and
// the transform's own exchange buffer.
enum class SlabBuffer : std::uint8_t { in, out, exchange };
// The slab plan (z slabs), the column plan (y slabs), or an exchange between the two layouts.
enum class SlabStepKind : std::uint8_t { slab, column, to_y_slabs, to_z_slabs };

struct SlabStep {
  SlabStepKind kind = SlabStepKind::slab;
  SlabBuffer from = SlabBuffer::in;
  SlabBuffer to = SlabBuffer::out;
  friend bool operator==(const SlabStep&, const SlabStep&) = default;
};

// The steps of one transform of `kind` (c2c, or r2c for a real transform in either direction), in order.
// @post each step reads what the one before it wrote; the first reads `in` (out of place) or `out` (in place); the
// last writes `out`; out of place no step writes `in`, except the real inverse's, which uses `in` as scratch; an
// exchange never reads and writes one buffer (NCCL's sends and receives of a group must not overlap); a local plan
// may run in place.
std::vector<SlabStep> slab_steps(Direction direction, SlabLayout layout, bool in_place,
                                 TransformKind kind = TransformKind::c2c);

// Throws UsageError unless there is one non-null pointer per local GPU on both sides and every GPU is in place or none
// is; returns whether in place. The one check of the multi-GPU execute contract, shared with its CPU model.
template <class T>
bool require_slab_pointers(const std::vector<const T*>& ins, const std::vector<T*>& outs, int gpus,
                           const TransformOptions& options, const std::string& who) {
  if (ins.size() != static_cast<std::size_t>(gpus) || outs.size() != static_cast<std::size_t>(gpus))
    throw UsageError(who + ": " + std::to_string(ins.size()) + " inputs and " + std::to_string(outs.size()) +
                     " outputs for " + std::to_string(gpus) + " GPUs (one each)");
  for (int g = 0; g < gpus; ++g)
    if (!ins[g] || !outs[g]) throw UsageError(who + ": null pointer for GPU " + std::to_string(g));
  const bool in_place = ins[0] == outs[0];
  for (int g = 0; g < gpus; ++g)
    if ((ins[g] == outs[g]) != in_place)
      throw UsageError(who + ": in place on some GPUs only (GPU " + std::to_string(g) + " differs from GPU 0)");
  if (options.order != Order::natural)
    throw UsageError(who + ": digit-reversed order is not offered over several GPUs (natural order only)");
  return in_place;
}

// Throws UsageError unless a run of `call` (c2c: complex data both ways; r2c: reals in; c2r: reals out) fits a
// decomposition of kind `planned` (c2c, or r2c for both real directions) and `direction`. The one kind check of the
// multi-GPU execute contract, shared with its CPU model.
inline void require_slab_kind(TransformKind planned, TransformKind call, Direction direction, const std::string& who) {
  if ((planned == TransformKind::c2c) != (call == TransformKind::c2c))
    throw UsageError(who + ": " + (planned == TransformKind::c2c
                                       ? "real data given to a complex (c2c) transform; plan it with kind r2c"
                                       : "complex data both ways given to a real (r2c) transform; pass reals"));
  const Direction expected = call == TransformKind::c2r ? Direction::inverse : Direction::forward;
  if (call != TransformKind::c2c && direction != expected)
    throw UsageError(who + ": a " + to_string(call) + " run goes " + to_string(expected) + ", not " +
                     to_string(direction));
}

// Every local GPU's buffers by the role a step names: what a step reads and writes (`in` only where the caller
// lent it as scratch: a real inverse out of place).
template <class T>
struct SlabBuffers {
  std::vector<const T*> in;
  std::vector<T*> out;
  std::vector<T*> exchange;
  std::vector<T*> in_scratch;  // `in`, writable; empty: never written

  std::vector<const T*> readable(SlabBuffer role) const {
    if (role == SlabBuffer::in) return in;
    const std::vector<T*>& written = writable(role);
    return {written.begin(), written.end()};
  }
  const std::vector<T*>& writable(SlabBuffer role) const {
    if (role == SlabBuffer::in && in_scratch.empty()) throw std::logic_error("slab steps: a step writes the input");
    return role == SlabBuffer::in ? in_scratch : role == SlabBuffer::out ? out : exchange;
  }
};

// The options of both local plans: the caller's direction and scaling in natural order. Each plan scales by its
// own transformed lengths (1/(NX*NY) and 1/NZ): together 1/N.
inline TransformOptions local_slab_options(const TransformOptions& options) {
  return {.direction = options.direction, .order = Order::natural, .scaling = options.scaling};
}

}  // namespace fft3d
