// The CPU model of the copy-engine exchanges (slab_decomposition.hpp, PlaneCopy), for tests.
#pragma once

#include <cstdint>
#include <vector>

#include "fft3d/slab_decomposition.hpp"

namespace fft3d {

// Runs copies between host buffers (buffers[g] is GPU g's): the CPU model of an exchange, for tests.
template <typename T>
void run_copies(const std::vector<PlaneCopy>& copies, const std::vector<const T*>& sources,
                const std::vector<T*>& destinations) {
  for (const PlaneCopy& c : copies)
    for (std::int64_t r = 0; r < c.height; ++r)
      for (std::int64_t i = 0; i < c.width; ++i)
        destinations[c.to][c.dst_offset + r * c.dst_pitch + i] = sources[c.from][c.src_offset + r * c.src_pitch + i];
}

}  // namespace fft3d
