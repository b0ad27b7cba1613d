#include "explain_gpus.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <string>

#include "fft3d/errors.hpp"
#include "fft3d/plan_cost.hpp"
#include "fft3d/slab_decomposition.hpp"
#include "fft3d/slab_pipeline.hpp"

namespace fft3d::cli {
namespace {

// What each GPU sends to its peers a second, all links together, measured with the slab exchange of 1024³ alone
// between H200s joined by NV18 (`bench --gpus`, bench/results/2026-11-26-h200x4-peer-stores/): by exchange and G.
struct MeasuredLinkRate {
  SlabExchange exchange;
  int gpus;
  double gbs;
};
constexpr MeasuredLinkRate measured_link_rates[] = {
    {SlabExchange::copy_engines, 2, 391.0},
    {SlabExchange::copy_engines, 4, 196.0},
    {SlabExchange::peer_stores, 4, 340.0},
};
// Where none was measured (peer stores on 2 GPUs, NCCL, 8 GPUs): the 2-GPU copy engines' rate, the table's first.
constexpr double unmeasured_link_gbs = measured_link_rates[0].gbs;

struct LinkRate {
  double gbs;
  std::string source;
};

// --link-bandwidth where given, else the measured rate of the exchange the run takes on G GPUs.
LinkRate link_rate(const po::variables_map& vm, SlabExchange exchange, int gpus) {
  if (vm.count("link-bandwidth")) {
    const double gbs = vm["link-bandwidth"].as<double>();
    if (!(gbs > 0) || !std::isfinite(gbs)) throw UsageError("--link-bandwidth must be positive and finite");
    return {gbs, "--link-bandwidth"};
  }
  for (const MeasuredLinkRate& rate : measured_link_rates)
    if (rate.exchange == exchange && rate.gpus == gpus) return {rate.gbs, "measured on H200s"};
  return {unmeasured_link_gbs, "not measured for this exchange and G: the 2-GPU copy engines' rate"};
}

double megabytes(double bytes) { return bytes / 1e6; }

// A local plan's kernels and what they move (its volume's reads and writes times its batch); returns its floor in ms.
double explain_local_plan(const char* name, const Plan& plan, double bandwidth) {
  const PlanCost cost = plan_cost(plan, static_cast<int>(complex_value_bytes(plan.precision)));
  const double bytes = static_cast<double>(cost.bytes_moved) * static_cast<double>(plan.batch);
  std::cout << name << to_string(plan.size) << (plan.batch > 1 ? " x " + std::to_string(plan.batch) : "") << ", "
            << to_string(kind_of(plan)) << ", " << plan.kernels.size() << " kernel"
            << (plan.kernels.size() == 1 ? "" : "s") << ":";
  for (const auto& kernel : plan.kernels) std::cout << " {" << to_string(kernel) << "}";
  std::cout << "\n         " << std::setprecision(1) << megabytes(bytes) << " MB moved a GPU, floor "
            << std::setprecision(3) << bytes / (bandwidth * 1e6) << " ms at " << std::setprecision(0) << bandwidth
            << " GB/s";
  if (const std::optional<double> passes = passes_on_its_profile(plan))
    std::cout << "; model " << std::setprecision(2) << *passes << " pass-equivalents";
  std::cout << "\n";
  return bytes / (bandwidth * 1e6);
}

// The order the bound adds: what overlaps the first exchange, then what follows it.
const char* schedule_text(bool inverse, SlabLayout layout) {
  if (inverse && layout == SlabLayout::natural)
    return "the Z work beside the first exchange, then the slab plan beside the second";
  if (inverse) return "the Z work, then the slab plan beside the exchange";
  return layout == SlabLayout::natural ? "the slab plan beside the first exchange, then the Z work beside the second"
                                       : "the slab plan beside the first exchange, then the Z work";
}

}  // namespace

void add_multi_gpu_explain_options(po::options_description& options) {
  options.add_options()
      ("gpus", po::value<int>(), "the slab decomposition over G GPUs (1 to 8) of --size: its local plans, exchanges, "
       "pipeline and floors, without a GPU")
      ("layout", po::value<std::string>()->default_value("natural"),
       "with --gpus: the spectrum's layout, natural or y_slabs")
      ("exchange", po::value<std::string>()->default_value("auto"),
       "with --gpus: auto, copy-engines, peer-stores or nccl")
      ("link-bandwidth", po::value<double>(),
       "with --gpus: GB/s a GPU sends to its peers, all links together, for the exchanges' floor (default: the "
       "rate measured on H200s for the exchange and G, else the 2-GPU copy engines' 391)");
}

int explain_on_several_gpus(const po::variables_map& vm) {
  const int gpus = vm["gpus"].as<int>();
  if (vm.count("plan"))
    throw UsageError("--gpus takes --size: each GPU's plans come from the slab decomposition, not a plan file");
  if (!vm.count("size")) throw UsageError("--gpus needs --size NXxNYxNZ");
  if (vm.count("batch")) throw UsageError("--gpus: a multi-GPU transform runs one volume (no --batch)");
  if (!vm["dump-cuda"].as<std::string>().empty()) throw UsageError("--gpus does not take --dump-cuda");
  const double bandwidth = vm["bandwidth"].as<double>();
  if (!(bandwidth > 0) || !std::isfinite(bandwidth)) throw UsageError("--bandwidth must be positive and finite");
  // C2R is the R2C decomposition's inverse: the same slabs and exchanges, the Z work first, then the slab C2R.
  const TransformKind kind = requested_kind(vm);
  const bool inverse = kind == TransformKind::c2r;
  const Precision precision = parse_precision(optional_string(vm, "precision").value_or("fp32"));
  const Extents size = parse_extents(vm["size"].as<std::string>());
  const SlabLayout layout = parse_layout(vm["layout"].as<std::string>());
  const SlabDecomposition d = slab_decomposition(size, gpus, vm["arch"].as<std::string>(), precision,
                                                 inverse ? TransformKind::r2c : kind);
  const SlabDecomposition units = in_exchange_units(d);
  const SlabPipeline pipeline = one_process_pipeline(units, layout, parse_exchange(vm["exchange"].as<std::string>()));
  const LinkRate link = link_rate(vm, pipeline.exchange, gpus);

  const double local_bytes = static_cast<double>(units.local_elements() * exchange_unit_bytes);
  const double sent_bytes = local_bytes * (gpus - 1) / gpus;
  const int exchanges = layout == SlabLayout::natural ? 2 : 1;
  std::cout << std::fixed << "plan     slab decomposition of " << to_string(size) << " (" << to_string(kind) << ", "
            << to_string(precision) << ") over " << gpus << " GPU" << (gpus == 1 ? "" : "s") << ", "
            << d.slab.arch << " plans, " << (layout == SlabLayout::natural ? "natural" : "y_slabs") << " layout\n"
            << "slabs    " << to_string(d.z_slab()) << " z slab a GPU (the spectrum's), " << to_string(d.y_slab())
            << " y slab for the Z work; " << std::setprecision(1) << megabytes(local_bytes) << " MB a GPU\n"
            << "exchange " << exchanges << " a transform (" << exchange_name(pipeline.exchange) << "), each sending "
            << megabytes(sent_bytes) << " MB a GPU to its peers and keeping " << megabytes(local_bytes - sent_bytes)
            << " MB\n"
            << "memory   one exchange buffer a GPU, " << megabytes(local_bytes)
            << " MB, plus the local plans' workspace where one needs it\n"
            << "pipeline slab plan in " << d.z_slab().nz / pipeline.chunk_planes << " chunk"
            << (d.z_slab().nz / pipeline.chunk_planes == 1 ? "" : "s") << " of " << pipeline.chunk_planes
            << " Z planes";
  if (pipeline.exchange == SlabExchange::nccl) std::cout << " (NCCL: each step whole)";
  if (layout == SlabLayout::natural) std::cout << "; column plan in " << pipeline.row_chunks << " row chunk"
                                               << (pipeline.row_chunks == 1 ? "" : "s");
  if (pipeline.exchange != SlabExchange::nccl && slab_last_kernel_apart(d, pipeline.chunk_planes, pipeline.row_chunks))
    std::cout << "\n         the slab plan's last kernel apart on each GPU's rows: its own rows straight into "
                 "(inverse: from) its y slab, not copied";
  std::cout << "\n\n";
  // The local plans in the order the transform runs them (the inverse's Z work first).
  double column_ms = inverse ? explain_local_plan("column   ", d.column, bandwidth) : 0.0;
  const double slab_ms = explain_local_plan("slab     ", inverse ? d.slab_c2r : d.slab, bandwidth);
  if (!inverse) column_ms = explain_local_plan("column   ", d.column, bandwidth);
  // Forward, the schedule overlaps the slab plan with the first exchange and, in natural order, the Z work with the
  // second; the Z work cannot start before the first exchange ends (every Z line holds every GPU's planes). The
  // inverse runs the mirror image, so its bound is the same sum.
  const double one_exchange_ms = gpus > 1 ? sent_bytes / (link.gbs * 1e6) : 0.0;
  const double bound_ms = std::max(slab_ms, one_exchange_ms) +
                          (layout == SlabLayout::natural ? std::max(column_ms, one_exchange_ms) : column_ms);
  std::cout << "\nfloor    local plans " << std::setprecision(3) << slab_ms + column_ms << " ms at "
            << std::setprecision(0) << bandwidth << " GB/s; exchanges " << std::setprecision(3)
            << exchanges * one_exchange_ms << " ms at " << std::setprecision(0) << link.gbs << " GB/s a GPU ("
            << link.source << ")\n"
            << "bound    " << std::setprecision(3) << bound_ms << " ms: " << schedule_text(inverse, layout) << "\n";
  return exit_ok;
}

}  // namespace fft3d::cli
