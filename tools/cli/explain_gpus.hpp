// `fft3d explain --gpus G --size NXxNYxNZ`: what a multi-GPU run of that size would do, on the CPU: the slab
// decomposition, the local plans, the exchanges' bytes, the pipeline's chunks and the floors.
#pragma once

#include "options.hpp"

namespace fft3d::cli {

void add_multi_gpu_explain_options(po::options_description& options);
// @pre vm holds --gpus.
int explain_on_several_gpus(const po::variables_map& vm);

}  // namespace fft3d::cli
