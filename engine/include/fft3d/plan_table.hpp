// Tuning tables: plans/<arch>/<NX>x<NY>x<NZ>.yaml, one plan per size and architecture, for both placements; beside
// it an optional <NX>x<NY>x<NZ>-in-place.yaml that in-place runs take instead, where the fastest plan differs by
// placement (a two-pass split whose sorted stores cost more in place than a third pass; docs/performance.md, ledger
// "buffer placement"). Real transforms have tables of their own beside them: <NX>x<NY>x<NZ>-r2c.yaml and
// <NX>x<NY>x<NZ>-c2r.yaml (size: the real volume), each with its optional -in-place variant
// (<NX>x<NY>x<NZ>-r2c-in-place.yaml). A GPU model may have a table of its own under <arch>/gpus/<gpu>/ (below).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fft3d/plan_ir.hpp"

namespace fft3d {

// Where tables are looked up, first match wins: $FFT3D_PLANS_DIR; share/fft3d/plans beside the running executable
// (a build tree, which links the source tree's plans/ there) or beside its bin/ folder (a relocated install); the
// installed share/fft3d/plans. No source-tree path is compiled into the library.
std::vector<std::string> plan_table_dirs();

struct TableEntry {
  std::string arch;
  Extents size;
  std::string path;
  bool in_place_only = false;  // an <size>[-kind]-in-place.yaml file
  TransformKind kind = TransformKind::c2c;  // c2c: <size>.yaml; r2c, c2r: <size>-r2c.yaml, <size>-c2r.yaml
};

// Every plan file of an arch's table (all arches when arch is empty) for transforms of `kind` (every kind when it is
// empty), sorted by arch, element count, kind (c2c, r2c, c2r), then the plan for both placements before the in-place
// one. Throws UsageError for an arch that names no profile (it would name a folder). The file name says the kind;
// whether the plan inside is of that kind is checked where a plan is loaded for a kind (plan_for_size).
std::vector<TableEntry> table_entries(const std::string& arch = "",
                                      std::optional<TransformKind> kind = TransformKind::c2c);
// The table's plan file for this arch, size, placement and kind, if there is one: in place, the in-place file where
// there is one, else the plan for both placements.
std::optional<std::string> find_table_plan(const std::string& arch, const Extents& size, bool in_place = false,
                                           TransformKind kind = TransformKind::c2c);

// The file-name suffix of a kind's plans: "" (c2c), "-r2c", "-c2r" (tables and wisdom share it).
std::string kind_suffix(TransformKind kind);
// "<NX>x<NY>x<NZ>[-r2c|-c2r][-in-place][-fp64].yaml": the name a table files this size's plan under (fp64 plans,
// measured in fp64, in GPU tables only: the arch's tables hold fp32 plans).
std::string table_file_name(const Extents& size, bool in_place = false, TransformKind kind = TransformKind::c2c,
                            Precision precision = Precision::fp32);

// A GPU's own table: plans measured on one GPU model (`fft3d table --measure`), filed under
// <table dir>/<arch>/gpus/<gpu_table_folder(device name)>/ with the arch table's file names. plan_for_size takes
// them, on that GPU, before the arch's table: the arch's table was tuned on one chip, and another chip of the arch
// (an H200 for an H100's table) may rank the candidates otherwise.
// The folder of a device name: lower case, every run of other characters than letters and digits one '-'
// ("NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3").
std::string gpu_table_folder(const std::string& device_name);
// A plan file of a GPU's own table: its arch, its GPU's folder name, and the file.
struct GpuTableFile {
  std::string arch;
  std::string gpu;
  std::string path;
};
// Every GPU table's plan files in every table directory (all arches when arch is empty), sorted by path, each once.
std::vector<GpuTableFile> gpu_table_files(const std::string& arch = "");
// Whether the arch's table holds an in-place file (<size>[-kind]-in-place.yaml) of this size and kind.
bool arch_table_has_in_place_file(const std::string& arch, const Extents& size, TransformKind kind);
// The GPU table's plan file for this arch, device, size, placement, kind and precision, if there is one (in place:
// the in-place file first), from the first table directory (plan_table_dirs) that holds that GPU's folder. In place,
// an out-of-place file yields to the arch table's in-place file of the size and kind: that file exists because
// another plan serves in place, and measured planning times real plans out of place; and
// it does not serve where its plan takes the digit-reversal pass in place only (lowers_in_natural_order), which would
// cost a reorder and a copy back there: the arch's table or the planner, ranking for runs in place, serves instead.
std::optional<std::string> find_gpu_table_plan(const std::string& arch, const std::string& device_name,
                                               const Extents& size, bool in_place = false,
                                               TransformKind kind = TransformKind::c2c,
                                               Precision precision = Precision::fp32);

}  // namespace fft3d
