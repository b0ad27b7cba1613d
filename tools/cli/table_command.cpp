#include <iostream>

#include "fft3d/lengths.hpp"
#include "fft3d/plan_table.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "options.hpp"

namespace fft3d::cli {

int table_command(const Args& args) {
  po::options_description options("table options");
  options.add_options()
      ("arch", po::value<std::string>()->default_value(""), "only this profile's table")
      ("size", po::value<std::string>(), "print the path of the table's plan for NXxNYxNZ (needs --arch; a size with unit "
       "axes takes its squeezed size's plan: 1x1024x1024 that of 1024x1024x1)")
      ("in-place", po::bool_switch()->default_value(false), "with --size: the plan in-place runs take")
      ("transform", po::value<std::string>()->default_value("c2c"), "with --size: the plan of this kind (c2c, r2c, c2r)");
  po::variables_map vm;
  if (!parse_options("table", "[--arch A] [--size NXxNYxNZ [--in-place] [--transform K]]", args, options, {}, vm))
    return exit_ok;

  const std::string arch = vm["arch"].as<std::string>();
  if (vm.count("size")) {
    if (arch.empty()) throw UsageError("--size needs --arch");
    const Extents asked = parse_extents(vm["size"].as<std::string>());
    const TransformKind kind = parse_kind(vm["transform"].as<std::string>());
    const Extents size = squeezed_extents(asked, kind);  // the size whose table plan a run of `asked` takes
    if (const auto path = find_table_plan(arch, size, vm["in-place"].as<bool>(), kind)) {
      std::cout << *path << "\n";
      return exit_ok;
    }
    const std::string transform = kind == TransformKind::c2c ? "" : " --transform " + to_string(kind);
    std::cerr << "fft3d table: no " << arch << (kind == TransformKind::c2c ? "" : " " + to_string(kind))
              << " table plan for " << to_string(size)
              << (size == asked ? "" : " (" + to_string(asked) + " planned as " + to_string(size) + ")")
              << " (`fft3d plan --size " << to_string(size) << " --arch "
              << arch << transform << "` writes one)\n";
    return exit_failed;
  }
  for (const TableEntry& entry : table_entries(arch, std::nullopt))
    std::cout << entry.arch << "  " << to_string(entry.size) << "  " << entry.path
              << (entry.kind == TransformKind::c2c ? "" : "  (" + to_string(entry.kind) + ")")
              << (entry.in_place_only ? "  (in place)" : "") << "\n";
  return exit_ok;
}

}  // namespace fft3d::cli
