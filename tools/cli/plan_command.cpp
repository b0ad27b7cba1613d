// `fft3d plan`: the default planner's plan for a size, of any kind (--transform c2c, r2c or c2r), or with
// --measure N the fastest of its N best candidates timed on this machine's GPU by the library's measured planning
// (measured_planning.hpp: each candidate checked against the first candidate's result before its time counts), out
// of place or, for c2c, with --in-place in place.
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "fft3d/errors.hpp"
#include "fft3d/file_writes.hpp"
#include "fft3d/lengths.hpp"
#include "fft3d/planner.hpp"
#include "fft3d/transform.hpp"
#include "fft3d/wisdom.hpp"
#include "measured_plan.hpp"
#include "options.hpp"

namespace fft3d::cli {
namespace {

// The planner's first choice, or with `measure` > 0 the fastest on the GPU of that many candidates and of the plan
// runs take now (a table's or wisdom's); `header` receives the comment line that says which.
Plan chosen_plan(const Extents& size, const std::string& arch, int measure, bool in_place, TransformKind kind,
                 Precision precision, std::int64_t batch, std::string& header) {
  if (measure == 0) {
    const std::string transform = kind == TransformKind::c2c ? "" : " --transform " + to_string(kind);
    header = "# Written by `fft3d plan" + transform +
             (in_place ? " --in-place`: the default planner's plan for runs in place.\n"
                       : "`: the default planner's plan.\n");
    // The candidates weighed for the placement, as they lower in the precision (an fp64 plan's tiles hold doubles)
    // and as the batch's grid fills the GPU.
    Plan plan = default_plan_of_kind(
        size, arch, kind, passes_in_batch(passes_in_precision(passes_on_its_profile_in(in_place), precision), batch),
        in_place);
    plan.precision = precision;
    return plan;
  }
  require_measurable(kind, in_place);
  const std::string command = "fft3d plan --measure " + std::to_string(measure) + (in_place ? " --in-place" : "") +
                              (kind == TransformKind::c2c ? "" : " --transform " + to_string(kind)) +
                              (precision == Precision::fp64 ? " --precision fp64" : "");
  MeasuredChoice choice = measured_plan(size, arch, measure, in_place, kind, precision,
                                        command + (batch > 1 ? " --batch " + std::to_string(batch) : ""), {}, batch);
  header = choice.header;
  return std::move(choice.plan);
}

}  // namespace

int plan_command(const Args& args) {
  po::options_description options("plan options");
  options.add_options()
      ("size", po::value<std::string>()->required(), "NXxNYxNZ, each length with factors 2, 3, 5 and 7 only")
      ("arch", po::value<std::string>()->default_value("hopper"), "profile: tesla, fermi or hopper")
      ("transform", po::value<std::string>()->default_value("c2c"),
       "c2c, r2c (real to complex, NX even) or c2r (its inverse): the kind of plan")
      ("measure", po::value<int>()->default_value(0),
       "N > 0: time the planner's N best candidates on this GPU (each checked against the first candidate's result) and "
       "write the fastest; needs a CUDA device")
      ("in-place", po::bool_switch(), "the plan for runs in place, which can differ from the one out of place (a "
       "plan that needs the digit-reversal pass only in place); with --measure: time the candidates in place (c2c "
       "only, r2c and c2r are timed out of place)")
      ("remember", po::bool_switch(), "with --measure: also keep the fastest as wisdom, which `run --size` (with "
       "--in-place for a plan measured in place) and `bench` then take before the table and the default planner")
      ("precision", po::value<std::string>()->default_value("fp32"), "fp32 or fp64: the plan's precision (an fp64 "
                                                                      "plan's tiles hold half as many values)")
      ("output,o", po::value<std::string>(), "write the plan to this file instead of stdout")
      ("batch", po::value<std::int64_t>()->default_value(1), "volumes one run transforms: the plan's batch (the plan "
       "is one volume's)");
  po::variables_map vm;
  if (!parse_options("plan", "--size NXxNYxNZ [--arch A] [--transform K] [--precision P] [--batch B] "
                     "[--in-place] [--measure N [--remember]] [-o FILE]", args,
                     options, {}, vm))
    return exit_ok;
  const int measure = vm["measure"].as<int>();
  if (measure < 0 || measure > 16) throw UsageError("--measure must be between 0 (no measuring) and 16");

  const bool remember = vm["remember"].as<bool>(), in_place = vm["in-place"].as<bool>();
  if (remember && measure == 0) throw UsageError("--remember keeps a measured plan: give --measure N");

  std::string header;
  const Extents asked = parse_extents(vm["size"].as<std::string>());
  const std::string arch = vm["arch"].as<std::string>();
  const TransformKind kind = parse_kind(vm["transform"].as<std::string>());
  // A size with unit axes is planned (and remembered) as its squeezed size, which `run --size` looks up.
  const Extents size = squeezed_extents(asked, kind);
  const Precision precision = parse_precision(vm["precision"].as<std::string>());
  const std::int64_t batch = vm["batch"].as<std::int64_t>();
  if (batch < 1) throw UsageError("--batch " + std::to_string(batch) + ": a run takes 1 or more volumes");
  if (batch > 1 && remember)
    throw UsageError("--batch with --remember: wisdom keeps one volume's plan (run the measured batch plan's file)");
  Plan plan = chosen_plan(size, arch, measure, in_place, kind, precision, batch, header);
  plan.batch = batch;
  if (size != asked)
    header += "# " + to_string(asked) + " planned as " + to_string(size) + ": the same memory (unit axes squeezed).\n";
  const std::string text = header + to_yaml(plan);
  if (remember) std::cerr << "remembered as wisdom: " << remember_plan(arch, size, in_place, text, kind, precision) << "\n";
  if (vm.count("output")) {
    write_file_atomically(vm["output"].as<std::string>(), text);
  } else {
    std::cout << text;
  }
  return exit_ok;
}

}  // namespace fft3d::cli
