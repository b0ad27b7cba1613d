// Every shared-memory access instruction of a tile kernel, thread by thread, in the order the emitted kernel
// issues them (a first pass that loads from global memory still writes the tile; a last pass that stores to global
// memory only reads it, so its writes are left out below). The emitter's loops are these loops: element e = thread + i*threads for loads and stores,
// butterfly b = thread + i*threads for stages. A distributed tile's block runs the share of part 0 (elements and
// butterflies tile::part_butterfly gives it); an access to another part's element counts at its local word, in
// that part's banks.
#include "lowering/tile_maps.hpp"

namespace fft3d::tile {
namespace {

// One instruction per loop iteration of an element-wise phase; `map` gives the element thread t touches.
template <class Map>
void element_phase(const KernelSpec& spec, const std::string& name, Map map, SharedAccesses& out) {
  const int phase = static_cast<int>(out.phases.size());
  out.phases.push_back(name);
  const std::int64_t elements = spec.part_elements();
  for (std::int64_t first = 0; first < elements; first += spec.threads) {
    AccessInstruction access{phase, std::vector<std::int64_t>(spec.threads, -1)};
    for (int t = 0; t < spec.threads; ++t)
      if (first + t < elements) access.element[t] = part_local_element(spec, map(part_element(spec, 0, first + t)));
    out.instructions.push_back(std::move(access));
  }
}

// One instruction per (loop iteration, k < radix) of a butterfly phase; `map(base, k)` gives the element that the
// thread whose butterfly starts at `base` touches.
template <class Map>
void butterfly_phase(const KernelSpec& spec, std::int64_t element_step, std::int64_t radix, bool cross, int phase,
                     Map map, SharedAccesses& out) {
  const std::int64_t butterflies = spec.part_elements() / radix;  // part 0's share
  for (std::int64_t first = 0; first < butterflies; first += spec.threads) {
    for (std::int64_t k = 0; k < radix; ++k) {
      AccessInstruction access{phase, std::vector<std::int64_t>(spec.threads, -1)};
      for (int t = 0; t < spec.threads; ++t)
        if (first + t < butterflies) {
          const std::int64_t b = part_butterfly(spec, element_step, radix, cross, 0, first + t);
          access.element[t] = part_local_element(spec, map(butterfly_base(element_step, radix, b), k));
        }
      out.instructions.push_back(std::move(access));
    }
  }
}

// A stage in registers reads and writes the same elements. A split stage has one phase per pass; the last pass
// writes elsewhere (natural order in the group), so its writes are instructions of their own.
// `exchanged`: the stage's last pass writes in writer order (writer_exchange_accesses has those writes).
void stage_phase(const KernelSpec& spec, std::size_t index, bool exchanged, SharedAccesses& out) {
  const TileStage& stage = spec.stages[index];
  const std::string name = "stage " + std::to_string(index) + " " + to_string(stage.sub);
  if (!stage.is_split()) {
    out.phases.push_back(name);
    butterfly_phase(spec, stage.element_step, stage.sub.radix, stage_crosses_parts(spec, stage),
                    static_cast<int>(out.phases.size()) - 1,
                    [&](std::int64_t base, std::int64_t k) { return base + k * stage.element_step; }, out);
    return;
  }
  const std::vector<SplitPass> passes = split_passes(stage);
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const SplitPass& pass = passes[p];
    const int phase = static_cast<int>(out.phases.size());
    out.phases.push_back(name + " pass " + std::to_string(p) + " radix " + std::to_string(pass.radix));
    // The last pass takes its butterflies as its reads cross (its group's writes may cross where they do not).
    const bool cross = pass.last ? crosses_parts(spec, pass.element_step, pass.radix)
                                 : pass_crosses_parts(spec, stage, pass);
    butterfly_phase(spec, pass.element_step, pass.radix, cross, phase,
                    [&](std::int64_t base, std::int64_t k) { return base + k * pass.element_step; }, out);
    if (pass.last && !spec.store_in_last_pass && !exchanged)
      butterfly_phase(spec, pass.element_step, pass.radix, cross, phase,
                      [&](std::int64_t base, std::int64_t m) { return split_output_element(stage, base, m); }, out);
  }
}

}  // namespace

SharedAccesses shared_accesses(const KernelSpec& spec) {
  SharedAccesses out;
  if (spec.role != KernelRole::tile) return out;
  if (!spec.load_in_first_pass) element_phase(spec, "load", [](std::int64_t e) { return e; }, out);
  const bool exchanged = writer_exchange(spec).has_value();
  for (std::size_t s = 0; s < spec.stages.size(); ++s)
    stage_phase(spec, s, exchanged && s + 1 == spec.stages.size(), out);
  if (spec.store_in_last_pass) return out;  // the last pass writes global memory, not the tile
  if (exchanged) return out;  // the store reads the exchange's words (writer_exchange_accesses)
  element_phase(spec, "store digit-reversed", [](std::int64_t e) { return e; }, out);
  bool reverses = spec.transposed_store_run > 0;  // its slots walk the tile transposed
  for (const AxisTile& axis : spec.axes) reverses |= !axis.reversal_radices.empty();
  if (reverses)
    element_phase(spec, "store natural", [&spec](std::int64_t e) {
      return natural_source(spec, transposed_store_element(spec, e));
    }, out);
  return out;
}

}  // namespace fft3d::tile
