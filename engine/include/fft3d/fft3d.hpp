// fft3d's public API, in one header.
//
//   #include <fft3d/fft3d.hpp>
//   fft3d::GpuTransform fft({.extents = {256, 256, 256}});   // the plan for this size on this GPU
//   fft.forward(d_in, d_out, stream);                          // device std::complex<float>*
//
// - transform.hpp: TransformDesc (what to transform) and TransformOptions (direction, order, scaling at execution);
// - cpu_transform.hpp, gpu_transform.hpp: the transforms, built from a descriptor, a plan or a plan file;
// - slab_decomposition.hpp, slab_pipeline.hpp, multi_gpu_transform.hpp, cpu_slabs.hpp: one transform over several
//   GPUs (slabs of Z planes, their exchanges and how one process pipelines them), and its CPU model;
// - profiling.hpp: per-kernel runs, copy twins and setup times of a GPU transform, for benchmarks;
// - measured_planning.hpp: the planner's best candidates checked and timed on this GPU;
// - plan_ir.hpp, plan_text.hpp, checks.hpp, diagnostics.hpp: the plan language, its files and its checks;
// - planner.hpp, plan_table.hpp, wisdom.hpp, arch_profile.hpp: where plans come from;
// - plan_cost.hpp, index_maps.hpp: what a plan costs and where its stages leave each frequency;
// - lengths.hpp: the axis lengths transformed (factors 2, 3, 5 and 7) and why another is not;
// - limits.hpp: the largest sizes, plan files and thread counts, checked before any work;
// - file_writes.hpp: whole-or-nothing file writes;
// - errors.hpp: fft3d::Error, the base of every error the library throws.
// The C API (for C and other languages, e.g. the Python package) is the separate C header fft3d/fft3d_c.h, defined in
// fft3d::fft3d_c (libfft3d_c.so).
// The GPU transform and measured planning are defined in fft3d::fft3d_cuda (a build with the CUDA toolkit); the rest in fft3d::fft3d.
#pragma once

#include "fft3d/arch_profile.hpp"
#include "fft3d/checks.hpp"
#include "fft3d/cpu_slabs.hpp"
#include "fft3d/cpu_transform.hpp"
#include "fft3d/diagnostics.hpp"
#include "fft3d/errors.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/gpu_transform.hpp"
#include "fft3d/index_maps.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/limits.hpp"
#include "fft3d/measured_planning.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/plan_cost.hpp"
#include "fft3d/plan_ir.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/profiling.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/slab_pipeline.hpp"
#include "fft3d/transform.hpp"
#include "fft3d/wisdom.hpp"
