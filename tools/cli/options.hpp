// Option parsing shared by the commands.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fft3d/plan_text.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/multi_gpu_transform.hpp"
#include "fft3d/slab_decomposition.hpp"

namespace fft3d::cli {

namespace po = boost::program_options;

// Parses args against `options` (plus --help) and positional names; returns false after printing help.
bool parse_options(const std::string& command, const std::string& synopsis, const Args& args,
                   po::options_description& options, const po::positional_options_description& positional,
                   po::variables_map& vm);

// The value of a string option, if it was given.
std::optional<std::string> optional_string(const po::variables_map& vm, const char* key);

// The options that name a plan: a positional plan file, or --size with --arch and --transform (remembered wisdom for
// runs in place or not, else the table's plan, else the default planner's); and the plan they name, with where it
// came from in `how`. A plan file says its own kind: --transform, when given, must agree with it (UsageError).
// --precision, where the command has it and it is given, sets the plan's precision (a size's plan is chosen in it).
// --batch B sets the plan's batch (UsageError under 1).
void add_plan_source_options(po::options_description& options, po::positional_options_description& positional);
ParsedPlan plan_from_options(const po::variables_map& vm, std::string& how, bool in_place = false,
                             TransformKind kind = TransformKind::c2c);

// The kind --transform asks for (c2c, r2c or c2r), r2c turned into c2r by `inverse` (c2r is r2c's inverse).
TransformKind requested_kind(const po::variables_map& vm, bool inverse = false);

// A plan from a file, or for --size from the wisdom measured on this machine for the arch, size and placement
// (wisdom.hpp), else from the table of `gpu` (a device name; empty: none) if it has one, else from the arch's table
// if it has one, else from the default planner. `how` receives where the
// plan came from ("plans/tesla/128x128x128.yaml", "default planner"). The default planner weighs its candidates by
// `passes`: passes_on_its_profile, or passes_on_any_backend for a backend that runs every legal plan (the CPU);
// a size's plan is ranked as a run of `batch` volumes does (plan_for_size).
ParsedPlan plan_from(const std::optional<std::string>& file, const std::optional<std::string>& size,
                     const std::string& arch, std::string& how, bool in_place = false,
                     TransformKind kind = TransformKind::c2c, const PlanPasses& passes = passes_on_its_profile,
                     std::optional<Precision> precision = std::nullopt, std::int64_t batch = 1,
                     const std::string& gpu = {});

// The sizes of a --sizes list, "NXxNYxNZ[,NXxNYxNZ...]"; UsageError for an empty list or a malformed size.
std::vector<Extents> parse_size_list(const std::string& text);

// A multi-GPU spectrum's layout by its --layout name: natural or y_slabs; UsageError otherwise.
SlabLayout parse_layout(const std::string& name);
// --exchange: auto, copy-engines, peer-stores or nccl (multi_gpu_transform.hpp's SlabExchange).
SlabExchange parse_exchange(const std::string& name);

}  // namespace fft3d::cli
